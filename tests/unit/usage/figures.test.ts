/**
 * The pure parts of usage (docs/usage.md): prices by longest prefix and the cost of a request,
 * latency buckets and percentiles from them, the month a budget counts, the AI SDK provider id,
 * the engine's outcome classes, and the CSV export's escaping.
 */
import { describe, expect, it } from "vitest";
import { latencyBucket } from "@/db/queries/usage-rows";
import { outcomeOfCode } from "@/lib/mcp/request-events";
import { budgetWarning, monthOf } from "@/lib/usage/budgets";
import { costMicros, defaultPrice, providerOf } from "@/lib/usage/prices";
import { bucketPercentile, type UsageReport, usageCsv } from "@/lib/usage/report";

describe("prices and cost", () => {
  it("matches a dated model id to the longest default key and prices cached input apart", () => {
    expect(defaultPrice("anthropic", "claude-sonnet-4-20250514")).toEqual(defaultPrice("anthropic", "claude-sonnet-4"));
    expect(defaultPrice("openai", "gpt-4o-mini-2024-07-18")?.inputMicrosPerM).toBe(150_000);
    expect(defaultPrice("openai", "gpt-4o-2024-08-06")?.inputMicrosPerM).toBe(2_500_000);
    expect(defaultPrice("openai-compatible", "llama3")).toBeUndefined();
    const price = { inputMicrosPerM: 2_000_000, outputMicrosPerM: 8_000_000, cachedMicrosPerM: 500_000 };
    // 600k uncached input at $2/M, 400k cached at $0.50/M, 500k output at $8/M.
    expect(costMicros({ inputTokens: 1_000_000, outputTokens: 500_000, cachedTokens: 400_000 }, price)).toBe(
      1_200_000 + 200_000 + 4_000_000,
    );
    expect(costMicros({ inputTokens: 10, outputTokens: 5, cachedTokens: 0 }, undefined)).toBe(0);
  });

  it("reads our provider from the AI SDK's id", () => {
    expect(providerOf("openai.chat")).toBe("openai");
    expect(providerOf("anthropic.messages")).toBe("anthropic");
    expect(providerOf("openai-compatible.chat")).toBe("openai-compatible");
  });
});

describe("latency buckets", () => {
  it("keep small durations exact and larger ones within about 5%", () => {
    for (const d of [0, 1, 7, 20]) expect(latencyBucket(d)).toBe(d);
    for (const d of [21, 99, 1234, 60_000]) {
      const b = latencyBucket(d);
      expect(b).toBeGreaterThanOrEqual(d);
      expect(b / d).toBeLessThan(1.06);
    }
  });

  it("give nearest-rank percentiles over counts", () => {
    const buckets = [
      { bucketMs: 10, calls: 50 },
      { bucketMs: 100, calls: 45 },
      { bucketMs: 1000, calls: 5 },
    ];
    expect(bucketPercentile(buckets, 0.5)).toBe(10);
    expect(bucketPercentile(buckets, 0.95)).toBe(100);
    expect(bucketPercentile(buckets, 0.96)).toBe(1000);
    expect(bucketPercentile([], 0.5)).toBeNull();
  });
});

describe("budgets' month", () => {
  it("counts the UTC calendar month and resets on the first of the next", () => {
    const { from, resetsAt } = monthOf(new Date("2026-12-31T23:59:00Z"));
    expect(from).toBe("2026-12-01");
    expect(resetsAt.toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });

  it("warns from 80% on", () => {
    const standing = {
      scope: "user" as const,
      unit: "tokens" as const,
      limit: 100,
      used: 79,
      ratio: 0.79,
      resetsAt: new Date("2027-01-01"),
    };
    expect(budgetWarning(standing)).toBeNull();
    expect(budgetWarning({ ...standing, used: 80, ratio: 0.8 })).toContain("80% used; it resets on 2027-01-01");
  });
});

describe("engine outcomes", () => {
  it("classes failures as timeouts, refusals or protocol errors", () => {
    expect(outcomeOfCode(undefined)).toBe("ok");
    expect(outcomeOfCode(undefined, true)).toBe("tool_error");
    expect(outcomeOfCode("call_timeout")).toBe("timeout");
    expect(outcomeOfCode("quota_exceeded")).toBe("refused");
    expect(outcomeOfCode("connection_closed")).toBe("protocol_error");
  });
});

describe("CSV export", () => {
  it("quotes what needs it and defuses spreadsheet formulas", () => {
    const report = {
      daily: [],
      models: [],
      members: [{ userId: "u", name: '=HYPERLINK("x")', email: "a,b@example.com", inputTokens: 1 }],
      workspaces: [],
      servers: [],
      tools: [],
    } as unknown as UsageReport;
    const csv = usageCsv(report);
    expect(csv).toContain("members\r\nuserId,name,email,inputTokens\r\n");
    expect(csv).toContain(`u,"'=HYPERLINK(""x"")","a,b@example.com",1`);
  });
});
