/**
 * Quotas and throttles are cluster-wide (issue 27): two clients of one real Redis stand for two
 * replicas, each with its own quotas (`QuotaGate`) and sign-in throttle (`SignInThrottle`) as each
 * replica's process has. A user's quota of N across both refuses the N+1th with the same 429 on
 * either; the sign-in backoff counts the attempts made through both; a burst sent to both at once
 * lets exactly the free attempts through; Redis gone answers 503 `cluster.unavailable`, and the
 * quotas work again once it is back, without a restart.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SignInThrottle } from "@/lib/auth/sign-in-throttle";
import { type Coordination, InProcessCoordination, RedisCoordination } from "@/lib/cluster";
import { errorResponse } from "@/lib/http";
import { DEFAULT_QUOTAS, type Quotas, QuotaGate } from "@/lib/quotas";
import { KeyTurns, TURN_WAIT_MS } from "@/lib/security/key-turns";
import { clearSingleton } from "@/lib/singleton";
import { startRedis, type TestRedis } from "../../helpers/redis";

const QUOTAS: Quotas = {
  ...DEFAULT_QUOTAS,
  requestsPerMinute: 5,
  reconnectsPerMinute: 3,
  concurrentTurnsPerUser: 2,
  concurrentCallsPerUser: 2,
  eventStreamsPerUser: 2,
  eventStreamsTotal: 3,
};

let redis: TestRedis;
const opened: Coordination[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await redis?.stop();
});

/** One replica's view: its own Redis client, quotas and throttle. */
function replica(url = redis.url) {
  const store = new RedisCoordination(url);
  opened.push(store);
  return {
    store,
    quotas: new QuotaGate(
      () => store,
      () => QUOTAS,
    ),
    throttle: new SignInThrottle({ coordination: () => store }),
  };
}

/** The error `run` rejects with, as the HTTP boundary answers it. */
async function refusal(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    const response = errorResponse(error);
    return { status: response.status, retryAfter: Number(response.headers.get("retry-after")), body: await response.json() };
  }
  return null;
}

/** The release of a concurrent-call slot, however the admission hook answered. */
async function call(gate: QuotaGate, userId: string): Promise<() => void> {
  return await gate.admission.call(userId);
}

