/**
 * Losing access reaches every replica (lib/use-cases/cluster-control.ts over a real Redis): this
 * process is replica A, on the test's database, with `REDIS_URL` set; a tsx child is replica B
 * (tests/fixtures/cluster/replica-process.ts) with its own pool and turn registry, hearing the control
 * channel as the app does from start-up. A member removed on A loses their turn and their MCP
 * session on B at once (the HTTP fixture sees the session end) while the owner's stay; a server
 * deleted on A closes B's connections to it; a deleted workspace stops everyone's turns there.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { upsertMembership } from "@/db/queries/memberships";
import type { AccessEffects } from "@/lib/domain/access-effects";
import { addServer, removeServer } from "@/lib/servers/service";
import { everywhereEffects } from "@/lib/use-cases/cluster-control";
import { withdrawingEffects } from "@/lib/use-cases/withdraw-requests";
import { removeMember } from "@/lib/workspaces/members";
import { deleteWorkspace } from "@/lib/workspaces/service";
import { startRedis, type TestRedis } from "../../helpers/redis";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { def, FIXTURES, freePort, startHttpServer, stopProcess, waitUntil } from "../mcp/helpers";
import { actorIn, person, team } from "../workspaces/helpers";

const TSX = path.join("node_modules", "tsx", "dist", "cli.mjs");
const REPLICA = path.join("tests", "fixtures", "cluster", "replica-process.ts");

let redis: TestRedis;
let dir = "";
let http: ChildProcess | undefined;
let base = "";
let replicaB: Replica;

/** Replica B: send it a command, read what it said. */
interface Replica {
  child: ChildProcess;
  said: Array<Record<string, unknown>>;
  send(command: unknown): void;
  /** The first thing said (from `from` on) that has `key`. */
  next(key: string, from?: number): Promise<Record<string, unknown>>;
}

function startReplica(): Promise<Replica> {
  const child = spawn(process.execPath, [TSX, REPLICA], { env: { ...process.env, REDIS_URL: redis.url }, stdio: ["pipe", "pipe", "pipe"] });
  const said: Array<Record<string, unknown>> = [];
  let errors = "";
  child.stderr?.on("data", (chunk) => (errors += chunk));
  readline.createInterface({ input: child.stdout! }).on("line", (line) => said.push(JSON.parse(line)));
  const replica: Replica = {
    child,
    said,
    send: (command) => child.stdin?.write(`${JSON.stringify(command)}\n`),
    async next(key, from = 0) {
      await waitUntil(() => said.slice(from).some((m) => key in m) || child.exitCode !== null, 20_000, `replica B to say ${key}`);
      const found = said.slice(from).find((m) => key in m);
      if (!found) throw new Error(`replica B exited: ${errors}`);
      return found;
    },
  };
  return replica.next("ready").then(() => replica);
}

/** Ask B for something and wait for the answer that has `key`. */
async function ask(command: unknown, key: string): Promise<Record<string, unknown>> {
  const from = replicaB.said.length;
  replicaB.send(command);
  return await replicaB.next(key, from);
}

/** The app's access effects (lib/use-cases/access-effects.ts) without OAuth: every replica's pool and turns. */
function appEffects(): AccessEffects {
  return withdrawingEffects(getDb(), { ...everywhereEffects(), forgetTokens: async () => {} });
}

const openSessions = async () => ((await (await fetch(`${base}/stats`)).json()) as { sessions: string[] }).sessions;

beforeAll(async () => {
  redis = await startRedis();
  // Replica A: this process's coordination (made on first use) is the Redis.
  process.env.REDIS_URL = redis.url;
  dir = useTempDataDir();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  http = await startHttpServer([path.join(FIXTURES, "hostile-http.mjs")], { PORT: String(port) }, `${base}/stats`);
  replicaB = await startReplica();
});

afterAll(async () => {
  replicaB?.child.stdin?.end();
  await stopProcess(replicaB?.child);
  await stopProcess(http);
  delete process.env.REDIS_URL;
  await redis?.stop();
  removeTempDataDir(dir);
});

