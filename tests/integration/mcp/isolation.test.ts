/**
 * Per-user connections, the parallel-calls setting, sessions over Streamable HTTP, and cleanup:
 * no child process outlives close()/closeAll().
 */
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import { def, FIXTURES, fixture, freePort, isAlive, startHttpServer, stopProcess, waitUntil } from "./helpers";

type Slow = { label: string; start: number; end: number; maxInFlight: number; pid: number };
const slowOf = (out: { forModel: unknown }) => (out.forModel as { result: Slow }).result;

describe("users and parallelism", () => {
  const pool = new McpPool();
  afterAll(() => pool.closeAll());

  it("gives two users with the same config two separate connections", async () => {
    const server = fixture("shared", "fault-server.mjs");
    const [a] = await pool.discover("alice", [server]);
    const [b] = await pool.discover("bob", [server]);
    expect(a.pid).toBeTruthy();
    expect(b.pid).toBeTruthy();
    expect(a.pid).not.toBe(b.pid);
    const fromAlice = await pool.session("alice", server).callTool("pid", {});
    const fromBob = await pool.session("bob", server).callTool("pid", {});
    expect((fromAlice.forModel as { result: { pid: number } }).result.pid).toBe(a.pid);
    expect((fromBob.forModel as { result: { pid: number } }).result.pid).toBe(b.pid);
    expect(pool.session("alice", server).status().metrics.calls).toBe(1);
  });

  it("serialises calls when supports_parallel_tool_calls is false", async () => {
    const server = fixture("serial", "fault-server.mjs", { supports_parallel_tool_calls: false });
    const [x, y] = await Promise.all([
      pool.session("alice", server).callTool("slow", { ms: 300, label: "x" }),
      pool.session("alice", server).callTool("slow", { ms: 300, label: "y" }),
    ]);
    const [first, second] = [slowOf(x), slowOf(y)].sort((p, q) => p.start - q.start);
    expect(second.start).toBeGreaterThanOrEqual(first.end);
    expect(Math.max(first.maxInFlight, second.maxInFlight)).toBe(1);
  });

  it("runs calls together when supports_parallel_tool_calls is true", async () => {
    const server = fixture("parallel", "fault-server.mjs", { supports_parallel_tool_calls: true });
    // Each call waits (up to 20 s) until both are in flight at the server: overlap is proven there.
    const [x, y] = await Promise.all([
      pool.session("alice", server).callTool("slow", { ms: 20_000, waitFor: 2, label: "x" }),
      pool.session("alice", server).callTool("slow", { ms: 20_000, waitFor: 2, label: "y" }),
    ]);
    expect(slowOf(x).maxInFlight).toBe(2);
    expect(slowOf(y).maxInFlight).toBe(2);
  });

  it("cancels a call through an AbortSignal", async () => {
    const server = fixture("cancel", "fault-server.mjs", { supports_parallel_tool_calls: true });
    const controller = new AbortController();
    const pending = pool.session("alice", server).callTool("slow", { ms: 20_000, label: "c" }, { signal: controller.signal });
    await waitUntil(() => pool.session("alice", server).status().state === "connected", 20_000, "connect");
    setTimeout(() => controller.abort(), 200);
    const out = await pending;
    expect(out.errorCode).toBe("cancelled");
    const next = await pool.session("alice", server).callTool("echo", { message: "after cancel" });
    expect(next.forModel).toEqual({ result: "echo: after cancel" });
  });

  it("times out a call after `timeout` seconds", async () => {
    const server = fixture("slowpoke", "fault-server.mjs", { timeout: 0.5 });
    const out = await pool.session("alice", server).callTool("slow", { ms: 10_000, label: "t" });
    expect(out.errorCode).toBe("call_timeout");
    expect((out.forModel as { error: string }).error).toMatch(/raise `timeout`/);
  });
});

describe("cleanup", () => {
  it("close() and closeAll() leave no child process alive", async () => {
    const pool = new McpPool({ killGraceMs: 1000 });
    const one = fixture("one", "fault-server.mjs");
    const two = fixture("two", "fault-server.mjs");
    const [a, b] = await pool.discover("carol", [one, two]);
    const [c] = await pool.discover("dave", [one]);
    const pids = [a.pid!, b.pid!, c.pid!];
    expect(pids.every(isAlive)).toBe(true);
    await pool.close("carol", "one");
    expect(isAlive(a.pid!)).toBe(false);
    await pool.closeAll();
    await waitUntil(() => pids.every((pid) => !isAlive(pid)), 10_000, "children to exit");
  });
});

describe("Streamable HTTP sessions", () => {
  let server: ChildProcess | undefined;
  let base = "";
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startHttpServer(
      [path.join(FIXTURES, "session-http-server.mjs")],
      { PORT: String(port), FIXTURE_KEY: "k-123456" },
      `${base}/stats`,
    );
  });
  afterAll(() => stopProcess(server));
  const stats = async () => (await (await fetch(`${base}/stats`)).json()) as { initialized: number; deletes: number };

  it("sends configured headers, starts a new session after a 404, and DELETEs on close", async () => {
    const pool = new McpPool();
    const http = def("sessions", { url: `${base}/mcp`, headers: { "x-fixture-key": "k-123456" } });
    const first = await pool.session("erin", http).callTool("echo", { message: "one" });
    expect(first.isError).toBe(false);
    const firstSession = (first.forModel as { result: { sessionId: string } }).result.sessionId;

    await fetch(`${base}/forget`, { method: "POST" });
    const second = await pool.session("erin", http).callTool("echo", { message: "two" });
    expect(second.isError).toBe(false);
    const secondSession = (second.forModel as { result: { sessionId: string } }).result.sessionId;
    expect(secondSession).not.toBe(firstSession);
    expect((await stats()).initialized).toBe(2);

    const deletesBefore = (await stats()).deletes;
    await pool.closeAll();
    expect((await stats()).deletes).toBe(deletesBefore + 1);
  });

  it("reports a wrong header as a server error without leaking the header value", async () => {
    const pool = new McpPool();
    const http = def("badkey", { url: `${base}/mcp`, headers: { "x-fixture-key": "wrong-secret-value" }, connect_timeout: 10 });
    const [status] = await pool.discover("erin", [http]);
    expect(status.state).toBe("failed");
    expect(status.lastError?.message).toMatch(/403/);
    expect(status.lastError?.message).not.toContain("wrong-secret-value");
    await pool.closeAll();
  });
});
