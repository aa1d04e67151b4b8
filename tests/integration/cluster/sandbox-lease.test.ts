/**
 * A stdio server's sandbox runs on one replica at a time, and a call landing on another is forwarded
 * to it (lib/runtime/sandbox-placement.ts): two replicas as tsx children
 * (tests/fixtures/cluster/sandbox-replica.ts, the app's pool with the real bubblewrap sandbox and its
 * kept home image, a real Redis, the test's database and data directory), and a stdio server
 * (tests/fixtures/cluster/home-server.mjs) that logs each start, call and end in its home. The log
 * and the host's loop devices are the proof: one start and one mount of the home image while two
 * replicas serve it, the calls of both in one home, a new start only after the holder stopped
 * (SIGTERM: the lease given back at once, once its home was unmounted) or died (kill -9: once its
 * lease ran out).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { leaseHolder } from "@/db/queries/leases";
import { closeGlobalPool } from "@/lib/mcp";
import { cachedServerDefinition } from "@/lib/runtime/definition-cache";
import { appPool } from "@/lib/runtime/engine";
import { sandboxLeaseName } from "@/lib/runtime/sandbox-leases";
import { sandboxPlacement } from "@/lib/runtime/sandbox-placement";
import { HOP_PATH } from "@/lib/runtime/relay-transport";
import { addServer } from "@/lib/servers/service";
import { startRedis, type TestRedis } from "../../helpers/redis";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { stopProcess, waitUntil } from "../mcp/helpers";
import { requireSandbox } from "../sandbox/helpers";
import { person, team } from "../workspaces/helpers";

// lib/runtime/engine.ts is marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const REPLICA = path.join("tests", "fixtures", "cluster", "sandbox-replica.ts");
const FIXTURES = path.resolve("tests", "fixtures", "cluster");
const HOME_SERVER = path.join(FIXTURES, "home-server.mjs");

let redis: TestRedis;
let dir = "";
const running: Replica[] = [];
let a: Replica;
let b: Replica;

/** One replica: send it a command, read what it said. */
interface Replica {
  id: string;
  url: string;
  child: ChildProcess;
  said: Array<Record<string, unknown>>;
  ask(command: unknown, key: string, timeoutMs?: number): Promise<Record<string, unknown>>;
}

async function startReplica(id: string): Promise<Replica> {
  // One process per replica (tsx as a loader, not its CLI's child), so a kill reaches the replica
  // itself; react-server: the app's server-only modules load as under Next.
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", REPLICA], {
    env: { ...process.env, REDIS_URL: redis.url, SWITCHBOARD_REPLICA_ID: id, SWITCHBOARD_SHUTDOWN_GRACE_SECONDS: "0" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const said: Array<Record<string, unknown>> = [];
  let errors = "";
  child.stderr?.on("data", (chunk) => (errors += chunk));
  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    if (line.startsWith("{")) said.push(JSON.parse(line));
  });
  const next = async (key: string, from: number, timeoutMs: number) => {
    await waitUntil(() => said.slice(from).some((m) => key in m) || child.exitCode !== null, timeoutMs, `replica ${id} to say ${key}`);
    const found = said.slice(from).find((m) => key in m);
    if (!found) throw new Error(`replica ${id} exited: ${errors.slice(-3000)}`);
    return found;
  };
  const ready = (await next("ready", 0, 60_000)).ready as { url: string };
  const replica: Replica = {
    id,
    url: ready.url,
    child,
    said,
    async ask(command, key, timeoutMs = 60_000) {
      const from = said.length;
      child.stdin?.write(`${JSON.stringify(command)}\n`);
      return await next(key, from, timeoutMs);
    },
  };
  running.push(replica);
  return replica;
}

/** A team's stdio server running the home server (its own sandbox home), as an administrator adds it. */
async function homeServer(tag: string, settings: Record<string, unknown> = {}) {
  const owner = await person(`${tag}@example.com`);
  const workspaceId = await team(owner, `${tag} team`);
  const record = await addServer(
    getDb(),
    { id: owner.id, isAdmin: true, workspaceId },
    { name: `${tag}-home`, config: { command: "node", args: [HOME_SERVER], read_only_paths: [FIXTURES], ...settings } },
  );
  return { userId: owner.id, workspaceId, serverId: record.id };
}

interface Called {
  text: string;
  isError: boolean;
  errorCode: string | null;
  transport: string | null;
}

