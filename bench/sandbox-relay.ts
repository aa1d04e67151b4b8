/**
 * `npx tsx bench/sandbox-relay.ts [calls]`: what forwarding costs (docs/deployment.md#cluster-mode,
 * docs/decisions.md). Two replicas in cluster mode (tests/fixtures/cluster/sandbox-replica.ts: the
 * app's pool with the real bubblewrap sandbox, a real Redis, one SQLite file) and one stdio server
 * (tests/fixtures/cluster/home-server.mjs, its `count` tool writing to its kept home). Replica A runs
 * the sandbox; the same tool call is timed on A (straight to its child) and on B (forwarded to A over
 * the internal hop, answered by A's connection): p50 and p95 one call at a time, then the calls per
 * second with 16 in flight. Timed inside each replica from the pool's call to its outcome, so
 * neither the HTTP API nor Next is in the figures: the difference is the hop's whole cost (signing,
 * loopback HTTP, verification, the holder's lookups, the relayed JSON). `SWITCHBOARD_SANDBOX=off`
 * times the same without the sandbox.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { closeDb, getDb } from "../db/client";
import { getPersonalWorkspaceId } from "../db/queries/workspaces";
import { addServer } from "../lib/servers/service";
import { startRedis } from "../tests/helpers/redis";
import { registerTestUser } from "../tests/helpers/register";

const REPLICA = path.join("tests", "fixtures", "cluster", "sandbox-replica.ts");
const FIXTURES = path.resolve("tests", "fixtures", "cluster");

interface Replica {
  child: ChildProcess;
  ask(command: unknown, key: string): Promise<Record<string, unknown>>;
}

function startReplica(id: string, redisUrl: string): Promise<Replica> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", REPLICA], {
    env: { ...process.env, REDIS_URL: redisUrl, SWITCHBOARD_REPLICA_ID: id },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const waiting: Array<{ key: string; resolve: (message: Record<string, unknown>) => void }> = [];
  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    if (!line.startsWith("{")) return;
    const message = JSON.parse(line) as Record<string, unknown>;
    const index = waiting.findIndex((w) => w.key in message);
    if (index >= 0) waiting.splice(index, 1)[0].resolve(message);
  });
  const next = (key: string) => new Promise<Record<string, unknown>>((resolve) => waiting.push({ key, resolve }));
  const replica: Replica = {
    child,
    ask(command, key) {
      const answer = next(key);
      child.stdin?.write(`${JSON.stringify(command)}\n`);
      return answer;
    },
  };
  return next("ready").then(() => replica);
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? 400);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-relay-bench-"));
  process.env.SWITCHBOARD_DATA_DIR = dir;
  const db = getDb();
  const user = await registerTestUser(db, { email: "relay@example.com", password: "a long enough password", name: "R" });
  const workspaceId = (await getPersonalWorkspaceId(db, user.id))!;
  const server = await addServer(
    db,
    { id: user.id, isAdmin: true, workspaceId },
    { name: "home", config: { command: "node", args: [path.join(FIXTURES, "home-server.mjs")], read_only_paths: [FIXTURES] } },
  );
  const redis = await startRedis();
  const [a, b] = [await startReplica("bench-a", redis.url), await startReplica("bench-b", redis.url)];
  const target = { userId: user.id, workspaceId, serverId: server.id, tool: "count" };
  try {
    // A starts the sandbox (its lease); B connects its relay. Then both warm up.
    for (const replica of [a, b, a, b]) await replica.ask({ calls: { ...target, n: 50 } }, "timed");
    const sequential: Record<string, number[]> = { holder: [], relayed: [] };
    // Interleaved rounds, so drift on a shared machine falls on both alike.
    for (let round = 0; round < 5; round++) {
      for (const [name, replica] of [
        ["holder", a],
        ["relayed", b],
      ] as const) {
        const { timed } = (await replica.ask({ calls: { ...target, n: Math.ceil(calls / 5) } }, "timed")) as { timed: { ms: number[] } };
        sequential[name].push(...timed.ms);
      }
    }
    const parallel: Record<string, number> = {};
    for (const [name, replica] of [
      ["holder", a],
      ["relayed", b],
    ] as const) {
      const { timed } = (await replica.ask({ calls: { ...target, n: calls, inFlight: 16 } }, "timed")) as { timed: { wallMs: number } };
      parallel[name] = calls / (timed.wallMs / 1000);
    }
    const row = (name: string) => {
      const sorted = [...sequential[name]].sort((x, y) => x - y);
      return `| ${name === "holder" ? "on the holder (A, its own child)" : "on the other replica (B, forwarded to A)"} | ${quantile(sorted, 0.5).toFixed(2)} | ${quantile(sorted, 0.95).toFixed(2)} | ${parallel[name].toFixed(0)} |`;
    };
    console.log(
      `\nsandbox ${process.env.SWITCHBOARD_SANDBOX === "off" ? "off" : "on"}, ${sequential.holder.length} calls each one at a time, ${calls} with 16 in flight\n`,
    );
    console.log("| tool call to a stdio server | p50 ms | p95 ms | calls/s, 16 in flight |\n|---|---|---|---|");
    console.log(row("holder"));
    console.log(row("relayed"));
    const p50 = (name: string) =>
      quantile(
        [...sequential[name]].sort((x, y) => x - y),
        0.5,
      );
    console.log(
      `\nforwarding adds ${(p50("relayed") - p50("holder")).toFixed(2)} ms at p50 (${(p50("relayed") / p50("holder")).toFixed(2)}×); throughput ${(parallel.relayed / parallel.holder).toFixed(2)}×`,
    );
  } finally {
    for (const replica of [a, b]) {
      replica.child.stdin?.end();
      replica.child.kill("SIGTERM");
      await new Promise((resolve) => replica.child.once("exit", resolve));
    }
    await redis.stop();
    await closeDb();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
