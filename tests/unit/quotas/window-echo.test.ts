import { describe, expect, it } from "vitest";
import { type Coordination, InProcessCoordination } from "@/lib/cluster";
import { DEFAULT_QUOTAS, QuotaError, QuotaGate } from "@/lib/quotas";
import { ECHO_FRESH_MS } from "@/lib/quotas/window-echo";

/**
 * A clustered coordination whose window answers wait until the test lets them through, counting in
 * memory underneath: what a request does before Redis answers is then visible.
 */
function heldCoordination(now: () => number) {
  const inner = new InProcessCoordination(now);
  const held: (() => void)[] = [];
  let hits = 0;
  let autoRelease = false;
  const store = {
    clustered: true,
    available: true as boolean,
    hitWindow(key: string, limit: number, windowMs: number) {
      hits++;
      // Counted at once (as Redis counts on arrival); only the answer is held.
      const answer = inner.hitWindow(key, limit, windowMs);
      if (autoRelease) return answer;
      return new Promise((resolve) => held.push(() => void answer.then(resolve)));
    },
  } as unknown as Coordination;
  return {
    store,
    hits: () => hits,
    release() {
      for (const go of held.splice(0)) go();
    },
    answerAtOnce() {
      autoRelease = true;
      this.release();
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Whether `promise` has settled after the pending callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await tick();
  return done;
}

describe("the request rate in cluster mode (lib/quotas/window-echo.ts)", () => {
  const gateOver = (store: Coordination, limit: number, now: () => number) =>
    new QuotaGate(
      () => store,
      () => ({ ...DEFAULT_QUOTAS, requestsPerMinute: limit }),
      now,
    );

  it("waits for the count until it has heard one, then admits far below the limit without waiting, still counting", async () => {
    const now = 0;
    const held = heldCoordination(() => now);
    const gate = gateOver(held.store, 100, () => now);
    const first = gate.enforceRequestRate("u");
    expect(await settled(first)).toBe(false);
    held.release();
    await first;
    const second = gate.enforceRequestRate("u");
    expect(await settled(second)).toBe(true);
    expect(held.hits()).toBe(2);
    held.release();
  });

  it("near the limit every request waits for its count, and the one past the limit is refused exactly", async () => {
    const now = 0;
    const held = heldCoordination(() => now);
    held.answerAtOnce();
    const gate = gateOver(held.store, 6, () => now);
    for (let i = 0; i < 6; i++) await gate.enforceRequestRate("u");
    await expect(gate.enforceRequestRate("u")).rejects.toBeInstanceOf(QuotaError);
    expect(held.hits()).toBe(7);
  });

  it("does not let a burst through on an old answer: hits still unanswered count against the half", async () => {
    const now = 0;
    const held = heldCoordination(() => now);
    const gate = gateOver(held.store, 10, () => now);
    const first = gate.enforceRequestRate("u");
    held.release();
    await first;
    const burst = Array.from({ length: 20 }, () => gate.enforceRequestRate("u"));
    const admittedBeforeAnswers = (await Promise.all(burst.map(settled))).filter(Boolean).length;
    // The first hit's answer said 1; without waiting the window may grow to half the limit (5): four more.
    expect(admittedBeforeAnswers).toBe(4);
    held.answerAtOnce();
    const outcomes = await Promise.allSettled(burst);
    expect(1 + outcomes.filter((o) => o.status === "fulfilled").length).toBe(10);
    expect(outcomes.filter((o) => o.status === "rejected").every((o) => (o as PromiseRejectedResult).reason instanceof QuotaError)).toBe(
      true,
    );
  });

  it("trusts an answer for a second only", async () => {
    let now = 0;
    const held = heldCoordination(() => now);
    const gate = gateOver(held.store, 100, () => now);
    const first = gate.enforceRequestRate("u");
    held.release();
    await first;
    now += ECHO_FRESH_MS + 1;
    const later = gate.enforceRequestRate("u");
    expect(await settled(later)).toBe(false);
    held.release();
    await later;
  });

  it("waits for every count while the coordination is unreachable", async () => {
    const now = 0;
    const held = heldCoordination(() => now);
    const gate = gateOver(held.store, 100, () => now);
    const first = gate.enforceRequestRate("u");
    held.release();
    await first;
    (held.store as { available: boolean }).available = false;
    const next = gate.enforceRequestRate("u");
    expect(await settled(next)).toBe(false);
    held.release();
    await next;
  });

  it("keeps each user's window apart", async () => {
    const now = 0;
    const held = heldCoordination(() => now);
    const gate = gateOver(held.store, 100, () => now);
    const mine = gate.enforceRequestRate("u");
    held.release();
    await mine;
    const theirs = gate.enforceRequestRate("v");
    expect(await settled(theirs)).toBe(false);
    held.release();
    await theirs;
  });
});
