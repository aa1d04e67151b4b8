/** Exponential backoff per key, with a fake clock, on this process's memory (tests/integration/cluster/quotas.test.ts runs it on Redis); and the hashing cap. */
import { describe, expect, it } from "vitest";
import { InProcessCoordination } from "@/lib/cluster";
import { Backoff, type BackoffOptions } from "@/lib/security/backoff";
import { createHashGate } from "@/lib/security/hash-gate";

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** A backoff on its own memory and the fake clock (the coordination's expiry follows the same clock). */
function backoff(c: ReturnType<typeof clock>, options: Omit<BackoffOptions, "name" | "now" | "coordination">) {
  const store = new InProcessCoordination(c.now);
  return new Backoff({ name: "test", ...options, now: c.now, coordination: () => store });
}

describe("Backoff", () => {
  it("allows the free attempts, then doubles the wait per attempt", async () => {
    const c = clock();
    const b = backoff(c, { free: 3, baseMs: 1000, maxMs: 60_000, windowMs: 600_000 });
    for (let i = 0; i < 2; i++) {
      expect(await b.retryAfterMs("k")).toBe(0);
      await b.record("k");
    }
    await b.record("k"); // the third: the free attempts are used up
    expect(await b.retryAfterMs("k")).toBe(1000);
    c.advance(1000);
    await b.record("k");
    expect(await b.retryAfterMs("k")).toBe(2000);
    c.advance(2000);
    await b.record("k");
    expect(await b.retryAfterMs("k")).toBe(4000);
    expect(await b.retryAfterMs("other")).toBe(0);
  });

  it("forgives an attempt that succeeded, so an address behind which many people sign in counts failures only", async () => {
    const c = clock();
    const b = backoff(c, { free: 3, baseMs: 1000, maxMs: 60_000, windowMs: 600_000 });
    for (let i = 0; i < 50; i++) {
      expect(await b.retryAfterMs("addr")).toBe(0);
      await b.record("addr"); // counted before the outcome is known
      await b.forgive("addr"); // it was a success
    }
    for (let i = 0; i < 3; i++) await b.record("addr"); // three failures use up the free attempts
    expect(await b.retryAfterMs("addr")).toBe(1000);
    await b.forgive("nobody"); // forgiving an unknown key is harmless
    expect(await b.retryAfterMs("nobody")).toBe(0);
  });

  it("caps the wait, forgets after the window, and resets on success", async () => {
    const c = clock();
    const b = backoff(c, { free: 1, baseMs: 1000, maxMs: 5000, windowMs: 60_000 });
    for (let i = 0; i < 10; i++) await b.record("k");
    expect(await b.retryAfterMs("k")).toBe(5000);
    c.advance(61_000);
    expect(await b.retryAfterMs("k")).toBe(0);
    await b.record("j");
    await b.reset("j");
    expect(await b.retryAfterMs("j")).toBe(0);
  });

  it("starts a key afresh once its window passed, even while the store still keeps it", async () => {
    const c = clock();
    const store = new InProcessCoordination(); // the store's own clock: it has not expired the tally
    const b = new Backoff({ name: "test", free: 1, baseMs: 1000, maxMs: 5000, windowMs: 60_000, now: c.now, coordination: () => store });
    for (let i = 0; i < 3; i++) await b.record("k");
    c.advance(61_000);
    await b.record("k");
    expect(await b.retryAfterMs("k")).toBe(1000); // one attempt: the first wait, not the fourth
  });

  it("remembers at most maxKeys keys in single-node mode", async () => {
    const c = clock();
    const b = backoff(c, { free: 1, baseMs: 1000, maxMs: 5000, windowMs: 60_000, maxKeys: 2 });
    await b.record("a");
    await b.record("b");
    await b.record("c");
    expect(await b.retryAfterMs("a")).toBe(0);
    expect(await b.retryAfterMs("c")).toBe(1000);
  });
});

describe("hash gate", () => {
  it("runs at most `concurrency` at once and refuses beyond the queue with 429", async () => {
    const gate = createHashGate({ concurrency: 2, queue: 1 });
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const work = () =>
      new Promise<void>((resolve) => {
        running += 1;
        peak = Math.max(peak, running);
        releases.push(() => {
          running -= 1;
          resolve();
        });
      });
    expect(gate.full()).toBe(false);
    const first = [gate(work), gate(work), gate(work)];
    expect(gate.full()).toBe(true);
    await expect(gate(work)).rejects.toMatchObject({ code: "auth.rate_limited", status: 429 });
    await new Promise((r) => setTimeout(r, 0));
    expect(running).toBe(2);
    while (releases.length) {
      releases.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    }
    await Promise.all(first);
    expect(peak).toBe(2);
    expect(gate.full()).toBe(false);
  });
});