describe("a quota of N across two replicas", () => {
  it("requests per minute: the N+1th is refused with the same 429 on either replica; another user is unaffected", async () => {
    const [a, b] = [replica(), replica()];
    const user = randomUUID();
    for (let i = 0; i < 5; i++) await (i % 2 ? b : a).quotas.enforceRequestRate(user);
    const onA = await refusal(() => a.quotas.enforceRequestRate(user));
    const onB = await refusal(() => b.quotas.enforceRequestRate(user));
    expect(onA).toMatchObject({ status: 429, body: { code: "quota.exceeded" } });
    expect(onA?.body.message).toMatch(/API requests per minute \(5;.*SWITCHBOARD_QUOTA_REQUESTS_PER_MINUTE/);
    expect(onB?.body).toEqual(onA?.body);
    for (const refused of [onA, onB]) {
      expect(refused?.retryAfter).toBeGreaterThanOrEqual(59);
      expect(refused?.retryAfter).toBeLessThanOrEqual(60);
    }
    await expect(b.quotas.enforceRequestRate(randomUUID())).resolves.toBeUndefined();
  });

  it("reconnects to one server per minute count on both replicas", async () => {
    const [a, b] = [replica(), replica()];
    const user = randomUUID();
    const server = randomUUID();
    for (const each of [a, b, a]) await each.quotas.enforceReconnectRate(user, server);
    const onB = await refusal(() => b.quotas.enforceReconnectRate(user, server));
    expect(onB).toMatchObject({ status: 429, body: { message: expect.stringMatching(/SWITCHBOARD_QUOTA_RECONNECTS_PER_MINUTE/) } });
    await expect(b.quotas.enforceReconnectRate(user, randomUUID())).resolves.toBeUndefined();
  });

  it("chat turns at once: the third is refused on either replica until one ends, wherever it ran", async () => {
    const [a, b] = [replica(), replica()];
    const user = randomUUID();
    const onA = await a.quotas.acquireTurn(user);
    const onB = await b.quotas.acquireTurn(user);
    const refusedOnA = await refusal(() => a.quotas.acquireTurn(user));
    const refusedOnB = await refusal(() => b.quotas.acquireTurn(user));
    expect(refusedOnA).toMatchObject({ status: 429, retryAfter: 5 });
    expect(refusedOnA?.body.message).toMatch(/chat answers running at once \(2;.*SWITCHBOARD_QUOTA_CONCURRENT_TURNS_PER_USER/);
    expect(refusedOnB).toEqual(refusedOnA);
    await expect(a.quotas.acquireTurn(randomUUID())).resolves.toBeTypeOf("function");
    onB(); // the turn on B ends: A may start one once the release, sent in the background, reached Redis
    let next: (() => void) | undefined;
    await vi.waitFor(async () => {
      next = await a.quotas.acquireTurn(user);
    });
    next?.();
    onA();
  });

  it("tool calls at once: the admission hook answers a promise in cluster mode and refuses the N+1th on either replica", async () => {
    const [a, b] = [replica(), replica()];
    const user = randomUUID();
    const first = a.quotas.admission.call(user);
    expect(first).toBeInstanceOf(Promise);
    const held = [await first];
    held.push(await call(b.quotas, user));
    const refusedOnA = await refusal(() => call(a.quotas, user));
    const refusedOnB = await refusal(() => call(b.quotas, user));
    expect(refusedOnA).toMatchObject({ status: 429, retryAfter: 2 });
    expect(refusedOnA?.body.message).toMatch(/tool calls running at once \(2;.*SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER/);
    expect(refusedOnB).toEqual(refusedOnA);
    for (const release of held) release();
    // A release reaches Redis in the background: the slot is free once it has.
    await expect.poll(async () => (await refusal(async () => (await call(b.quotas, user))())) === null).toBe(true);
  });

  it("event streams: the user's cap and the instance's count the tabs on both replicas", async () => {
    const [a, b] = [replica(), replica()];
    const [alice, bob] = [randomUUID(), randomUUID()];
    const tabs = [await a.quotas.acquireEventStream(alice), await b.quotas.acquireEventStream(alice)];
    const perUser = await refusal(() => a.quotas.acquireEventStream(alice));
    expect(perUser?.body.message).toMatch(/live event streams per user \(browser tabs\) \(2;.*SWITCHBOARD_QUOTA_EVENT_STREAMS_PER_USER/);
    tabs.push(await a.quotas.acquireEventStream(bob)); // the third stream of the instance
    const total = await refusal(() => b.quotas.acquireEventStream(bob));
    expect(total).toMatchObject({ status: 429, retryAfter: 10 });
    expect(total?.body.message).toMatch(/live event streams on this instance \(3;.*SWITCHBOARD_QUOTA_EVENT_STREAMS_TOTAL/);
    for (const release of tabs) release();
    // Bob's refused stream kept none of his slots: two fit once the others are gone.
    await expect.poll(async () => (await refusal(() => b.quotas.acquireEventStream(bob))) === null).toBe(true);
  });

  it("a burst of turns sent to both replicas at once gets exactly the quota", async () => {
    const [a, b] = [replica(), replica()];
    const user = randomUUID();
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).quotas.acquireTurn(user)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    for (const r of results) if (r.status === "fulfilled") r.value();
  });
});

describe("the sign-in backoff across two replicas", () => {
  it("counts the attempts made through both: the sixth is refused on either, and a success on one clears both", async () => {
    const [a, b] = [replica(), replica()];
    const keys = { email: `${randomUUID()}@example.com`, address: `198.51.100.${Math.floor(Math.random() * 200)}` };
    for (let i = 0; i < 5; i++) await (i % 2 ? b : a).throttle.takeAttempt("signIn", keys);
    for (const each of [a, b]) {
      const refused = await refusal(() => each.throttle.takeAttempt("signIn", keys));
      expect(refused).toMatchObject({ status: 429, body: { code: "auth.rate_limited" } });
      expect(refused?.retryAfter).toBeGreaterThan(0);
    }
    expect(await b.throttle.attemptRetryAfterSeconds("signIn", keys)).toBeGreaterThan(0);
    await a.throttle.clearAccountAttempts(keys.email, keys.address);
    expect(await b.throttle.attemptRetryAfterSeconds("signIn", keys)).toBe(0);
    await b.throttle.takeAttempt("signIn", keys);
    await a.throttle.limiters.signInAddress.reset(`address:${keys.address}`);
  });

  it("counts sign-ups per address on both replicas", async () => {
    const [a, b] = [replica(), replica()];
    const address = `203.0.113.${Math.floor(Math.random() * 200)}`;
    const free = 30; // SWITCHBOARD_REGISTRATIONS_PER_ADDRESS's default
    for (let i = 0; i < free; i++)
      await (i % 2 ? b : a).throttle.takeAttempt("register", { email: `${randomUUID()}@example.com`, address });
    const refused = await refusal(() => a.throttle.takeAttempt("register", { email: `${randomUUID()}@example.com`, address }));
    expect(refused).toMatchObject({ status: 429, body: { code: "auth.rate_limited" } });
  });
});

describe("turns of one key across two replicas", () => {
  it("a waiter on one replica outwaits a slow holder on the other instead of being refused", async () => {
    const [a, b] = [replica(), replica()];
    const key = `turn-test:${randomUUID()}`;
    const order: string[] = [];
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const first = new KeyTurns(() => a.store).run([key], async () => {
      held();
      order.push("a starts");
      // Longer than a waiter used to wait (2 s) and well under TURN_WAIT_MS.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      order.push("a ends");
    });
    await holding;
    const second = new KeyTurns(() => b.store).run([key], async () => {
      order.push("b runs");
    });
    await Promise.all([first, second]);
    expect(order).toEqual(["a starts", "a ends", "b runs"]);
    expect(TURN_WAIT_MS).toBeGreaterThan(3_000);
  });
});

describe.each(["memory", "redis"] as const)("a burst of sign-in attempts at once (%s)", (kind) => {
  it("lets exactly the account's free attempts through, however they are spread", async () => {
    const memory = new InProcessCoordination();
    const throttles = kind === "memory" ? [new SignInThrottle({ coordination: () => memory })] : [replica().throttle, replica().throttle];
    const keys = { email: `${randomUUID()}@example.com`, address: `192.0.2.${Math.floor(Math.random() * 200)}` };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => throttles[i % throttles.length].takeAttempt("signIn", keys)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "auth.rate_limited" });
  });
});

describe("Redis gone", () => {
  it("quotas and the sign-in throttle answer 503 cluster.unavailable, then work again once Redis is back", async () => {
    const own = await startRedis();
    try {
      const { store, quotas, throttle } = replica(own.url);
      const user = randomUUID();
      const keys = { email: `${randomUUID()}@example.com`, address: "192.0.2.200" };
      await quotas.enforceRequestRate(user);
      const turn = await quotas.acquireTurn(user);
      await own.kill();
      // Far below its limit a request is admitted without waiting for Redis while the connection is
      // thought up (lib/quotas/window-echo.ts); from the moment the client sees it closed, every
      // request waits for its count again, and so gets the 503.
      await expect.poll(() => store.available, { timeout: 5_000 }).toBe(false);
      const checks: (() => Promise<unknown>)[] = [
        () => quotas.enforceRequestRate(user),
        () => quotas.enforceReconnectRate(user, randomUUID()),
        () => quotas.acquireTurn(user),
        () => call(quotas, user),
        () => quotas.acquireEventStream(user),
        () => throttle.takeAttempt("signIn", keys),
        () => throttle.attemptRetryAfterSeconds("signIn", keys),
        () => throttle.clearAccountAttempts(keys.email, keys.address),
      ];
      for (const check of checks) {
        const refused = await refusal(check);
        expect(refused).toMatchObject({ status: 503, body: { code: "cluster.unavailable" } });
        expect(refused?.retryAfter).toBeGreaterThan(0);
      }
      turn(); // a release while Redis is gone is not an error (the slot lapses on its own)
      await own.start();
      await expect.poll(async () => (await refusal(() => quotas.enforceRequestRate(user))) === null, { timeout: 10_000 }).toBe(true);
      await (await quotas.acquireTurn(user))();
      await throttle.takeAttempt("signIn", keys);
    } finally {
      await own.stop();
    }
  });
});

describe("the app's quotas", () => {
  it("count in Redis once REDIS_URL is set, together with another replica's", async () => {
    const previous = process.env.REDIS_URL;
    process.env.REDIS_URL = redis.url;
    clearSingleton("cluster.coordination");
    try {
      const app = await import("@/lib/quotas");
      const other = replica();
      const user = randomUUID();
      for (let i = 0; i < app.currentQuotas().requestsPerMinute - 1; i++) await app.enforceRequestRate(user);
      const otherGate = new QuotaGate(() => other.store, app.currentQuotas);
      await otherGate.enforceRequestRate(user);
      expect(await refusal(() => app.enforceRequestRate(user))).toMatchObject({ status: 429 });
    } finally {
      await clearSingleton<Coordination>("cluster.coordination")?.close();
      if (previous === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = previous;
    }
  });
});
