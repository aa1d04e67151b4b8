/**
 * The coordination contract (lib/cluster/coordination.ts), the same cases against this process's
 * memory and against a real Redis: two Redis clients stand for two replicas.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Coordination, InProcessCoordination, RedisCoordination } from "@/lib/cluster";
import { startRedis, type TestRedis } from "../../helpers/redis";

let redis: TestRedis;
const opened: Coordination[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await redis?.stop();
});

/** Two views of one shared state: two clients of one Redis, or one process's memory twice. */
function pair(kind: "memory" | "redis"): [Coordination, Coordination] {
  if (kind === "memory") {
    const one = new InProcessCoordination();
    return [one, one];
  }
  const a = new RedisCoordination(redis.url);
  const b = new RedisCoordination(redis.url);
  opened.push(a, b);
  return [a, b];
}

const waitFor = async (check: () => boolean, ms = 2_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe.each(["memory", "redis"] as const)("coordination in %s", (kind) => {
  it("slots: the limit holds across holders, a release frees one", async () => {
    const [a, b] = pair(kind);
    const key = `slots-${kind}`;
    const first = await a.takeSlot(key, 2, 30_000);
    const second = await b.takeSlot(key, 2, 30_000);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(await a.takeSlot(key, 2, 30_000)).toBeNull();
    expect(await b.takeSlot(key, 2, 30_000)).toBeNull();
    second?.release();
    second?.release(); // twice frees once
    await waitFor(() => true);
    const third = await a.takeSlot(key, 2, 30_000);
    expect(third).not.toBeNull();
    expect(await b.takeSlot(key, 2, 30_000)).toBeNull();
  });

  it("a burst of takers at once gets exactly the limit", async () => {
    const [a, b] = pair(kind);
    const key = `burst-${kind}`;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).takeSlot(key, 7, 30_000)));
    expect(results.filter(Boolean)).toHaveLength(7);
  });

  it("windows: limit hits within the window, then the wait until the oldest leaves", async () => {
    const [a, b] = pair(kind);
    const key = `window-${kind}`;
    expect(await a.hitWindow(key, 3, 60_000)).toEqual({ wait: 0, count: 1 });
    expect(await b.hitWindow(key, 3, 60_000)).toEqual({ wait: 0, count: 2 });
    expect(await a.hitWindow(key, 3, 60_000)).toEqual({ wait: 0, count: 3 });
    const { wait, count } = await b.hitWindow(key, 3, 60_000);
    expect(count).toBe(3);
    expect(wait).toBeGreaterThan(50_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    expect(await a.hitWindow(`${key}-other`, 3, 60_000)).toEqual({ wait: 0, count: 1 });
  });

  it("tallies count up, take one back and never go below zero", async () => {
    const [a, b] = pair(kind);
    const key = `tally-${kind}`;
    expect(await a.readTally(key)).toBeNull();
    expect(await a.tally(key, 1000, 60_000)).toEqual({ count: 1, at: 1000 });
    expect(await b.tally(key, 2000, 60_000)).toEqual({ count: 2, at: 2000 });
    await a.untally(key);
    expect(await b.readTally(key)).toEqual({ count: 1, at: 2000 });
    await a.untally(key);
    await a.untally(key);
    expect((await b.readTally(key))?.count).toBe(0);
    await b.drop(key);
    expect(await a.readTally(key)).toBeNull();
  });

  it("values: put, get, take once, and expire", async () => {
    const [a, b] = pair(kind);
    await a.put(`v-${kind}`, "hello", 60_000);
    expect(await b.get(`v-${kind}`)).toBe("hello");
    const takes = await Promise.all([a.take(`v-${kind}`), b.take(`v-${kind}`)]);
    expect(takes.filter((t) => t === "hello")).toHaveLength(1);
    expect(await a.get(`v-${kind}`)).toBeNull();
    await a.put(`short-${kind}`, "x", 50);
    await new Promise((r) => setTimeout(r, 120));
    expect(await b.get(`short-${kind}`)).toBeNull();
  });

  it("lists: appends answer their position, a range reads from one on, and expire", async () => {
    const [a, b] = pair(kind);
    const key = `list-${kind}`;
    expect(await a.range(key, 0)).toBeNull();
    expect(await a.append(key, "zero", 60_000)).toBe(0);
    expect(await b.append(key, "one", 60_000)).toBe(1);
    expect(await a.append(key, "two", 60_000)).toBe(2);
    expect(await b.range(key, 0)).toEqual(["zero", "one", "two"]);
    expect(await b.range(key, 2)).toEqual(["two"]);
    expect(await b.range(key, 3)).toEqual([]);
    await a.expire(key, 50);
    await new Promise((r) => setTimeout(r, 120));
    expect(await b.range(key, 0)).toBeNull();
    await a.append(`${key}-2`, "x", 60_000);
    await b.drop(`${key}-2`);
    expect(await a.range(`${key}-2`, 0)).toBeNull();
  });

  it("messages reach every subscriber until it unsubscribes", async () => {
    const [a, b] = pair(kind);
    const seenA: string[] = [];
    const seenB: string[] = [];
    const stopA = await a.subscribe(`ch-${kind}`, (m) => seenA.push(m));
    const stopB = await b.subscribe(`ch-${kind}`, (m) => seenB.push(m));
    await a.publish(`ch-${kind}`, "one");
    await waitFor(() => seenA.length === 1 && seenB.length === 1);
    await stopB();
    await b.publish(`ch-${kind}`, "two");
    await waitFor(() => seenA.length === 2);
    expect(seenA).toEqual(["one", "two"]);
    expect(seenB).toEqual(["one"]);
    await stopA();
  });
});

