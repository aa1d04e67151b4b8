/**
 * What the Usage pages show (docs/usage.md), read from the daily sums and latency buckets (never the
 * rows, so a year of a busy team answers as fast as a week). Every query is scoped by workspace,
 * user, both, or neither (the instance), and by a range of UTC days.
 */
import { and, eq, gte, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client";
import { usageDaily, usageLatency, users, workspaces } from "../schema";
import { afterUsageFlush } from "./usage-rows";
import { all } from "../exec";

/** Which usage a report covers: days `from`..`to` (`YYYY-MM-DD`, inclusive), optionally one workspace and/or one user. */
export interface UsageScope {
  from: string;
  to: string;
  workspaceId?: string;
  userId?: string;
}

const n = (column: unknown) => sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);

function where(scope: UsageScope, kind?: "model" | "mcp"): SQL | undefined {
  const parts: SQL[] = [gte(usageDaily.day, scope.from), lte(usageDaily.day, scope.to)];
  if (scope.workspaceId) parts.push(eq(usageDaily.workspaceId, scope.workspaceId));
  if (scope.userId) parts.push(eq(usageDaily.userId, scope.userId));
  if (kind) parts.push(eq(usageDaily.kind, kind));
  return and(...parts);
}

const modelSums = {
  inputTokens: n(usageDaily.inputTokens),
  outputTokens: n(usageDaily.outputTokens),
  cachedTokens: n(usageDaily.cachedTokens),
  reasoningTokens: n(usageDaily.reasoningTokens),
  costMicros: n(usageDaily.costMicros),
};

/** Tokens, cost, model calls, MCP calls and errors per day (days without usage are absent). */
export async function usageByDay(db: Db, scope: UsageScope) {
  return afterUsageFlush(db, async () => {
    return await all(
      db
        .select({
          day: usageDaily.day,
          ...modelSums,
          modelCalls: n(sql`case when ${usageDaily.kind} = 'model' then ${usageDaily.calls} else 0 end`),
          mcpCalls: n(sql`case when ${usageDaily.kind} = 'mcp' then ${usageDaily.calls} else 0 end`),
          mcpErrors: n(sql`case when ${usageDaily.kind} = 'mcp' then ${usageDaily.errors} else 0 end`),
        })
        .from(usageDaily)
        .where(where(scope))
        .groupBy(usageDaily.day)
        .orderBy(usageDaily.day),
    );
  });
}

/** Model requests per (provider, model). */
export async function usageByModel(db: Db, scope: UsageScope) {
  return afterUsageFlush(db, async () => {
    return await all(
      db
        .select({
          provider: usageDaily.groupKey,
          model: usageDaily.name,
          calls: n(usageDaily.calls),
          errors: n(usageDaily.errors),
          ...modelSums,
        })
        .from(usageDaily)
        .where(where(scope, "model"))
        .groupBy(usageDaily.groupKey, usageDaily.name),
    );
  });
}

/** Tokens, cost and MCP calls per member (name and email from the users table; a deleted user shows by id). */
export async function usageByMember(db: Db, scope: UsageScope) {
  return afterUsageFlush(db, async () => {
    return await all(
      db
        .select({
          userId: usageDaily.userId,
          name: users.name,
          email: users.email,
          ...modelSums,
          mcpCalls: n(sql`case when ${usageDaily.kind} = 'mcp' then ${usageDaily.calls} else 0 end`),
        })
        .from(usageDaily)
        .leftJoin(users, eq(users.id, usageDaily.userId))
        .where(where(scope))
        .groupBy(usageDaily.userId, users.name, users.email),
    );
  });
}

/** Tokens, cost and MCP calls per workspace. */
export async function usageByWorkspace(db: Db, scope: UsageScope) {
  return afterUsageFlush(db, async () => {
    return await all(
      db
        .select({
          workspaceId: usageDaily.workspaceId,
          name: workspaces.name,
          ...modelSums,
          mcpCalls: n(sql`case when ${usageDaily.kind} = 'mcp' then ${usageDaily.calls} else 0 end`),
        })
        .from(usageDaily)
        .leftJoin(workspaces, eq(workspaces.id, usageDaily.workspaceId))
        .where(where(scope))
        .groupBy(usageDaily.workspaceId, workspaces.name),
    );
  });
}

/** MCP calls, errors and total duration per server (the name as last recorded). */
export async function usageByServer(db: Db, scope: UsageScope) {
  return afterUsageFlush(db, async () => {
    return await all(
      db
        .select({
          serverId: usageDaily.groupKey,
          serverName: sql<string>`max(${usageDaily.label})`,
          calls: n(usageDaily.calls),
          errors: n(usageDaily.errors),
          durationMs: n(usageDaily.durationMs),
        })
        .from(usageDaily)
        .where(where(scope, "mcp"))
        .groupBy(usageDaily.groupKey),
    );
  });
}

/** MCP calls, errors and total duration per (server, `kind:name`). */
export async function usageByTool(db: Db, scope: UsageScope) {
  return afterUsageFlush(db, async () => {
    return await all(
      db
        .select({
          serverId: usageDaily.groupKey,
          serverName: sql<string>`max(${usageDaily.label})`,
          name: usageDaily.name,
          calls: n(usageDaily.calls),
          errors: n(usageDaily.errors),
          durationMs: n(usageDaily.durationMs),
        })
        .from(usageDaily)
        .where(where(scope, "mcp"))
        .groupBy(usageDaily.groupKey, usageDaily.name),
    );
  });
}

/** Latency buckets per (day, server) of a workspace or the instance (buckets carry no user). */
export async function latencyBuckets(db: Db, scope: Omit<UsageScope, "userId">) {
  return afterUsageFlush(db, async () => {
    const parts: SQL[] = [gte(usageLatency.day, scope.from), lte(usageLatency.day, scope.to)];
    if (scope.workspaceId) parts.push(eq(usageLatency.workspaceId, scope.workspaceId));
    return await all(
      db
        .select({
          day: usageLatency.day,
          serverId: usageLatency.serverId,
          bucketMs: usageLatency.bucketMs,
          calls: n(usageLatency.calls),
        })
        .from(usageLatency)
        .where(and(...parts))
        .groupBy(usageLatency.day, usageLatency.serverId, usageLatency.bucketMs),
    );
  });
}

/** Tokens (input + output) and cost of one user (all workspaces) or one workspace since day `from`. */
export async function usageTotals(db: Db, scope: { from: string; userId?: string; workspaceId?: string }) {
  return afterUsageFlush(db, async () => {
    const [row] = await all(
      db
        .select({ tokens: n(sql`${usageDaily.inputTokens} + ${usageDaily.outputTokens}`), costMicros: n(usageDaily.costMicros) })
        .from(usageDaily)
        .where(where({ ...scope, to: "9999-12-31" }, "model")),
    );
    return row ?? { tokens: 0, costMicros: 0 };
  });
}