/** A team of `owner` with `member` in it and one HTTP server of the fixture. */
async function teamWithServer(tag: string) {
  const owner = await person(`${tag}-owner@example.com`);
  const member = await person(`${tag}-member@example.com`);
  const workspaceId = await team(owner, `${tag} team`);
  await upsertMembership(getDb(), { workspaceId, userId: member.id, role: "member" });
  const record = await addServer(
    getDb(),
    { id: owner.id, isAdmin: false, workspaceId },
    { name: `${tag}-tools`, config: { url: `${base}/mcp/good` } },
  );
  return { owner, member, workspaceId, server: def(record.name, { url: `${base}/mcp/good` }, record.id) };
}

/** Connect `userId` to `server` on B; answers the session the fixture gave it. */
async function connectOnB(userId: string, server: unknown): Promise<string> {
  const { connected } = (await ask({ connect: { userId, server } }, "connected")) as { connected: { state: string; sessionId: string } };
  expect(connected.state).toBe("connected");
  expect(await openSessions()).toContain(connected.sessionId);
  return connected.sessionId;
}

describe("access lost on replica A takes effect on replica B", () => {
  it("a member removed on A loses their turn and MCP session on B at once; the owner keeps theirs", async () => {
    const { owner, member, workspaceId, server } = await teamWithServer("removal");
    const memberSession = await connectOnB(member.id, server);
    const ownerSession = await connectOnB(owner.id, server);
    await ask({ turn: { userId: member.id, workspaceId } }, "turn");
    await ask({ turn: { userId: owner.id, workspaceId } }, "turn");
    const before = replicaB.said.length;

    await removeMember(getDb(), await actorIn(owner, workspaceId), member.id, appEffects());

    const { stopped } = (await replicaB.next("stopped", before)) as { stopped: { userId: string } };
    expect(stopped.userId).toBe(member.id);
    await waitUntil(async () => !(await openSessions()).includes(memberSession), 5_000, "the member's session on B to end");
    expect((await ask({ live: { userId: member.id } }, "live")).live).toBe(0);
    // Only theirs: the owner's session and turn on B go on.
    expect(await openSessions()).toContain(ownerSession);
    expect((await ask({ live: { userId: owner.id } }, "live")).live).toBe(1);
    expect(replicaB.said.slice(before).filter((m) => "stopped" in m)).toHaveLength(1);
  });

  it("a server deleted on A closes every user's connection to it on B", async () => {
    const { owner, member, workspaceId, server } = await teamWithServer("release");
    const sessions = [await connectOnB(owner.id, server), await connectOnB(member.id, server)];

    await removeServer(getDb(), { id: owner.id, isAdmin: false, workspaceId }, server.id);

    await waitUntil(
      async () => !(await openSessions()).some((s) => sessions.includes(s)),
      5_000,
      "B's sessions to the deleted server to end",
    );
    expect((await ask({ live: { userId: member.id } }, "live")).live).toBe(0);
  });

  it("a workspace deleted on A stops every member's turn there on B and closes their connections to its servers", async () => {
    const { owner, member, workspaceId, server } = await teamWithServer("deletion");
    const sessions = [await connectOnB(owner.id, server), await connectOnB(member.id, server)];
    const before = replicaB.said.length;
    await ask({ turn: { userId: owner.id, workspaceId } }, "turn");
    await ask({ turn: { userId: member.id, workspaceId } }, "turn");
    await ask({ turn: { userId: member.id, workspaceId: member.personalWorkspaceId } }, "turn");

    await deleteWorkspace(getDb(), await actorIn(owner, workspaceId), appEffects());

    await waitUntil(
      () => replicaB.said.slice(before).filter((m) => "stopped" in m).length >= 2,
      5_000,
      "both turns in the workspace to stop",
    );
    await waitUntil(async () => !(await openSessions()).some((s) => sessions.includes(s)), 5_000, "B's sessions to its servers to end");
    // The member's turn in their personal workspace was not touched.
    const stopped = replicaB.said.slice(before).flatMap((m) => ("stopped" in m ? [m.stopped as { workspaceId: string }] : []));
    expect(stopped.map((s) => s.workspaceId)).toEqual([workspaceId, workspaceId]);
  });
});
