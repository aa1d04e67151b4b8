/**
 * A Usage page's figures (docs/usage.md#the-usage-pages), assembled from the daily sums and latency
 * buckets of one scope: totals, days, and the tables by model, member, workspace, server and tool,
 * with p50/p95 per server and per day from the buckets.
 */
import type { Db } from "../../db/client";
import {
  latencyBuckets,
  type UsageScope,
  usageByDay,
  usageByMember,
  usageByModel,
  usageByServer,
  usageByTool,
  usageByWorkspace,
} from "../../db/queries/usage-reports";

/** Nearest-rank percentile `p` of bucket counts (`bucketMs` is each bucket's upper bound); null when empty. */
export function bucketPercentile(buckets: { bucketMs: number; calls: number }[], p: number): number | null {
  const sorted = [...buckets].sort((a, b) => a.bucketMs - b.bucketMs);
  const total = sorted.reduce((n, b) => n + b.calls, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const b of sorted) {
    seen += b.calls;
    if (seen >= rank) return b.bucketMs;
  }
  return sorted.at(-1)!.bucketMs;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
}

/** Every figure of one scope's page; latency percentiles only when the scope has no single user (buckets carry none). */
export async function usageReport(db: Db, scope: UsageScope) {
  const daily = await usageByDay(db, scope);
  const buckets = scope.userId ? [] : await latencyBuckets(db, scope);
  const byServer = groupBy(buckets, (b) => b.serverId);
  const byDay = groupBy(buckets, (b) => b.day);
  const servers = (await usageByServer(db, scope)).map((s) => ({
    ...s,
    avgMs: s.calls ? Math.round(s.durationMs / s.calls) : null,
    p50Ms: bucketPercentile(byServer.get(s.serverId) ?? [], 0.5),
    p95Ms: bucketPercentile(byServer.get(s.serverId) ?? [], 0.95),
  }));
  const sum = (f: (d: (typeof daily)[number]) => number) => daily.reduce((n, d) => n + f(d), 0);
  return {
    from: scope.from,
    to: scope.to,
    totals: {
      inputTokens: sum((d) => d.inputTokens),
      outputTokens: sum((d) => d.outputTokens),
      cachedTokens: sum((d) => d.cachedTokens),
      costMicros: sum((d) => d.costMicros),
      modelCalls: sum((d) => d.modelCalls),
      mcpCalls: sum((d) => d.mcpCalls),
      mcpErrors: sum((d) => d.mcpErrors),
    },
    daily: daily.map((d) => ({
      ...d,
      p50Ms: bucketPercentile(byDay.get(d.day) ?? [], 0.5),
      p95Ms: bucketPercentile(byDay.get(d.day) ?? [], 0.95),
    })),
    models: await usageByModel(db, scope),
    members: scope.userId ? [] : await usageByMember(db, scope),
    workspaces: scope.workspaceId ? [] : await usageByWorkspace(db, scope),
    servers,
    tools: (await usageByTool(db, scope)).map((t) => ({ ...t, avgMs: t.calls ? Math.round(t.durationMs / t.calls) : null })),
  };
}

/** What `usageReport` returns (the API's JSON). */
export type UsageReport = Awaited<ReturnType<typeof usageReport>>;

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  // A leading =, +, - or @ would be a formula in a spreadsheet (CSV injection).
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The report as CSV: one section per table, each with its header row. */
export function usageCsv(report: UsageReport): string {
  const lines: string[] = [];
  const section = (title: string, rows: Record<string, unknown>[]) => {
    if (rows.length === 0) return;
    const header = Object.keys(rows[0]);
    lines.push(csvCell(title), header.map(csvCell).join(","));
    for (const row of rows) lines.push(header.map((h) => csvCell(row[h])).join(","));
    lines.push("");
  };
  section("daily", report.daily);
  section("models", report.models);
  section("members", report.members);
  section("workspaces", report.workspaces);
  section("servers", report.servers);
  section("tools", report.tools);
  return `${lines.join("\r\n")}\r\n`;
}