async function call(replica: Replica, target: object, tool = "count", args: object = {}): Promise<Called> {
  return (await replica.ask({ call: { ...target, tool, args } }, "called", 90_000)).called as Called;
}

/** `count` on `replica`: the starts and calls the home's log holds. */
async function count(replica: Replica, target: object): Promise<{ starts: number; calls: number; transport: string | null }> {
  const answer = await call(replica, target);
  expect(answer.isError, answer.text).toBe(false);
  const { starts, calls } = JSON.parse(answer.text) as { starts: number; calls: number };
  return { starts, calls, transport: answer.transport };
}

/** The home's log, read through `replica`. */
async function homeLog(replica: Replica, target: object): Promise<string[]> {
  const answer = await call(replica, target, "log");
  expect(answer.isError, answer.text).toBe(false);
  return JSON.parse(answer.text) as string[];
}

/**
 * Never two starts without an end between them, and every end before the next start; but a sandbox
 * killed with its replica (`killed` of them) may die before it can log its end.
 */
function expectOneAtATime(log: string[], killed = 0): void {
  let open = false;
  let overlaps = 0;
  let lastEnd = 0;
  for (const line of log) {
    const [kind, , at] = line.split(" ");
    if (kind === "start") {
      if (open) overlaps++;
      expect(Number(at)).toBeGreaterThanOrEqual(lastEnd);
      open = true;
    } else if (kind === "end") {
      open = false;
      lastEnd = Number(at);
    }
  }
  expect(overlaps).toBeLessThanOrEqual(killed);
}

/** The loop devices backing the home image of `target` on this host (one per mount of it). */
function mounts(target: { userId: string; serverId: string }): string[] {
  const image = path.join(dir, "sandboxes", target.userId, `${target.serverId}.img`);
  return execFileSync("losetup", ["-j", image], { encoding: "utf8" }).split("\n").filter(Boolean);
}

const holderOf = async (target: { userId: string; serverId: string }) =>
  (await leaseHolder(getDb(), sandboxLeaseName(target.userId, target.serverId)))?.owner ?? null;

beforeAll(async () => {
  await requireSandbox();
  redis = await startRedis();
  dir = useTempDataDir();
  // Migrated here first: two processes opening a new SQLite file at once would both migrate it.
  getDb();
  [a, b] = await Promise.all([startReplica("replica-a"), startReplica("replica-b")]);
});

afterAll(async () => {
  for (const replica of running) {
    replica.child.stdin?.end();
    await stopProcess(replica.child);
  }
  await redis?.stop();
  removeTempDataDir(dir);
});

