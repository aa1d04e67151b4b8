/**
 * The sums a usage batch adds (db/queries/usage-sums.ts): the same as a key per request whatever the
 * order of the requests, and the waiting columns give their rows back as written.
 */
import { describe, expect, it } from "vitest";
import { batchSums, dayOf, latencyBucket, McpColumns, type McpRequestRow } from "@/db/queries/usage-sums";

// The sums worked out the plain way: a key per request, as the batch did before its fast path.
function plainSums(rows: McpRequestRow[]) {
  const daily = new Map<string, { calls: number; errors: number; durationMs: number; label: string }>();
  const latency = new Map<string, number>();
  for (const r of rows) {
    const day = dayOf(r.at);
    const key = [day, r.userId, r.workspaceId, "mcp", r.serverId, `${r.kind}:${r.name}`].join("|");
    const sum = daily.get(key) ?? { calls: 0, errors: 0, durationMs: 0, label: r.serverName };
    sum.calls++;
    sum.errors += r.outcome === "ok" ? 0 : 1;
    sum.durationMs += r.durationMs;
    daily.set(key, sum);
    const bucket = [day, r.workspaceId, r.serverId, latencyBucket(r.durationMs)].join("|");
    latency.set(bucket, (latency.get(bucket) ?? 0) + 1);
  }
  return { daily, latency };
}

describe("a usage batch's sums", () => {
  it("match a key per request however the requests run (repeats, interleaved tools, a new day, fresh string copies)", () => {
    const day0 = Date.UTC(2026, 10, 27, 23, 59, 59, 900);
    const rows: McpRequestRow[] = [];
    for (let i = 0; i < 400; i++) {
      const tool = i % 7 < 4 ? "echo" : i % 7 < 6 ? "add" : "slow";
      rows.push({
        at: day0 + i * 3,
        userId: i % 11 === 0 ? "u2" : "u1",
        workspaceId: "w1",
        serverId: i % 13 === 0 ? "s2" : "s1",
        serverName: i % 13 === 0 ? "two" : "one",
        kind: i % 17 === 0 ? "resource" : "tool",
        // A fresh copy of the name, as a parsed request body gives.
        name: JSON.parse(JSON.stringify(tool)),
        durationMs: i % 5 === 0 ? 3 : 40 + (i % 9),
        outcome: i % 19 === 0 ? "tool_error" : "ok",
      });
    }
    const columns = new McpColumns();
    for (const row of rows) columns.push(row);
    const { daily, latency } = batchSums([], columns);
    const plain = plainSums(rows);
    expect(
      Object.fromEntries(
        daily.map((d) => [
          [d.day, d.userId, d.workspaceId, d.kind, d.groupKey, d.name].join("|"),
          { calls: d.calls, errors: d.errors, durationMs: d.durationMs, label: d.label },
        ]),
      ),
    ).toEqual(Object.fromEntries(plain.daily));
    expect(Object.fromEntries(latency.map((b) => [[b.day, b.workspaceId, b.serverId, b.bucketMs].join("|"), b.calls]))).toEqual(
      Object.fromEntries(plain.latency),
    );
    // The batch crossed midnight (UTC): both days have sums.
    expect(new Set(daily.map((d) => d.day))).toEqual(new Set(["2026-11-27", "2026-11-28"]));
  });

  it("gives rows back as written (the Postgres writer's objects)", () => {
    const columns = new McpColumns();
    const at = new Date("2026-11-27T10:00:00Z");
    columns.push({
      at,
      userId: "u",
      workspaceId: "w",
      serverId: "s",
      serverName: "n",
      kind: "tool",
      name: "t",
      durationMs: 5,
      outcome: "ok",
    });
    expect(columns.rows()).toEqual([
      {
        at,
        userId: "u",
        workspaceId: "w",
        serverId: "s",
        serverName: "n",
        kind: "tool",
        name: "t",
        durationMs: 5,
        outcome: "ok",
        bytesIn: 0,
        bytesOut: 0,
      },
    ]);
  });
});
