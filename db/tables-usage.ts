/**
 * The usage tables (docs/usage.md): one row per model request and per MCP request, daily roll-ups
 * that outlive the rows' retention, the price table and the monthly budgets. Rows name users,
 * workspaces and servers by id without foreign keys: a year's history outlives a deleted account.
 * Money is kept in integer micro-dollars (µ$), prices in µ$ per million tokens.
 */
import type { ColumnKit } from "./columns/sqlite";

/** The usage tables, built with the column kit `k` (called from `defineTables`). */
export function defineUsageTables(k: ColumnKit) {
  /** One model request: a step of a chat turn or a sampling request, with the tokens the provider reported. */
  const usageModelRequests = k.table(
    "usage_model_requests",
    {
      id: k.serialId("id"),
      at: k.timestamp("at").notNull(),
      userId: k.text("user_id").notNull(),
      workspaceId: k.text("workspace_id").notNull(),
      chatId: k.text("chat_id"),
      source: k.enum("source", ["chat", "sampling"]).notNull(),
      provider: k.text("provider").notNull(),
      model: k.text("model").notNull(),
      inputTokens: k.integer("input_tokens").notNull().default(0),
      outputTokens: k.integer("output_tokens").notNull().default(0),
      cachedTokens: k.integer("cached_tokens").notNull().default(0),
      reasoningTokens: k.integer("reasoning_tokens").notNull().default(0),
      /** Priced when recorded, with the price then in force: a later price change does not rewrite it. */
      costMicros: k.integer("cost_micros").notNull().default(0),
      latencyMs: k.integer("latency_ms").notNull(),
      outcome: k.enum("outcome", ["ok", "error", "aborted"]).notNull(),
    },
    // Only retention reads these rows (by time); the pages read the daily sums. Each index costs
    // every insert, so there is just the one retention needs.
    (t) => [k.index("usage_model_at_idx").on(t.at)],
  );

  /** One MCP request that did work: a tool call, a resource read or a prompt get, from any path. */
  const usageMcpRequests = k.table(
    "usage_mcp_requests",
    {
      id: k.serialId("id"),
      at: k.timestamp("at").notNull(),
      userId: k.text("user_id").notNull(),
      workspaceId: k.text("workspace_id").notNull(),
      serverId: k.text("server_id").notNull(),
      serverName: k.text("server_name").notNull(),
      kind: k.enum("kind", ["tool", "resource", "prompt"]).notNull(),
      name: k.text("name").notNull(),
      durationMs: k.integer("duration_ms").notNull(),
      outcome: k.enum("outcome", ["ok", "tool_error", "protocol_error", "timeout", "refused"]).notNull(),
      bytesIn: k.integer("bytes_in").notNull().default(0),
      bytesOut: k.integer("bytes_out").notNull().default(0),
    },
    // As above: one index, for retention; written on every tool call, so kept lean.
    (t) => [k.index("usage_mcp_at_idx").on(t.at)],
  );

  /**
   * Daily sums of the rows above, per (day, user, workspace, kind, subject): `model` rows have the
   * provider in `group_key` and the model in `name`, `mcp` rows the server id and the tool (`label`:
   * the server's name). Added to in the same transaction as the rows, so the pages read sums, never
   * millions of rows, and retention can prune rows while the sums stay.
   */
  const usageDaily = k.table(
    "usage_daily",
    {
      day: k.text("day").notNull(),
      userId: k.text("user_id").notNull(),
      workspaceId: k.text("workspace_id").notNull(),
      kind: k.enum("kind", ["model", "mcp"]).notNull(),
      groupKey: k.text("group_key").notNull(),
      name: k.text("name").notNull(),
      label: k.text("label").notNull().default(""),
      calls: k.integer("calls").notNull().default(0),
      errors: k.integer("errors").notNull().default(0),
      inputTokens: k.integer("input_tokens").notNull().default(0),
      outputTokens: k.integer("output_tokens").notNull().default(0),
      cachedTokens: k.integer("cached_tokens").notNull().default(0),
      reasoningTokens: k.integer("reasoning_tokens").notNull().default(0),
      costMicros: k.integer("cost_micros").notNull().default(0),
      durationMs: k.integer("duration_ms").notNull().default(0),
    },
    (t) => [
      k.primaryKey({ columns: [t.day, t.userId, t.workspaceId, t.kind, t.groupKey, t.name] }),
      k.index("usage_daily_ws_day_idx").on(t.workspaceId, t.day),
    ],
  );

  /**
   * MCP request durations per (day, workspace, server), counted in buckets about 5% wide (`bucket_ms`
   * is the bucket's upper bound): p50/p95 per server and per day without reading the rows.
   */
  const usageLatency = k.table(
    "usage_latency",
    {
      day: k.text("day").notNull(),
      workspaceId: k.text("workspace_id").notNull(),
      serverId: k.text("server_id").notNull(),
      bucketMs: k.integer("bucket_ms").notNull(),
      calls: k.integer("calls").notNull().default(0),
    },
    (t) => [k.primaryKey({ columns: [t.day, t.workspaceId, t.serverId, t.bucketMs] })],
  );

  /** Prices per (scope, provider, model): scope `*` is the instance's table, else a workspace id (its own keys). */
  const usagePrices = k.table(
    "usage_prices",
    {
      scope: k.text("scope").notNull(),
      provider: k.text("provider").notNull(),
      model: k.text("model").notNull(),
      inputMicrosPerM: k.integer("input_micros_per_m").notNull(),
      outputMicrosPerM: k.integer("output_micros_per_m").notNull(),
      cachedMicrosPerM: k.integer("cached_micros_per_m").notNull(),
      updatedBy: k.text("updated_by"),
      updatedAt: k.updatedAt(),
    },
    (t) => [k.primaryKey({ columns: [t.scope, t.provider, t.model] })],
  );

  /**
   * Monthly budgets: `instance` (target `*`, the default for every user without their own), `user` or
   * `workspace`; a limit in tokens or in cents.
   */
  const usageBudgets = k.table(
    "usage_budgets",
    {
      scope: k.enum("scope", ["instance", "user", "workspace"]).notNull(),
      targetId: k.text("target_id").notNull(),
      unit: k.enum("unit", ["tokens", "cents"]).notNull(),
      monthlyLimit: k.integer("monthly_limit").notNull(),
      updatedBy: k.text("updated_by"),
      updatedAt: k.updatedAt(),
    },
    (t) => [k.primaryKey({ columns: [t.scope, t.targetId] })],
  );

  return { usageModelRequests, usageMcpRequests, usageDaily, usageLatency, usagePrices, usageBudgets };
}
