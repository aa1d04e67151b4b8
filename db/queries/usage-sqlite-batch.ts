/**
 * The SQLite writer of a usage batch (db/queries/usage-rows.ts): the rows and the batch's additions
 * to the daily sums and latency buckets in one transaction, through better-sqlite3 statements
 * prepared once per connection. Written in SQL rather than through drizzle's builder: the builder's
 * placeholders were filled per row (a third of the write's CPU in a profile of bench/usage.ts) and
 * the upserts were built anew for every batch. The SQL says exactly what the drizzle upserts of the
 * Postgres writer say; tests/integration/usage/* read the result through drizzle on both databases.
 */
import type Database from "better-sqlite3";
import { batchSums, type McpColumns, type ModelRequestRow } from "./usage-sums";

const MODEL_INSERT = `insert into usage_model_requests (at, user_id, workspace_id, chat_id, source, provider, model, input_tokens,
  output_tokens, cached_tokens, reasoning_tokens, cost_micros, latency_ms, outcome) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const MCP_INSERT = `insert into usage_mcp_requests (at, user_id, workspace_id, server_id, server_name, kind, name, duration_ms,
  outcome, bytes_in, bytes_out) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

// In an upsert's `do update`, a bare column is the stored row's and `excluded.` the one offered.
const DAILY_UPSERT = `insert into usage_daily (day, user_id, workspace_id, kind, group_key, name, label, calls, errors, input_tokens,
  output_tokens, cached_tokens, reasoning_tokens, cost_micros, duration_ms) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  on conflict (day, user_id, workspace_id, kind, group_key, name) do update set label = excluded.label,
  calls = calls + excluded.calls, errors = errors + excluded.errors, input_tokens = input_tokens + excluded.input_tokens,
  output_tokens = output_tokens + excluded.output_tokens, cached_tokens = cached_tokens + excluded.cached_tokens,
  reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens, cost_micros = cost_micros + excluded.cost_micros,
  duration_ms = duration_ms + excluded.duration_ms`;

const LATENCY_UPSERT = `insert into usage_latency (day, workspace_id, server_id, bucket_ms, calls) values (?, ?, ?, ?, ?)
  on conflict (day, workspace_id, server_id, bucket_ms) do update set calls = calls + excluded.calls`;

/** Write one batch into `connection` in a transaction of its own (a savepoint inside one under way); throws as the driver does. */
export function writeSqliteBatch(connection: Database.Database, model: readonly ModelRequestRow[], mcp: McpColumns): void {
  writerOf(connection)(model, mcp);
}

type Writer = (model: readonly ModelRequestRow[], mcp: McpColumns) => void;

// Prepared once per connection (a test opens many; the WeakMap lets a closed one go).
const writers = new WeakMap<Database.Database, Writer>();

function writerOf(connection: Database.Database): Writer {
  let writer = writers.get(connection);
  if (!writer) {
    writer = buildWriter(connection);
    writers.set(connection, writer);
  }
  return writer;
}

function buildWriter(connection: Database.Database): Writer {
  const modelInsert = connection.prepare(MODEL_INSERT);
  const mcpInsert = connection.prepare(MCP_INSERT);
  const dailyUpsert = connection.prepare(DAILY_UPSERT);
  const latencyUpsert = connection.prepare(LATENCY_UPSERT);
  return connection.transaction((model: readonly ModelRequestRow[], mcp: McpColumns) => {
    for (const r of model) {
      modelInsert.run(
        r.at.getTime(),
        r.userId,
        r.workspaceId,
        r.chatId ?? null,
        r.source,
        r.provider,
        r.model,
        // The columns' defaults, for a row that leaves them out (as drizzle's insert would apply them).
        r.inputTokens ?? 0,
        r.outputTokens ?? 0,
        r.cachedTokens ?? 0,
        r.reasoningTokens ?? 0,
        r.costMicros ?? 0,
        r.latencyMs,
        r.outcome,
      );
    }
    for (let i = 0; i < mcp.length; i++) {
      mcpInsert.run(
        mcp.at[i],
        mcp.userId[i],
        mcp.workspaceId[i],
        mcp.serverId[i],
        mcp.serverName[i],
        mcp.kind[i],
        mcp.name[i],
        mcp.durationMs[i],
        mcp.outcome[i],
        mcp.bytesIn[i],
        mcp.bytesOut[i],
      );
    }
    const { daily, latency } = batchSums(model, mcp);
    for (const d of daily) {
      dailyUpsert.run(
        d.day,
        d.userId,
        d.workspaceId,
        d.kind,
        d.groupKey,
        d.name,
        d.label ?? "",
        d.calls ?? 0,
        d.errors ?? 0,
        d.inputTokens ?? 0,
        d.outputTokens ?? 0,
        d.cachedTokens ?? 0,
        d.reasoningTokens ?? 0,
        d.costMicros ?? 0,
        d.durationMs ?? 0,
      );
    }
    for (const b of latency) latencyUpsert.run(b.day, b.workspaceId, b.serverId, b.bucketMs, b.calls ?? 0);
  });
}
