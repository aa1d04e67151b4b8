/**
 * What a batch of usage rows adds to the daily sums and the latency buckets (docs/usage.md), worked
 * out in memory once per batch, dialect-neutral: the SQLite and Postgres writers
 * (usage-sqlite-batch.ts, usage-rows.ts) upsert what this returns. Also the queue's columns of MCP
 * requests, which hold a waiting request without an object of its own.
 */
import type { usageDaily, usageLatency, usageMcpRequests, usageModelRequests } from "../schema";

/** One model request's row, priced already (`costMicros`). */
export type ModelRequestRow = typeof usageModelRequests.$inferInsert;
/** One MCP request's row; `at` may be given as epoch milliseconds. */
export type McpRequestRow = Omit<typeof usageMcpRequests.$inferInsert, "at"> & { at: Date | number };
/** One addition to a daily sum. */
export type DailyRow = typeof usageDaily.$inferInsert;
/** One addition to a latency bucket. */
export type LatencyRow = typeof usageLatency.$inferInsert;

/**
 * MCP requests waiting for their batch, a column per field. A row waits up to 250 ms, long enough
 * for the young generation to be collected a few times under load; an object per row would be
 * copied and promoted to the old generation each time. Columns are a handful of arrays (times in an
 * array of doubles, unboxed), and the one string parsed from each request (the tool's name) is
 * interned, so what a request leaves behind is a few array slots.
 */
export class McpColumns {
  /** Epoch milliseconds. */
  readonly at: number[] = [];
  readonly userId: string[] = [];
  readonly workspaceId: string[] = [];
  readonly serverId: string[] = [];
  readonly serverName: string[] = [];
  readonly kind: McpRequestRow["kind"][] = [];
  readonly name: string[] = [];
  readonly durationMs: number[] = [];
  readonly outcome: McpRequestRow["outcome"][] = [];
  readonly bytesIn: number[] = [];
  readonly bytesOut: number[] = [];

  /** How many requests wait. */
  get length(): number {
    return this.at.length;
  }

  /** Add one request (its fields are copied; the row object itself can die young). */
  push(row: McpRequestRow): void {
    this.at.push(typeof row.at === "number" ? row.at : row.at.getTime());
    // The ids and the server's name come from objects that outlive the call (the pool's connection,
    // the server's definition, the workspace cache); the tool's name is parsed from each request.
    this.userId.push(row.userId);
    this.workspaceId.push(row.workspaceId);
    this.serverId.push(row.serverId);
    this.serverName.push(row.serverName);
    this.kind.push(row.kind);
    this.name.push(interned(row.name));
    this.durationMs.push(row.durationMs);
    this.outcome.push(row.outcome);
    this.bytesIn.push(row.bytesIn ?? 0);
    this.bytesOut.push(row.bytesOut ?? 0);
  }

  /** Request `i` as a row (the Postgres writer's multi-row insert takes objects). */
  row(i: number): McpRequestRow & { at: Date } {
    return {
      at: new Date(this.at[i]),
      userId: this.userId[i],
      workspaceId: this.workspaceId[i],
      serverId: this.serverId[i],
      serverName: this.serverName[i],
      kind: this.kind[i],
      name: this.name[i],
      durationMs: this.durationMs[i],
      outcome: this.outcome[i],
      bytesIn: this.bytesIn[i],
      bytesOut: this.bytesOut[i],
    };
  }

  /** Rows `from` to `to` (exclusive) as objects. */
  rows(from = 0, to = this.length): (McpRequestRow & { at: Date })[] {
    const out = [];
    for (let i = from; i < Math.min(to, this.length); i++) out.push(this.row(i));
    return out;
  }

  /** Add every request of `other` after these. */
  append(other: McpColumns): void {
    for (let i = 0; i < other.length; i++) this.push(other.row(i));
  }
}

// A tool's name is parsed from each request's body, a fresh string each time; a waiting row keeps
// the first copy seen instead, so the fresh one dies young. Bounded: the set of names in use is small, and a flood of distinct ones only costs
// the lookups.
const internedStrings = new Map<string, string>();

function interned(value: string): string {
  const known = internedStrings.get(value);
  if (known !== undefined) return known;
  if (internedStrings.size >= 10_000) internedStrings.clear();
  internedStrings.set(value, value);
  return value;
}

const DAY_MS = 86_400_000;
// The last day named: a batch's rows are nearly all of one day, and naming it (toISOString) cost
// more per row than the rest of the sums.
let lastDay = { start: 0, name: "1970-01-01" };

/** The UTC day (`YYYY-MM-DD`) of a time (a Date or epoch milliseconds). */
export function dayOf(at: Date | number): string {
  const ms = typeof at === "number" ? at : at.getTime();
  if (ms >= lastDay.start && ms < lastDay.start + DAY_MS) return lastDay.name;
  const start = Math.floor(ms / DAY_MS) * DAY_MS;
  const name = new Date(start).toISOString().slice(0, 10);
  // Only whole, valid times are remembered (a NaN time names no day and must throw as before).
  if (Number.isFinite(start)) lastDay = { start, name };
  return name;
}

