/**
 * Status that tells the truth (issue 30; docs/limits.md#health-pings, #stale-sessions), against the
 * real SDK session fixture: a server restarted without its sessions (400 "No valid session ID", as
 * the SDK's examples answer) costs one new session, not a failed call; a server whose sessions never
 * stick leaves a status that is not "connected"; a server killed while idle is reported by the next
 * ping (manual clock) and shown connected again by itself when it returns; and with 1,000 idle
 * connections the pings per second stay within the pool's budget, on one timer.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { McpPool, type ServerStatus } from "@/lib/mcp";
import { def, FIXTURES, freePort, startHttpServer, stopProcess, waitUntil } from "./helpers";
import { ManualClock } from "./manual-clock";

const started: ChildProcess[] = [];
const pools: McpPool[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.closeAll()));
});
afterAll(async () => {
  await Promise.all(started.map((child) => stopProcess(child)));
});

/** The session fixture on `port`, answering unknown sessions with 400 like the SDK's examples. */
async function sessionServer(port: number): Promise<ChildProcess> {
  const child = await startHttpServer(
    [path.join(FIXTURES, "session-http-server.mjs")],
    { PORT: String(port), UNKNOWN_SESSION: "400" },
    `http://127.0.0.1:${port}/stats`,
  );
  started.push(child);
  return child;
}

async function stats(port: number): Promise<{ initialized: number; pings: number }> {
  return (await (await fetch(`http://127.0.0.1:${port}/stats`)).json()) as { initialized: number; pings: number };
}

/**
 * Advance the manual clock a second at a time until `done`, giving the real sockets up to half a
 * second after each step; returns the clock time it took.
 */
async function advanceUntil(clock: ManualClock, done: () => boolean, limitMs: number): Promise<number> {
  const start = clock.now();
  while (!done() && clock.now() - start < limitMs) {
    clock.advance(1000);
    await waitUntil(done, 500).catch(() => undefined); // not yet: the next second
  }
  return clock.now() - start;
}

function poolWith(options: ConstructorParameters<typeof McpPool>[0]): McpPool {
  const pool = new McpPool(options);
  pools.push(pool);
  return pool;
}

describe("stale sessions", () => {
  it("a server restarted without its sessions answers the next call after exactly one new session", async () => {
    const port = await freePort();
    let server = await sessionServer(port);
    const statuses: ServerStatus[] = [];
    const pool = poolWith({ pingIntervalMs: 0, onStatusChange: (s) => statuses.push(s) });
    const http = def("restarts", { url: `http://127.0.0.1:${port}/mcp` });
    const first = await pool.session("ada", http).callTool("echo", { message: "before" });
    expect(first.isError).toBe(false);
    const before = pool.session("ada", http).status().sessionId;

    await stopProcess(server);
    server = await sessionServer(port);
    expect((await stats(port)).initialized).toBe(0);

    const after = await pool.session("ada", http).callTool("echo", { message: "after" });
    expect(after.isError).toBe(false);
    expect(after.content.structuredContent).toMatchObject({ message: "after" });
    expect((await stats(port)).initialized).toBe(1);
    const status = pool.session("ada", http).status();
    expect(status.state).toBe("connected");
    expect(status.sessionId).not.toBe(before);
    // The stale session was closed before the new one opened: the stream went connected → idle → connecting → connected.
    expect(statuses.slice(-3).map((s) => s.state)).toEqual(["idle", "connecting", "connected"]);
  });

  it("a server whose sessions never stick fails the call once, and its status no longer reads connected", async () => {
    const port = await freePort();
    await sessionServer(port);
    const statuses: ServerStatus[] = [];
    const pool = poolWith({ pingIntervalMs: 0, onStatusChange: (s) => statuses.push(s) });
    const http = def("amnesiac", { url: `http://127.0.0.1:${port}/mcp` });
    await pool.discover("ada", [http]);
    await fetch(`http://127.0.0.1:${port}/refuse-calls`, { method: "POST" });

    const outcome = await pool.session("ada", http).callTool("echo", { message: "x" });
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBe("session_expired");
    // One new session was tried, not a loop of them.
    expect((await stats(port)).initialized).toBe(2);
    const status = pool.session("ada", http).status();
    expect(status.state).toBe("reconnecting");
    expect(status.lastError).toMatchObject({ code: "session_expired", message: expect.stringContaining("HTTP 400") });
    expect(statuses.at(-1)?.state).toBe("reconnecting");
  });
});

