/**
 * Prompt release and quotas against real servers and a real SQLite file: deleting or editing a
 * server closes every user's connection to it (the HTTP fixture sees its sessions end, stdio
 * processes are gone within 5 s), and each quota answers 429 with Retry-After at N+1 while a
 * second user is unaffected.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { registerTestUser } from "../../helpers/register";
import { errorResponse } from "@/lib/http";
import { McpPool } from "@/lib/mcp";
import { enforceRequestRate, poolAdmission, QuotaError } from "@/lib/quotas";
import { onServerReleased } from "@/lib/servers/release";
import { addServer, removeServer, type Actor } from "@/lib/servers/service";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { def, FIXTURES, fixture, freePort, isAlive, startHttpServer, stopProcess, waitUntil } from "./helpers";

// Small quotas so N+1 is cheap to reach; read once, on first use.
process.env.SWITCHBOARD_QUOTA_CONNECTIONS_PER_USER = "2";
process.env.SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER = "2";
process.env.SWITCHBOARD_QUOTA_SERVERS_PER_WORKSPACE = "2";
process.env.SWITCHBOARD_QUOTA_REQUESTS_PER_MINUTE = "5";

const pool = new McpPool({ killGraceMs: 1000, admission: poolAdmission });
let http: ChildProcess | undefined;
let base = "";
let dir = "";

beforeAll(async () => {
  dir = useTempDataDir();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  http = await startHttpServer([path.join(FIXTURES, "hostile-http.mjs")], { PORT: String(port) }, `${base}/stats`);
  // As the web app's wiring does (lib/runtime/engine.ts): a released server is closed for every user.
  onServerReleased((serverId) => pool.closeServer(serverId));
});

afterAll(async () => {
  await pool.closeAll();
  await stopProcess(http);
  removeTempDataDir(dir);
});

const sessionsOpen = async () => ((await (await fetch(`${base}/stats`)).json()) as { sessionsOpen: number }).sessionsOpen;

async function signUp(email: string): Promise<Actor> {
  const db = getDb();
  const user = await registerTestUser(db, { email, password: "a long enough password", name: email.split("@")[0] });
  return { id: user.id, isAdmin: user.isAdmin, workspaceId: (await getPersonalWorkspaceId(db, user.id))! };
}

async function quotaErrorOf(run: () => unknown): Promise<QuotaError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof QuotaError) return error;
    throw error;
  }
  throw new Error("expected a QuotaError");
}

describe("prompt release", () => {
  it("deleting a server ends every user's HTTP session to it (DELETE seen by the server) within 5 s", async () => {
    const alice = await signUp("alice@example.com");
    const record = await addServer(getDb(), alice, { name: "shared", config: { url: `${base}/mcp/good` } });
    const server = def("shared", { url: `${base}/mcp/good` }, record.id);
    const before = await sessionsOpen();
    for (const user of ["u1", "u2"]) expect((await pool.discover(user, [server]))[0].state).toBe("connected");
    expect(await sessionsOpen()).toBe(before + 2);

    await removeServer(getDb(), alice, record.id);
    await waitUntil(async () => (await sessionsOpen()) === before, 5000, "the sessions to close");
    expect(pool.liveConnections()).toBe(0);
  });

  it("closing a server ends every user's stdio process within 5 s", async () => {
    const server = fixture("proc", "fault-server.mjs", {}, "proc-1");
    const pids: number[] = [];
    for (const user of ["u1", "u2"]) pids.push((await pool.discover(user, [server]))[0].pid!);
    expect(pids.every(isAlive)).toBe(true);
    await pool.closeServer("proc-1");
    await waitUntil(() => !pids.some(isAlive), 5000, "the processes to end");
  });
});

describe("quotas", () => {
  it("connections per user: the N+1th answers 429 with Retry-After; another user still connects", async () => {
    const servers = [1, 2, 3].map((i) => def(`good${i}`, { url: `${base}/mcp/good?n=${i}` }, `good-${i}`));
    await pool.session("q1", servers[0]).callTool("echo", { message: "1" });
    await pool.session("q1", servers[1]).callTool("echo", { message: "2" });
    const refused = await quotaErrorOf(() => pool.session("q1", servers[2]).callTool("echo", { message: "3" }));
    const response = errorResponse(refused);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await response.json()).message).toMatch(/SWITCHBOARD_QUOTA_CONNECTIONS_PER_USER/);
    expect((await pool.session("q2", servers[2]).callTool("echo", { message: "other" })).forModel).toEqual({ result: "echo: other" });
    await pool.closeUser("q1");
    await pool.closeUser("q2");
  });

  it("concurrent calls per user: the N+1th answers 429; another user's call runs", async () => {
    const server = fixture("slowpoke", "fault-server.mjs", { supports_parallel_tool_calls: true }, "slow-1");
    await pool.discover("q3", [server]);
    const running = [1, 2].map((i) => pool.session("q3", server).callTool("slow", { ms: 1500, label: `c${i}` }));
    const refused = await quotaErrorOf(() => pool.session("q3", server).callTool("echo", { message: "third" }));
    expect(errorResponse(refused).status).toBe(429);
    expect(refused.message).toMatch(/SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER/);
    expect((await pool.session("q4", server).callTool("echo", { message: "b" })).forModel).toEqual({ result: "echo: b" });
    expect((await Promise.all(running)).every((outcome) => !outcome.isError)).toBe(true);
    // Slots are released when calls end.
    expect((await pool.session("q3", server).callTool("echo", { message: "after" })).forModel).toEqual({ result: "echo: after" });
    await pool.closeServer("slow-1");
  });

  it("servers per workspace: the N+1th answers 429; another user's workspace is unaffected", async () => {
    const carol = await signUp("carol@example.com");
    const dave = await signUp("dave@example.com");
    await addServer(getDb(), carol, { name: "one", config: { url: "https://one.example/mcp" } });
    await addServer(getDb(), carol, { name: "two", config: { url: "https://two.example/mcp" } });
    const refused = await quotaErrorOf(
      async () => await addServer(getDb(), carol, { name: "three", config: { url: "https://three.example/mcp" } }),
    );
    expect(errorResponse(refused).status).toBe(429);
    expect(refused.message).toMatch(/SWITCHBOARD_QUOTA_SERVERS_PER_WORKSPACE/);
    expect((await addServer(getDb(), dave, { name: "three", config: { url: "https://three.example/mcp" } })).name).toBe("three");
  });

  it("requests per minute: the N+1th answers 429 with the seconds to wait; another user is unaffected", async () => {
    for (let i = 0; i < 5; i++) await enforceRequestRate("busy");
    const refused = await quotaErrorOf(() => enforceRequestRate("busy"));
    const response = errorResponse(refused);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
    await expect(enforceRequestRate("calm")).resolves.toBeUndefined();
  });
});