/** The latency bucket of a duration: exact up to 20 ms, then bounds about 5% apart (p50/p95 within that). */
export function latencyBucket(durationMs: number): number {
  const d = Math.max(0, Math.round(durationMs));
  if (d <= 20) return d;
  return Math.ceil(1.05 ** Math.ceil(Math.log(d) / Math.log(1.05)));
}

// Whether requests `a` and `b` add to the same daily sum (the day aside). The strings are compared
// as values: === on strings is by content, and the interned ones match at the first pointer check.
function sameSubject(mcp: McpColumns, a: number, b: number): boolean {
  return (
    mcp.name[a] === mcp.name[b] &&
    mcp.serverId[a] === mcp.serverId[b] &&
    mcp.userId[a] === mcp.userId[b] &&
    mcp.workspaceId[a] === mcp.workspaceId[b] &&
    mcp.kind[a] === mcp.kind[b]
  );
}

// Count request `i` in its latency bucket; returns the bucket.
function addToBucket(latency: Map<string, LatencyRow>, day: string, mcp: McpColumns, i: number, bucketMs: number): LatencyRow {
  const key = `${day}\u0000${mcp.workspaceId[i]}\u0000${mcp.serverId[i]}\u0000${bucketMs}`;
  const b = latency.get(key);
  if (b) {
    b.calls = (b.calls ?? 0) + 1;
    return b;
  }
  const bucket = { day, workspaceId: mcp.workspaceId[i], serverId: mcp.serverId[i], bucketMs, calls: 1 };
  latency.set(key, bucket);
  return bucket;
}

const SUMMED = ["calls", "errors", "inputTokens", "outputTokens", "cachedTokens", "reasoningTokens", "costMicros", "durationMs"] as const;

/**
 * The batch's additions to the daily sums and latency buckets: one row per (day, user, workspace,
 * subject) however many requests the batch held, each list in key order (two replicas' Postgres
 * batches then take their row locks in the same order and cannot deadlock).
 */
export function batchSums(model: readonly ModelRequestRow[], mcp: McpColumns): { daily: DailyRow[]; latency: LatencyRow[] } {
  const daily = new Map<string, DailyRow>();
  const add = (row: DailyRow) => {
    const key = `${row.day}\u0000${row.userId}\u0000${row.workspaceId}\u0000${row.kind}\u0000${row.groupKey}\u0000${row.name}`;
    const sum = daily.get(key);
    if (!sum) {
      daily.set(key, row);
      return row;
    }
    for (const f of SUMMED) sum[f] = (sum[f] ?? 0) + (row[f] ?? 0);
    return sum;
  };
  for (const r of model) {
    add({
      day: dayOf(r.at),
      userId: r.userId,
      workspaceId: r.workspaceId,
      kind: "model",
      groupKey: r.provider,
      name: r.model,
      label: r.provider,
      calls: 1,
      errors: r.outcome === "error" ? 1 : 0,
      inputTokens: r.inputTokens ?? 0,
      outputTokens: r.outputTokens ?? 0,
      cachedTokens: r.cachedTokens ?? 0,
      reasoningTokens: r.reasoningTokens ?? 0,
      costMicros: r.costMicros ?? 0,
      durationMs: r.latencyMs,
    });
  }
  const latency = new Map<string, LatencyRow>();
  // The sum and bucket the previous request went to: a run of calls to one tool (the common case)
  // adds to them without building a key per request.
  let last: { i: number; day: string; sum: DailyRow; bucketMs: number; bucket: LatencyRow } | undefined;
  for (let i = 0; i < mcp.length; i++) {
    const day = dayOf(mcp.at[i]);
    const durationMs = mcp.durationMs[i];
    if (last && sameSubject(mcp, last.i, i) && last.day === day) {
      last.sum.calls = (last.sum.calls ?? 0) + 1;
      last.sum.errors = (last.sum.errors ?? 0) + (mcp.outcome[i] === "ok" ? 0 : 1);
      last.sum.durationMs = (last.sum.durationMs ?? 0) + durationMs;
      const bucketMs = latencyBucket(durationMs);
      if (bucketMs === last.bucketMs) {
        last.bucket.calls = (last.bucket.calls ?? 0) + 1;
        last.i = i;
        continue;
      }
      last = { i, day, sum: last.sum, bucketMs, bucket: addToBucket(latency, day, mcp, i, bucketMs) };
      continue;
    }
    const sum = add({
      day,
      userId: mcp.userId[i],
      workspaceId: mcp.workspaceId[i],
      kind: "mcp",
      groupKey: mcp.serverId[i],
      name: `${mcp.kind[i]}:${mcp.name[i]}`,
      label: mcp.serverName[i],
      calls: 1,
      errors: mcp.outcome[i] === "ok" ? 0 : 1,
      durationMs,
    });
    const bucketMs = latencyBucket(durationMs);
    last = { i, day, sum, bucketMs, bucket: addToBucket(latency, day, mcp, i, bucketMs) };
  }
  const inKeyOrder = <T>(map: Map<string, T>) => [...map.keys()].sort().map((key) => map.get(key) as T);
  return { daily: inKeyOrder(daily), latency: inKeyOrder(latency) };
}
