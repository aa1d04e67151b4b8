/**
 * Usage rows (docs/usage.md): model requests and MCP requests, written in batches off the request
 * path as the audit log is (db/queries/audit.ts): one transaction every USAGE_BATCH_MS at most, and
 * every read writes what is waiting first, so a report always sees every row recorded before it.
 * The same transaction adds the batch to the daily sums and latency buckets the pages read.
 */
import { eq, sql } from "drizzle-orm";
import { singleton } from "../../lib/singleton";
import { type Db, isSqliteHandle, onBeforeClose, onPooledConnection, sqliteConnectionOf } from "../client";
import { mcpServers, usageDaily, usageLatency, usageMcpRequests, usageModelRequests } from "../schema";
import { connectionBusy, gated } from "../transaction";
import { exec, one } from "../exec";
import { databaseFailure, WHILE_AWAY } from "../unavailable";
import { writeSqliteBatch } from "./usage-sqlite-batch";
import { batchSums, McpColumns, type McpRequestRow, type ModelRequestRow } from "./usage-sums";

export { dayOf, latencyBucket, type McpRequestRow, type ModelRequestRow } from "./usage-sums";

interface Waiting {
  model: ModelRequestRow[];
  mcp: McpColumns;
}

/** How long a row may wait to be written with others (a commit per tool call would cost more than recording it). */
export const USAGE_BATCH_MS = 250;

// Rows waiting per database handle; on globalThis because the server bundles may hold several copies
// of this module. The registry's map is looked up once per copy: queueing runs on every tool call.
let waitingQueues: Map<Db, Waiting> | undefined;
const waiting = () => {
  waitingQueues ??= singleton("db.usageWaiting", () => new Map<Db, Waiting>());
  return waitingQueues;
};

function queueFor(db: Db): Waiting {
  const queues = waiting();
  let queue = queues.get(db);
  if (!queue) {
    queue = { model: [], mcp: new McpColumns() };
    queues.set(db, queue);
    setTimeout(() => writeWaiting(db, false), USAGE_BATCH_MS).unref();
  }
  return queue;
}

// Queueing touches no database, so it stays synchronous: recording adds no await to the call it describes.

/** Queue one model request row. */
export function queueModelRequest(db: Db, row: ModelRequestRow): void {
  queueFor(db).model.push(row);
}

/** Queue one MCP request row. */
export function queueMcpRequest(db: Db, row: McpRequestRow): void {
  queueFor(db).mcp.push(row);
}

// Recordings on their way to the queue: one that awaits a lookup first (the server's workspace, the
// price in force) queues its row a few ticks after the request ended. A flush waits for them, so a
// report sees every request that ended before it was asked for.
const onTheirWay = () => singleton("db.usageOnTheirWay", () => new Set<Promise<unknown>>());

/** Note a recording that queues its row after an await; `flushUsage` waits for it to settle. */
export function noteRecording(work: Promise<unknown>): void {
  const recordings = onTheirWay();
  recordings.add(work);
  const settled = () => recordings.delete(work);
  work.then(settled, settled);
}

/**
 * Write every row waiting for `db` now (readers and shutdown call this), after the recordings on
 * their way. Never call it inside a gated body or a transaction: those recordings' lookups need the gate.
 */
export async function flushUsage(db: Db): Promise<void> {
  const recordings = [...onTheirWay()];
  if (recordings.length) await Promise.allSettled(recordings);
  return gated(db, async () => writeWaiting(db, false));
}

// Postgres batches under way per handle: a flush (or the close) waits for them, as it would for the
// synchronous SQLite write.
const writing = () => singleton("db.usageWriting", () => new Map<Db, Set<Promise<void>>>());

function settled(db: Db): Promise<void> | undefined {
  const under = writing().get(db);
  return under?.size ? Promise.all(under).then(() => undefined) : undefined;
}

// SQLite: synchronous (better-sqlite3), so the exit handler and closeDb complete it (an async exit
// handler never finishes). While another chain's transaction holds the connection, the timer's batch
// waits for the next window instead of joining (and sharing the fate of) that transaction; at exit
// and close nothing else will run. Postgres: one transaction on a pooled connection, awaited by
// whoever needs it written (the returned promise). As the audit batch does (audit.ts).
function writeWaiting(db: Db, exiting: boolean): void | Promise<void> {
  const queues = waiting();
  const queue = queues.get(db);
  if (!queue) return settled(db);
  if (!exiting && connectionBusy(db)) {
    setTimeout(() => void writeWaiting(db, false), USAGE_BATCH_MS).unref();
    return;
  }
  queues.delete(db);
  if (!isSqliteHandle(db)) {
    const batches = writing().get(db) ?? new Set<Promise<void>>();
    writing().set(db, batches);
    const batch = writeBatchAsync(db, queue).finally(() => batches.delete(batch));
    batches.add(batch);
    return settled(db);
  }
  try {
    // The handle's one connection, written synchronously: rows, sums and buckets in one transaction.
    writeSqliteBatch(sqliteConnectionOf(db)!, queue.model, queue.mcp);
  } catch (error) {
    reportLost(queue, error);
  }
}

// Usage is bookkeeping: a failed batch is reported, never thrown into the call that recorded it.
function reportLost(queue: Waiting, error: unknown): void {
  console.error(`usage rows could not be written (${queue.model.length + queue.mcp.length} lost): ${String(error)}`);
}

// Rows per multi-row insert on Postgres: 14 columns a row stays far below its 65,535 parameters.
const POSTGRES_ROWS_PER_INSERT = 500;

