/**
 * Quotas and request limits at the HTTP boundary: each quota answers 429 with Retry-After at N+1
 * while another user is unaffected, and request bodies are refused with 413 while streaming.
 */
import { describe, expect, it } from "vitest";
import { errorResponse } from "@/lib/http";
import { readBodyText, readJson } from "@/lib/http";
import { InProcessCoordination } from "@/lib/cluster";
import { QuotaGate } from "@/lib/quotas";
import { QuotaError } from "@/lib/quotas/errors";
import { DEFAULT_QUOTAS, quotasFromEnv } from "@/lib/quotas/settings";

describe("quota settings", () => {
  it("reads each quota from its variable and keeps the default for unset or invalid values", () => {
    expect(quotasFromEnv({})).toEqual(DEFAULT_QUOTAS);
    const quotas = quotasFromEnv({ SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER: "3", SWITCHBOARD_QUOTA_REQUESTS_PER_MINUTE: "x" });
    expect(quotas.concurrentCallsPerUser).toBe(3);
    expect(quotas.requestsPerMinute).toBe(DEFAULT_QUOTAS.requestsPerMinute);
  });
});

describe("slots (the in-process coordination the quotas count in)", () => {
  it("refuse the N+1th slot of one user only, and free a slot once", () => {
    const slots = new InProcessCoordination();
    const held = [slots.takeSlotNow("alice", 2), slots.takeSlotNow("alice", 2)];
    expect(held.every(Boolean)).toBe(true);
    expect(slots.takeSlotNow("alice", 2)).toBeNull();
    expect(slots.takeSlotNow("bob", 2)).not.toBeNull();
    held[0]?.release();
    held[0]?.release(); // a second release is ignored
    expect(slots.takeSlotNow("alice", 2)).not.toBeNull();
    expect(slots.takeSlotNow("alice", 2)).toBeNull();
  });
});

describe("requests per minute", () => {
  /** The quotas over a memory of their own and a fake clock, with `requestsPerMinute` of 3. */
  function gate(now: () => number) {
    const store = new InProcessCoordination(now);
    return new QuotaGate(
      () => store,
      () => ({ ...DEFAULT_QUOTAS, requestsPerMinute: 3 }),
    );
  }

  async function retryAfter(run: Promise<void>): Promise<number> {
    try {
      await run;
      return 0;
    } catch (error) {
      return (error as QuotaError).retryAfterSeconds;
    }
  }

  it("answer the seconds until the oldest request leaves the window", async () => {
    let now = 0;
    const quotas = gate(() => now);
    for (let i = 0; i < 3; i++) expect(await retryAfter(quotas.enforceRequestRate("alice"))).toBe(0);
    now = 15_000;
    expect(await retryAfter(quotas.enforceRequestRate("alice"))).toBe(45);
    expect(await retryAfter(quotas.enforceRequestRate("bob"))).toBe(0);
    now = 60_000;
    expect(await retryAfter(quotas.enforceRequestRate("alice"))).toBe(0);
  });

  it("count exactly over a busy minute as hits expire from the front", async () => {
    let now = 0;
    const window = new InProcessCoordination(() => now);
    // 10 requests a second for two minutes against a limit of 500 a minute.
    const refusedAt: number[] = [];
    for (let i = 0; i < 1200; i++) {
      now = i * 100;
      if ((await window.hitWindow("busy", 500, 60_000)).wait > 0) refusedAt.push(now);
    }
    // The first 500 pass (0–49.9 s), the next 100 are refused (50–59.9 s); from 60 s each expired
    // hit makes room for exactly one new one, so the window holds 500 and refuses the rest.
    expect(refusedAt[0]).toBe(50_000);
    expect(refusedAt.filter((t) => t < 60_000)).toHaveLength(100);
    expect(refusedAt.filter((t) => t >= 60_000 && t < 110_000)).toHaveLength(0);
    expect(refusedAt.filter((t) => t >= 110_000)).toHaveLength(100);
  });
});