describe("health pings", () => {
  it("a server killed while idle reads as dropped within the ping interval, then connected again by itself", async () => {
    const port = await freePort();
    let server = await sessionServer(port);
    const clock = new ManualClock();
    const statuses: ServerStatus[] = [];
    const intervalMs = 20_000;
    const pool = poolWith({ clock, pingIntervalMs: intervalMs, onStatusChange: (s) => statuses.push(s) });
    const http = def("pinged", { url: `http://127.0.0.1:${port}/mcp` });
    const [connected] = await pool.discover("ada", [http]);
    expect(connected.state).toBe("connected");

    // An idle connection is not pinged before 80 % of the interval (the jitter's floor)...
    clock.advance(intervalMs * 0.8 - 1000);
    expect((await stats(port)).pings).toBe(0);
    // ...and is pinged by the interval's end (plus the one-second slot); a live server stays connected.
    clock.advance(intervalMs * 0.2 + 2000);
    await waitUntil(async () => (await stats(port)).pings === 1, 10_000, "the first ping");
    expect(pool.session("ada", http).status().state).toBe("connected");

    await stopProcess(server);
    const dropped = () => statuses.at(-1)?.state === "reconnecting";
    expect(await advanceUntil(clock, dropped, intervalMs + 1000)).toBeLessThanOrEqual(intervalMs + 1000);
    expect(dropped()).toBe(true);
    expect(statuses.at(-1)?.lastError).toMatchObject({ code: "unreachable", message: expect.stringContaining("connection refused") });

    server = await sessionServer(port);
    // The next attempt of the usual schedule (1, 2, 4 … s) connects.
    await advanceUntil(clock, () => statuses.at(-1)?.state === "connected", 16_000);
    expect(statuses.at(-1)?.state).toBe("connected");
    expect(pool.session("ada", http).status().lastError).toBeNull();
    expect((await pool.session("ada", http).callTool("echo", { message: "back" })).isError).toBe(false);
  });

  it("a live server of either era answers its pings and stays connected", async () => {
    const [legacyPort, modernPort] = [await freePort(), await freePort()];
    await sessionServer(legacyPort);
    const modernUrl = `http://127.0.0.1:${modernPort}/mcp`;
    started.push(await startHttpServer([path.join(FIXTURES, "modern-server.mjs"), "http"], { PORT: String(modernPort) }, modernUrl));
    const clock = new ManualClock();
    const pings: string[] = [];
    const fetchCounting = (input: string | URL, init?: RequestInit) => {
      // The 2026-07-28 era has no `ping`: its health check is the stateless `server/discover`.
      const body = typeof init?.body === "string" ? init.body : "";
      if (body.includes('"method":"ping"') || body.includes('"method":"server/discover"')) pings.push(String(input));
      return fetch(input, init);
    };
    const pool = poolWith({ clock, fetch: fetchCounting, pingIntervalMs: 10_000 });
    const servers = [def("legacy", { url: `http://127.0.0.1:${legacyPort}/mcp` }), def("modern", { url: modernUrl })];
    const connected = await pool.discover("ada", servers);
    expect(connected.map((s) => s.protocol?.era)).toEqual(["legacy", "modern"]);
    pings.length = 0; // the connect's own server/discover probe
    for (let round = 0; round < 3; round++) {
      clock.advance(11_000);
      const states = () => JSON.stringify(servers.map((s) => pool.session("ada", s).status().lastError ?? "ok"));
      await waitUntil(() => pings.length === 2 * (round + 1), 20_000, `round ${round + 1} of pings (${pings.length} sent; ${states()})`);
      await new Promise((r) => setTimeout(r, 100));
      expect(servers.map((s) => pool.session("ada", s).status().state)).toEqual(["connected", "connected"]);
    }
    expect((await pool.session("ada", servers[1]).callTool("echo", { message: "still here" })).isError).toBe(false);
  });

  it("a server away longer than the reconnect schedule is probed each interval and connected again by itself", async () => {
    const port = await freePort();
    let server = await sessionServer(port);
    const clock = new ManualClock();
    const statuses: ServerStatus[] = [];
    const intervalMs = 20_000;
    const pool = poolWith({ clock, pingIntervalMs: intervalMs, onStatusChange: (s) => statuses.push(s) });
    const http = def("away", { url: `http://127.0.0.1:${port}/mcp` });
    await pool.discover("ada", [http]);
    await stopProcess(server);

    // The ping finds it gone, then the 1, 2, 4, 8, 16 s attempts run out: failed, with the reason.
    const state = () => statuses.at(-1)?.state;
    for (let step = 0; step < 120 && state() !== "failed"; step++) {
      clock.advance(1000);
      await new Promise((r) => setTimeout(r, 30)); // each attempt is refused on real sockets
    }
    expect(state()).toBe("failed");
    expect(statuses.at(-1)?.lastError?.message).toMatch(/gave up after 5 reconnect attempts/);

    // Still away: the probe costs a refused GET per interval and changes nothing.
    clock.advance(intervalMs + 1000);
    await new Promise((r) => setTimeout(r, 200));
    expect(state()).toBe("failed");

    server = await sessionServer(port);
    // The next probe finds it and the entry connects again (failed → idle → connecting → connected).
    expect(await advanceUntil(clock, () => state() !== "failed", intervalMs + 1000)).toBeLessThanOrEqual(intervalMs + 1000);
    await waitUntil(() => state() === "connected", 10_000, "connected again without a request");
    expect((await stats(port)).initialized).toBe(1);
  });

  it("keeps 1,000 idle connections' pings within the pool's budget per second, on one timer", async () => {
    const port = await freePort();
    await sessionServer(port);
    const clock = new ManualClock();
    const sessionsPinged = new Set<string>();
    let pingsOut = 0;
    let sent = 0;
    // Counts every ping the engine sends (and waits for its answer) at the fetch it was given.
    const fetchCounting = async (input: string | URL, init?: RequestInit) => {
      const isPing = typeof init?.body === "string" && init.body.includes('"method":"ping"');
      if (!isPing) return fetch(input, init);
      sent++;
      pingsOut++;
      sessionsPinged.add(new Headers(init.headers).get("mcp-session-id") ?? "");
      try {
        return await fetch(input, init);
      } finally {
        pingsOut--;
      }
    };
    const budget = 50;
    const pool = poolWith({ clock, fetch: fetchCounting, pingIntervalMs: 10_000, pingsPerSecond: budget });
    const http = def("crowd", { url: `http://127.0.0.1:${port}/mcp` });
    const users = Array.from({ length: 1000 }, (_, i) => `user-${i}`);
    for (let i = 0; i < users.length; i += 50) {
      const statuses = (await Promise.all(users.slice(i, i + 50).map((u) => pool.discover(u, [http])))).flat();
      expect(statuses.every((s) => s.state === "connected")).toBe(true);
    }
    expect(pool.liveConnections()).toBe(1000);
    // One ping timer for the pool, not one per connection.
    expect(clock.pending).toBeLessThanOrEqual(2);

    const perSecond: number[] = [];
    for (let second = 0; second < 35; second++) {
      const before = sent;
      clock.advance(1000);
      await new Promise((r) => setTimeout(r, 10));
      await waitUntil(() => pingsOut === 0, 20_000, "this second's pings to be answered");
      perSecond.push(sent - before);
    }
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(budget);
    // All 1,000 were due within 10 s: the budget was spent in full until each had its ping.
    expect(perSecond.filter((n) => n === budget).length).toBeGreaterThanOrEqual(1000 / budget - 1);
    expect(sessionsPinged.size).toBe(1000);
    expect(clock.pending).toBeLessThanOrEqual(2);
    expect((await stats(port)).pings).toBe(sent);
  }, 240_000);
});