/**
 * The Postgres batch: the rows in multi-row inserts and the sums' upserts, in one transaction of the
 * driver's own on a pooled connection (onPooledConnection; not the transaction port: the timer that starts it runs in the async context of the
 * request that queued the first row, which may have been inside a transaction of its own). At READ
 * COMMITTED an upsert adds to the row another replica wrote meanwhile; the upserts go in key order,
 * so two replicas' batches take their row locks in the same order and cannot deadlock.
 */
async function writeBatchAsync(db: Db, queue: Waiting): Promise<void> {
  try {
    await onPooledConnection(db, (connection) =>
      connection.transaction(async (pgTx) => {
        // The tables are typed by their SQLite definitions; on Postgres the schema module hands out their twins.
        const tx = pgTx as unknown as Db;
        for (let i = 0; i < queue.model.length; i += POSTGRES_ROWS_PER_INSERT)
          await tx.insert(usageModelRequests).values(queue.model.slice(i, i + POSTGRES_ROWS_PER_INSERT));
        for (let i = 0; i < queue.mcp.length; i += POSTGRES_ROWS_PER_INSERT)
          await tx.insert(usageMcpRequests).values(queue.mcp.rows(i, i + POSTGRES_ROWS_PER_INSERT));
        for (const upsert of sumUpserts(tx, queue)) await exec(upsert);
      }),
    );
  } catch (error) {
    // While the database is out of reach (a restart) the rows wait for a later batch.
    if (databaseFailure(error) === "unavailable" && putBack(db, queue)) return;
    reportLost(queue, error);
  }
}

// Put a batch back in front of what waits, to be tried again; false when too much waits already.
function putBack(db: Db, batch: Waiting): boolean {
  const queues = waiting();
  const queue = queues.get(db);
  const count = batch.model.length + batch.mcp.length;
  if ((queue ? queue.model.length + queue.mcp.length : 0) + count > WHILE_AWAY.maxWaiting) return false;
  if (queue) {
    queue.model = batch.model.concat(queue.model);
    const mcp = new McpColumns();
    mcp.append(batch.mcp);
    mcp.append(queue.mcp);
    queue.mcp = mcp;
  } else {
    queues.set(db, { model: [...batch.model], mcp: batch.mcp });
    setTimeout(() => void writeWaiting(db, false), WHILE_AWAY.retryMs).unref();
  }
  console.error(`usage: the database is out of reach; ${count} rows wait for the next batch`);
  return true;
}

/**
 * Run a gated read or write of the usage tables once every row recorded before it is written: the
 * flush comes before the gate, since it may wait for recordings whose own lookups need the gate.
 */
export async function afterUsageFlush<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  await flushUsage(db);
  return gated(db, fn);
}

onBeforeClose("usage", (db) => writeWaiting(db, true));

// process.exit() and a normal end both pass here; better-sqlite3 writes synchronously, so this
// completes. On Postgres it cannot (an exit handler does not wait): closeDb, which the shutdown on a
// signal awaits (lib/shutdown.ts), awaits the batch instead.
process.once("exit", () => {
  for (const db of [...waiting().keys()]) void writeWaiting(db, true);
});

// The Postgres batch's additions to the daily sums and latency buckets (batchSums), as upserts of
// 200 rows each. Built, not run: the caller runs them in its transaction.
function sumUpserts(db: Db, queue: Waiting) {
  const { daily: rows, latency: buckets } = batchSums(queue.model, queue.mcp);
  const upserts = [];
  for (let i = 0; i < rows.length; i += 200) {
    upserts.push(
      db
        .insert(usageDaily)
        .values(rows.slice(i, i + 200))
        .onConflictDoUpdate({
          target: [usageDaily.day, usageDaily.userId, usageDaily.workspaceId, usageDaily.kind, usageDaily.groupKey, usageDaily.name],
          set: {
            label: sql`excluded.label`,
            calls: sql`${usageDaily.calls} + excluded.calls`,
            errors: sql`${usageDaily.errors} + excluded.errors`,
            inputTokens: sql`${usageDaily.inputTokens} + excluded.input_tokens`,
            outputTokens: sql`${usageDaily.outputTokens} + excluded.output_tokens`,
            cachedTokens: sql`${usageDaily.cachedTokens} + excluded.cached_tokens`,
            reasoningTokens: sql`${usageDaily.reasoningTokens} + excluded.reasoning_tokens`,
            costMicros: sql`${usageDaily.costMicros} + excluded.cost_micros`,
            durationMs: sql`${usageDaily.durationMs} + excluded.duration_ms`,
          },
        }),
    );
  }
  for (let i = 0; i < buckets.length; i += 200) {
    upserts.push(
      db
        .insert(usageLatency)
        .values(buckets.slice(i, i + 200))
        .onConflictDoUpdate({
          target: [usageLatency.day, usageLatency.workspaceId, usageLatency.serverId, usageLatency.bucketMs],
          set: { calls: sql`${usageLatency.calls} + excluded.calls` },
        }),
    );
  }
  return upserts;
}

/** The workspace a server belongs to (usage rows of MCP requests carry it), or null for an unknown id. */
export async function workspaceOfServer(db: Db, serverId: string): Promise<string | null> {
  return gated(db, async () => {
    return (
      (await one(db.select({ workspaceId: mcpServers.workspaceId }).from(mcpServers).where(eq(mcpServers.id, serverId))))?.workspaceId ??
      null
    );
  });
}
