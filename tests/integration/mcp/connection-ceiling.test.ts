/**
 * The instance's connection ceiling (docs/limits.md#the-connection-ceiling) against a real
 * Streamable HTTP fixture and the app's own quotas: with a ceiling of 3, the next user's call
 * succeeds by closing the least recently used idle connection (the fixture sees that session's
 * DELETE); a connection with a call in flight, a resource subscription or a question waiting for
 * its answer is never closed; when nothing may be closed the answer is 429 `quota.exceeded` naming
 * the limit, never a 500. And the work of a call does not grow with the number of pooled
 * connections (counted, not timed).
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { errorResponse } from "@/lib/http";
import { McpPool, type PoolAdmission } from "@/lib/mcp";
import { ManagedServer } from "@/lib/mcp/managed-server";
import { poolAdmission } from "@/lib/quotas";
import { def, FIXTURES, fixture as stdioFixture, freePort, isAlive, startHttpServer, stopProcess, waitUntil } from "./helpers";

// Read once, at the quotas' first use (this file's own process).
process.env.SWITCHBOARD_QUOTA_CONNECTIONS_TOTAL = "3";
process.env.SWITCHBOARD_QUOTA_SANDBOXES_TOTAL = "2";

let fixture: ChildProcess | undefined;
let base = "";
const pools: McpPool[] = [];

type Stats = { deleted: string[]; answers: string[] };
const stats = async () => (await (await fetch(`${base}/stats`)).json()) as Stats;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  fixture = await startHttpServer([path.join(FIXTURES, "session-http-server.mjs")], { PORT: String(port) }, `${base}/stats`);
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.closeAll()));
});

afterAll(async () => {
  await stopProcess(fixture);
});

function newPool(options: ConstructorParameters<typeof McpPool>[0] = {}): McpPool {
  const pool = new McpPool({ admission: poolAdmission, ...options });
  pools.push(pool);
  return pool;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const server = () => def("sessions", { url: `${base}/mcp` });

/** Call echo as `user`; answers the fixture's session id of that user's connection. */
async function echo(pool: McpPool, user: string): Promise<string> {
  const outcome = await pool.session(user, server()).callTool("echo", { message: user });
  expect(outcome.errorCode).toBeUndefined();
  return (outcome.content.structuredContent as { sessionId: string }).sessionId;
}

/** What the HTTP boundary answers for a call refused before it starts. */
async function refusal(run: () => Promise<unknown>) {
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).not.toBeNull();
  const response = errorResponse(error);
  const body = (await response.json()) as { code: string; message: string };
  return { status: response.status, code: body.code, message: body.message, retryAfter: response.headers.get("retry-after") };
}