describe("coordination on Redis when Redis goes away", () => {
  it("answers cluster.unavailable at once, then works again once Redis is back, subscriptions included", async () => {
    const own = await startRedis();
    const a = new RedisCoordination(own.url);
    try {
      const seen: string[] = [];
      await a.subscribe("back", (m) => seen.push(m));
      expect((await a.hitWindow("w", 10, 60_000)).wait).toBe(0);
      await own.kill();
      const started = Date.now();
      await expect(a.hitWindow("w", 10, 60_000)).rejects.toMatchObject({ code: "cluster.unavailable" });
      expect(Date.now() - started).toBeLessThan(1_500);
      await own.start();
      await waitFor(() => {
        void a.publish("back", "again").catch(() => {});
        return seen.includes("again");
      }, 10_000);
      // Redis lost its data: the window starts afresh.
      expect((await a.hitWindow("w", 1, 60_000)).wait).toBe(0);
    } finally {
      await a.close();
      await own.stop();
    }
  });

  it("a first subscription while Redis is down answers cluster.unavailable within seconds, and works once it is up", async () => {
    const own = await startRedis();
    await own.kill();
    const a = new RedisCoordination(own.url);
    try {
      const started = Date.now();
      await expect(a.subscribe("later", () => {})).rejects.toMatchObject({ code: "cluster.unavailable" });
      expect(Date.now() - started).toBeLessThan(4_000);
      await own.start();
      const seen: string[] = [];
      await waitFor(() => true);
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const ok = await a
          .subscribe("later", (m) => seen.push(m))
          .then(
            () => true,
            () => false,
          );
        if (ok) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      await waitFor(() => {
        void a.publish("later", "up").catch(() => {});
        return seen.includes("up");
      }, 10_000);
    } finally {
      await a.close();
      await own.stop();
    }
  });

  it("a slot whose holder died lapses within its hold time", async () => {
    const a = new RedisCoordination(redis.url);
    const b = new RedisCoordination(redis.url);
    try {
      expect(await a.takeSlot("lapse", 1, 400)).not.toBeNull();
      await a.close(); // the holder is gone without releasing; it renews no more
      expect(await b.takeSlot("lapse", 1, 400)).toBeNull();
      await new Promise((r) => setTimeout(r, 500));
      expect(await b.takeSlot("lapse", 1, 400)).not.toBeNull();
    } finally {
      await b.close();
    }
  });

  it("a live holder keeps its slot past the hold time", async () => {
    const a = new RedisCoordination(redis.url);
    const b = new RedisCoordination(redis.url);
    try {
      expect(await a.takeSlot("kept", 1, 400)).not.toBeNull();
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await b.takeSlot("kept", 1, 400)).toBeNull();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
