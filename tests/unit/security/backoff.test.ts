/** Exponential backoff per key, with a fake clock; and the hashing cap. */
import { describe, expect, it } from "vitest";
import { Backoff } from "@/lib/security/backoff";
import { createHashGate } from "@/lib/security/hash-gate";

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("Backoff", () => {
  it("allows the free attempts, then doubles the wait per attempt", () => {
    const c = clock();
    const b = new Backoff({ free: 3, baseMs: 1000, maxMs: 60_000, windowMs: 600_000, now: c.now });
    for (let i = 0; i < 2; i++) {
      expect(b.retryAfterMs("k")).toBe(0);
      b.record("k");
    }
    b.record("k"); // the third: the free attempts are used up
    expect(b.retryAfterMs("k")).toBe(1000);
    c.advance(1000);
    b.record("k");
    expect(b.retryAfterMs("k")).toBe(2000);
    c.advance(2000);
    b.record("k");
    expect(b.retryAfterMs("k")).toBe(4000);
    expect(b.retryAfterMs("other")).toBe(0);
  });

  it("forgives an attempt that succeeded, so an address behind which many people sign in counts failures only", () => {
    const c = clock();
    const b = new Backoff({ free: 3, baseMs: 1000, maxMs: 60_000, windowMs: 600_000, now: c.now });
    for (let i = 0; i < 50; i++) {
      expect(b.retryAfterMs("addr")).toBe(0);
      b.record("addr"); // counted before the outcome is known
      b.forgive("addr"); // it was a success
    }
    for (let i = 0; i < 3; i++) b.record("addr"); // three failures use up the free attempts
    expect(b.retryAfterMs("addr")).toBe(1000);
    b.forgive("nobody"); // forgiving an unknown key is harmless
    expect(b.retryAfterMs("nobody")).toBe(0);
  });

  it("caps the wait, forgets after the window, and resets on success", () => {
    const c = clock();
    const b = new Backoff({ free: 1, baseMs: 1000, maxMs: 5000, windowMs: 60_000, now: c.now });
    for (let i = 0; i < 10; i++) b.record("k");
    expect(b.retryAfterMs("k")).toBe(5000);
    c.advance(61_000);
    expect(b.retryAfterMs("k")).toBe(0);
    b.record("j");
    b.reset("j");
    expect(b.retryAfterMs("j")).toBe(0);
  });

  it("remembers at most maxKeys keys", () => {
    const c = clock();
    const b = new Backoff({ free: 1, baseMs: 1000, maxMs: 5000, windowMs: 60_000, maxKeys: 2, now: c.now });
    b.record("a");
    b.record("b");
    b.record("c");
    expect(b.retryAfterMs("a")).toBe(0);
    expect(b.retryAfterMs("c")).toBe(1000);
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
