/**
 * The pool's ping scheduler (lib/mcp/health-ping.ts) and what a failure says about a connection
 * (lib/mcp/failure-verdict.ts), on a fake clock with scripted connections: when a ping goes out,
 * that use postpones it, that the budget holds and the oldest due go first, and that a failed ping
 * is reported once.
 */
import { describe, expect, it } from "vitest";
import type { Clock } from "@/lib/mcp/clock";
import { EngineError } from "@/lib/mcp/errors";
import { verdictOf } from "@/lib/mcp/failure-verdict";
import { HealthPings, type Pingable } from "@/lib/mcp/health-ping";

class FakeClock implements Clock {
  time = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 0;
  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => {
    this.timers.push({ at: this.time + ms, fn, id: ++this.nextId });
    return this.nextId;
  };
  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== handle);
  };
  get pending() {
    return this.timers.length;
  }
  async advance(ms: number) {
    const target = this.time + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = next.at;
      next.fn();
      await Promise.resolve(); // let answered pings re-place themselves
      await Promise.resolve();
    }
    this.time = target;
  }
}

/** A scripted connection: counts its pings; `answer` decides each one. */
function target(clock: FakeClock, answer: () => Promise<void> = async () => {}) {
  const t = { lastActivityAt: clock.now(), pending: 0, closed: false, pings: 0 } as { -readonly [K in keyof Pingable]: Pingable[K] } & {
    pings: number;
  };
  t.ping = () => {
    t.pings++;
    return answer();
  };
  return t;
}

describe("HealthPings", () => {
  it("pings an idle connection once per interval, between 80 % and 100 % of it (jitter), on one timer", async () => {
    const clock = new FakeClock();
    const pings = new HealthPings(clock, { intervalMs: 10_000, perSecond: 10 }, () => 0.5);
    const conn = target(clock);
    pings.watch(conn, () => {});
    await clock.advance(8_000);
    expect(conn.pings).toBe(0);
    await clock.advance(1_000);
    expect(conn.pings).toBe(1);
    await clock.advance(9_000);
    expect(conn.pings).toBe(2);
    expect(clock.pending).toBe(1);
  });

  it("does not ping a connection in use, and counts its idle time from its last request", async () => {
    const clock = new FakeClock();
    const pings = new HealthPings(clock, { intervalMs: 10_000, perSecond: 10 }, () => 0);
    const conn = target(clock);
    pings.watch(conn, () => {});
    await clock.advance(5_000);
    conn.lastActivityAt = clock.now();
    await clock.advance(5_000);
    expect(conn.pings).toBe(0);
    conn.pending = 1;
    await clock.advance(10_000);
    expect(conn.pings).toBe(0);
    conn.pending = 0;
    conn.lastActivityAt = clock.now();
    await clock.advance(10_000);
    expect(conn.pings).toBe(1);
  });

  it("sends at most `perSecond` pings a second, oldest due first, until every connection had its ping", async () => {
    const clock = new FakeClock();
    const pings = new HealthPings(clock, { intervalMs: 10_000, perSecond: 5 }, () => 0);
    const conns = Array.from({ length: 40 }, () => target(clock));
    for (const conn of conns) pings.watch(conn, () => {});
    const perSecond: number[] = [];
    let before = 0;
    for (let second = 0; second < 19; second++) {
      await clock.advance(1000);
      perSecond.push(pings.sent - before);
      before = pings.sent;
    }
    expect(Math.max(...perSecond)).toBe(5);
    // Due at 10 s; 40 at 5 a second take 8 s (10–17 s); the first five are due again at 20 s.
    expect(conns.every((c) => c.pings === 1)).toBe(true);
    expect(pings.sent).toBe(40);
    expect(clock.pending).toBe(1);
  });

  it("reports a failed ping once and forgets the connection; a closed one is never pinged", async () => {
    const clock = new FakeClock();
    const pings = new HealthPings(clock, { intervalMs: 10_000, perSecond: 10 }, () => 0);
    const failure = new EngineError("unreachable", "gone");
    const dead = target(clock, () => Promise.reject(failure));
    const closed = target(clock);
    const heard: EngineError[] = [];
    pings.watch(dead, (error) => heard.push(error));
    pings.watch(closed, () => {});
    closed.closed = true;
    await clock.advance(40_000);
    expect(heard).toEqual([failure]);
    expect(dead.pings).toBe(1);
    expect(closed.pings).toBe(0);
    expect(pings.watched).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it("sends nothing with an interval of 0", async () => {
    const clock = new FakeClock();
    const pings = new HealthPings(clock, { intervalMs: 0, perSecond: 10 });
    pings.watch(target(clock), () => {});
    expect(clock.pending).toBe(0);
  });
});

describe("verdictOf", () => {
  const error = (code: ConstructorParameters<typeof EngineError>[0]) => new EngineError(code, code);
  it.each([
    ["unreachable request", "drop", error("unreachable"), "request"],
    ["session expired on the first try (the retry follows)", "keep", error("session_expired"), "request"],
    ["session expired again on the retry", "drop", error("session_expired"), "retry"],
    ["a tool's own failure", "keep", error("server_error"), "request"],
    ["a call timeout", "keep", error("call_timeout"), "request"],
    ["token rejected", "authorize", error("needs_authorization"), "request"],
    ["token rejected on a ping", "authorize", error("needs_authorization"), "ping"],
    ["any failed ping", "drop", error("server_error"), "ping"],
    ["cancelled", "keep", error("cancelled"), "ping"],
    ["not an engine error", "keep", new Error("x"), "request"],
  ] as const)("%s → %s", (_, verdict, err, on) => {
    expect(verdictOf(err, on)).toBe(verdict);
  });
});