describe("429 responses", () => {
  it("carry Retry-After and a message naming the limit and its variable", async () => {
    const response = errorResponse(new QuotaError("concurrentCallsPerUser", 16, "tool calls running at once", 2));
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("2");
    const body = await response.json();
    expect(body).toMatchObject({ code: "quota.exceeded" });
    expect(body.message).toMatch(/tool calls running at once \(16; .*SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER/);
  });
});

describe("request bodies", () => {
  it("are refused with 413 while streaming, without reading the whole body", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const request = new Request("http://x/api", { method: "POST", body, duplex: "half" } as RequestInit);
    await expect(readBodyText(request, 256 * 1024)).rejects.toMatchObject({ code: "request.too_large", status: 413 });
    expect(pulled).toBeLessThanOrEqual(6);
  });

  it("are refused from Content-Length alone when it is over the cap", async () => {
    const request = new Request("http://x/api", { method: "POST", body: "{}", headers: { "content-length": "99999999" } });
    await expect(readJson(request, 1000)).rejects.toMatchObject({ status: 413 });
  });

  it("within the cap parse as JSON", async () => {
    await expect(readJson(new Request("http://x/api", { method: "POST", body: '{"a":1}' }), 100)).resolves.toEqual({ a: 1 });
  });
});

describe("turn and instance quotas (defaults)", () => {
  it("the 5th concurrent chat turn of a user answers 429; another user's turn starts", async () => {
    const { acquireTurn } = await import("@/lib/quotas");
    const held = await Promise.all([1, 2, 3, 4].map(() => acquireTurn("alice")));
    await expect(acquireTurn("alice")).rejects.toThrow(/chat answers running at once \(4;.*SWITCHBOARD_QUOTA_CONCURRENT_TURNS_PER_USER/);
    (await acquireTurn("bob"))();
    held[0]();
    (await acquireTurn("alice"))();
    for (const release of held) release();
  });

  it("the 21st reconnect of a user to one server within a minute answers 429; other servers and users are unaffected", async () => {
    const { enforceReconnectRate } = await import("@/lib/quotas");
    for (let i = 0; i < 20; i++) await enforceReconnectRate("carol", "s1");
    let refused: unknown;
    try {
      await enforceReconnectRate("carol", "s1");
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(QuotaError);
    expect((refused as QuotaError).retryAfterSeconds).toBeGreaterThan(0);
    expect((refused as Error).message).toMatch(/reconnects to one server per minute \(20;.*SWITCHBOARD_QUOTA_RECONNECTS_PER_MINUTE/);
    await expect(enforceReconnectRate("carol", "s2")).resolves.toBeUndefined();
    await expect(enforceReconnectRate("dave", "s1")).resolves.toBeUndefined();
  });

  it("the 17th concurrent tool call of a user answers 429, decided without a promise in single-node mode", async () => {
    const { poolAdmission } = await import("@/lib/quotas");
    // A call is the hottest path (thousands a second): in memory its slot costs no await.
    const held = Array.from({ length: 16 }, () => poolAdmission.call("erin"));
    expect(held.every((release) => typeof release === "function")).toBe(true);
    expect(() => poolAdmission.call("erin")).toThrow(/tool calls running at once \(16;.*SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER/);
    for (const release of held) (release as () => void)();
    const again = poolAdmission.call("erin");
    expect(typeof again).toBe("function");
    (again as () => void)();
  });

  it("the defaults hold the README's capacity (1,000 users × 3 servers, a tab or two each) with room to spare", () => {
    const users = 1000;
    expect(DEFAULT_QUOTAS.connectionsTotal).toBeGreaterThanOrEqual(users * 3 * 1.5);
    expect(DEFAULT_QUOTAS.eventStreamsTotal).toBeGreaterThanOrEqual(users * 2);
  });

  it("instance-wide connections and sandboxed processes answer 429 at their totals", async () => {
    const { poolAdmission } = await import("@/lib/quotas");
    const http = { id: "s", name: "s", config: { url: "https://x.example/mcp" } };
    const stdio = { id: "p", name: "p", config: { command: "node" } };
    expect(() => poolAdmission.connect("alice", http, { user: 0, total: 4999, sandboxes: 0 })).not.toThrow();
    expect(() => poolAdmission.connect("alice", http, { user: 0, total: 5000, sandboxes: 0 })).toThrow(
      /SWITCHBOARD_QUOTA_CONNECTIONS_TOTAL/,
    );
    // The pool makes room at the same figure before it asks (docs/limits.md#the-connection-ceiling).
    expect(poolAdmission.connectionCeiling?.()).toBe(5000);
    expect(poolAdmission.sandboxCeiling?.()).toBe(200);
    expect(() => poolAdmission.connect("alice", http, { user: 0, total: 10, sandboxes: 200 })).not.toThrow();
    expect(() => poolAdmission.connect("alice", stdio, { user: 0, total: 10, sandboxes: 200 })).toThrow(
      /SWITCHBOARD_QUOTA_SANDBOXES_TOTAL/,
    );
  });
});