describe("the connection ceiling", () => {
  it("the N+1th user's call closes the least recently used idle connection (its session DELETEd) and succeeds", async () => {
    const pool = newPool();
    const first = await echo(pool, "u1");
    const second = await echo(pool, "u2");
    const third = await echo(pool, "u3");
    // u1 is used again: u2 is now the least recently used.
    expect(await echo(pool, "u1")).toBe(first);
    expect(await echo(pool, "u4")).not.toBe(second);
    expect(pool.evictions).toBe(1);
    expect(pool.liveConnections()).toBe(3);
    await waitUntil(async () => (await stats()).deleted.includes(second), 5000, "the evicted session's DELETE");
    const deleted = (await stats()).deleted;
    expect(deleted).not.toContain(first);
    expect(deleted).not.toContain(third);
    // The evicted user simply connects again on their next call (making room in turn).
    expect(await echo(pool, "u2")).not.toBe(second);
    expect(pool.session("u2", server()).status().state).toBe("connected");
    expect(pool.evictions).toBe(2);
  });

  it("never closes a connection with a call in flight: with every one busy the answer is 429 naming the limit", async () => {
    const pool = newPool();
    const sessions = await Promise.all(["a1", "a2", "a3"].map((user) => echo(pool, user)));
    const busy = ["a1", "a2", "a3"].map((user) => pool.session(user, server()).callTool("wait", { ms: 1500 }));
    await sleep(100); // the calls are under way (each takes 1.5 s)
    const refused = await refusal(() => pool.session("a4", server()).callTool("echo", { message: "x" }));
    expect(refused).toMatchObject({ status: 429, code: "quota.exceeded", retryAfter: "30" });
    expect(refused.message).toMatch(/open server connections on this instance \(3;.*SWITCHBOARD_QUOTA_CONNECTIONS_TOTAL/);
    expect(pool.evictions).toBe(0);
    for (const outcome of await Promise.all(busy)) expect(outcome.errorCode).toBeUndefined();
    expect((await stats()).deleted.filter((id) => sessions.includes(id))).toEqual([]);
    // Once they are done, the newcomer gets in.
    await echo(pool, "a4");
    expect(pool.evictions).toBe(1);
  });

  it("discovery past the ceiling shows quota_exceeded in the server's status instead of throwing", async () => {
    const pool = newPool();
    await Promise.all(["d1", "d2", "d3"].map((user) => echo(pool, user)));
    const busy = ["d1", "d2", "d3"].map((user) => pool.session(user, server()).callTool("wait", { ms: 1000 }));
    await sleep(100);
    const [status] = await pool.discover("d4", [server()]);
    expect(status.state).toBe("failed");
    expect(status.lastError?.code).toBe("quota_exceeded");
    await Promise.all(busy);
  });

  it("never closes a connection with a resource subscription, even when it is the least recently used", async () => {
    const pool = newPool();
    const subscribed = await echo(pool, "s1");
    const stop = await pool.session("s1", server()).subscribeResource("fixture://clock", () => {});
    const second = await echo(pool, "s2");
    await echo(pool, "s3");
    await echo(pool, "s4");
    await waitUntil(async () => (await stats()).deleted.includes(second), 5000, "s2's DELETE");
    expect((await stats()).deleted).not.toContain(subscribed);
    expect(pool.session("s1", server()).status().state).toBe("connected");
    await stop();
  });

  it("never closes a connection whose server waits for the person's answer to a question", async () => {
    let answer: (value: { action: "accept"; content: { ok: boolean } }) => void = () => {};
    let asked = 0;
    const pool = newPool({
      onElicitation: () => {
        asked++;
        return new Promise((resolve) => {
          answer = resolve;
        });
      },
    });
    const asking = await echo(pool, "q1");
    // The call ends at once; the server asks 100 ms later, outside any call.
    expect((await pool.session("q1", server()).callTool("ask_later", { ms: 100 })).errorCode).toBeUndefined();
    await waitUntil(() => asked === 1, 5000, "the question to arrive");
    const second = await echo(pool, "q2");
    await echo(pool, "q3");
    await echo(pool, "q4");
    await waitUntil(async () => (await stats()).deleted.includes(second), 5000, "q2's DELETE");
    expect((await stats()).deleted).not.toContain(asking);
    answer({ action: "accept", content: { ok: true } });
    await waitUntil(async () => (await stats()).answers.includes("accept"), 5000, "the answer to reach the server");
  });
});

describe("the sandbox ceiling", () => {
  it("a new sandboxed server closes the least recently used idle sandboxed one (its process ends); HTTP connections stay", async () => {
    const pool = newPool();
    const proc = stdioFixture("proc", "fault-server.mjs");
    const http = await echo(pool, "h1");
    const pids: number[] = [];
    for (const user of ["p1", "p2"]) {
      expect((await pool.session(user, proc).callTool("echo", { message: user })).errorCode).toBeUndefined();
      pids.push(pool.session(user, proc).status().pid!);
    }
    // Three live (the instance's ceiling) with two sandboxes (the sandbox ceiling): p3 needs both to make room.
    expect((await pool.session("p3", proc).callTool("echo", { message: "p3" })).errorCode).toBeUndefined();
    expect(pool.evictions).toBe(1);
    await waitUntil(() => !isAlive(pids[0]), 5000, "p1's process to end");
    expect(isAlive(pids[1])).toBe(true);
    expect(pool.session("h1", server()).status().state).toBe("connected");
    expect((await stats()).deleted).not.toContain(http);
  });
});

describe("a call's work in a crowd", () => {
  // A ceiling of our own (the quotas' is 3 in this file): only the counting matters here.
  const roomy: PoolAdmission = { call: () => () => {}, connect: () => {}, connectionCeiling: () => 1000 };

  /** Calls of the pool entries' own methods made while `run` runs. */
  async function entryWork(run: () => Promise<unknown>): Promise<number> {
    const spies = (["isLive", "isIdle", "status", "isConnected"] as const).map((name) => vi.spyOn(ManagedServer.prototype, name));
    try {
      await run();
      return spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  }

  it("a call, and a new user's first call, look at the same number of entries with 4 or 40 connections pooled", async () => {
    const work = async (crowd: number) => {
      const pool = newPool({ admission: roomy });
      for (let i = 0; i < crowd; i += 8) {
        await Promise.all(Array.from({ length: Math.min(8, crowd - i) }, (_, j) => echo(pool, `c${crowd}-${i + j}`)));
      }
      const call = await entryWork(() => echo(pool, `c${crowd}-0`));
      const connect = await entryWork(() => echo(pool, `c${crowd}-newcomer`));
      await pool.closeAll();
      return { call, connect };
    };
    const few = await work(4);
    const many = await work(40);
    expect(many).toEqual(few);
    expect(few.call).toBeGreaterThan(0);
  });

  it("making room looks at the least recently used entry first, not at every connection", async () => {
    const pool = newPool({ admission: { ...roomy, connectionCeiling: () => 20 } });
    for (let i = 0; i < 20; i += 5) await Promise.all(Array.from({ length: 5 }, (_, j) => echo(pool, `r${i + j}`)));
    const work = await entryWork(() => echo(pool, "r-newcomer"));
    expect(pool.evictions).toBe(1);
    const lookedAt = await entryWork(() => echo(pool, "r-another"));
    expect(pool.evictions).toBe(2);
    // The same small number each time: the walk stops at the first idle entry.
    expect(lookedAt).toBe(work);
    expect(work).toBeLessThan(20);
  });
});