describe("the sandbox of a (user, server) runs on one replica at a time", () => {
  it("a call on the other replica is forwarded to the one running it: one start, one home", async () => {
    const target = await homeServer("forwarded");
    expect(await count(a, target)).toEqual({ starts: 1, calls: 1, transport: "stdio" });
    expect(await count(b, target)).toEqual({ starts: 1, calls: 2, transport: "relay" });
    for (let i = 0; i < 3; i++) {
      await count(a, target);
      await count(b, target);
    }
    expect(await count(b, target)).toMatchObject({ starts: 1, calls: 9 });
    expect(await holderOf(target)).toBe("replica-a");
    expect(mounts(target)).toHaveLength(1);
    expect((await a.ask({ leases: true }, "leases")).leases).toBeGreaterThanOrEqual(1);
    expect((await b.ask({ status: target }, "status")).status).toMatchObject({ state: "connected", transport: "relay", pid: null });
  });

  it("asked on both replicas at once, one starts it and the other relays", async () => {
    const target = await homeServer("race");
    const [onA, onB] = await Promise.all([count(a, target), count(b, target)]);
    expect(Math.max(onA.calls, onB.calls)).toBe(2);
    expect([onA.transport, onB.transport].sort()).toEqual(["relay", "stdio"]);
    const log = await homeLog(a, target);
    expect(log.filter((line) => line.startsWith("start "))).toHaveLength(1);
    expect(mounts(target)).toHaveLength(1);
  });

  it("a relayed call's progress reaches the replica it landed on (it outlives `timeout` as it would there)", async () => {
    // `timeout` 2 s: the relayed `wait` outlives it only through its progress.
    const target = await homeServer("progress", { timeout: 2 });
    await count(a, target);
    const answer = await call(b, target, "wait", { ms: 3_000 });
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.transport).toBe("relay");
    expect((JSON.parse(answer.text) as { steps: number }).steps).toBeGreaterThan(20);
  });

  it("a list the server changes reaches the relay on the other replica (it lists again)", async () => {
    const target = await homeServer("lists");
    await count(a, target);
    await count(b, target);
    const tools = async () => ((await b.ask({ tools: target }, "tools")).tools as string[]).filter((name) => name === "extra");
    expect(await tools()).toEqual([]);
    expect((await call(b, target, "grow")).isError).toBe(false);
    await waitUntil(async () => (await tools()).length === 1, 10_000, "the relay on B to list the new tool");
  });

  it("a holder that cannot be reached fails the call with a clear engine error (no 500), and is not replaced while it lives", async () => {
    const deaf = await startReplica("replica-deaf");
    const target = await homeServer("unreachable");
    await count(deaf, target);
    expect(await count(b, target)).toMatchObject({ starts: 1, transport: "relay" });
    await deaf.ask({ deafen: true }, "deaf");
    const answer = await call(b, target);
    expect(answer.isError).toBe(true);
    expect(answer.errorCode).toBe("unreachable");
    expect(answer.text).toContain("replica-deaf");
    expect(answer.text).toContain("SWITCHBOARD_INTERNAL_URL");
    expect(await holderOf(target)).toBe("replica-deaf");
    deaf.child.kill("SIGKILL");
  });

  it("the holder stopping (SIGTERM) gives the lease back at once; the next call starts it on the survivor, same home", async () => {
    const c = await startReplica("replica-c");
    const target = await homeServer("stopped");
    await count(c, target);
    expect(await count(b, target)).toMatchObject({ starts: 1, calls: 2, transport: "relay" });
    c.child.kill("SIGTERM");
    await new Promise((resolve) => c.child.once("exit", resolve));
    // Given back by the stop itself, not by running out, and only once its home was unmounted.
    expect(await holderOf(target)).toBeNull();
    expect(mounts(target)).toEqual([]);
    expect(await count(b, target)).toEqual({ starts: 2, calls: 3, transport: "stdio" });
    expect(await holderOf(target)).toBe("replica-b");
    expect(mounts(target)).toHaveLength(1);
    // The stopped sandbox may be killed before it logs its end.
    expectOneAtATime(await homeLog(b, target), 1);
  });

  it("the holder dying (kill -9) loses its lease when it runs out; a call on the survivor then starts it there, same home", async () => {
    const d = await startReplica("replica-d");
    const target = await homeServer("killed");
    await count(d, target);
    expect(await count(a, target)).toMatchObject({ starts: 1, calls: 2, transport: "relay" });
    d.child.kill("SIGKILL");
    await new Promise((resolve) => d.child.once("exit", resolve));
    const killedAt = Date.now();
    // The call that lands first waits for the lease to run out (10 s at most), then runs here.
    const answer = await count(a, target);
    expect(answer).toEqual({ starts: 2, calls: 3, transport: "stdio" });
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    expect(await holderOf(target)).toBe("replica-a");
    expect(mounts(target)).toHaveLength(1);
    // The dead replica's sandbox died with it; the new start came after it.
    const log = await homeLog(a, target);
    expectOneAtATime(log, 1);
    const starts = log.filter((line) => line.startsWith("start ")).map((line) => Number(line.split(" ")[2]));
    expect(starts[1]).toBeGreaterThanOrEqual(killedAt - 50);
  });
});

describe("the internal hop", () => {
  it("refuses a request without a proof, or with one made for another replica", async () => {
    const body = JSON.stringify({ userId: "u", workspaceId: "w", serverId: "s", message: { jsonrpc: "2.0", id: 1, method: "ping" } });
    const bare = await fetch(`${a.url}${HOP_PATH}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { code: string }).code).toBe("cluster.hop_refused");
  });
});

describe("single-node mode", () => {
  it("places nothing: without REDIS_URL the engine starts every stdio server here, with no lease", async () => {
    expect(process.env.REDIS_URL).toBeUndefined();
    expect(sandboxPlacement()).toBeUndefined();
    // This process is a single-node app: its pool starts the sandbox itself and takes no lease.
    const target = await homeServer("single");
    const definition = await cachedServerDefinition(getDb(), { id: target.userId, workspaceId: target.workspaceId }, target.serverId);
    const session = appPool().session(target.userId, definition);
    try {
      const outcome = await session.callTool("count");
      expect(outcome.isError).toBe(false);
      expect(session.status().transport).toBe("stdio");
      expect(await holderOf(target)).toBeNull();
    } finally {
      await closeGlobalPool();
    }
  });
});
