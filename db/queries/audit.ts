/**
 * The audit log: who did what to which target. Entries are written in batches, one transaction
 * every AUDIT_BATCH_MS at most (a commit per entry was the largest single cost of a tool call by
 * hand); every read writes what is waiting first, so a reader always sees every entry recorded
 * before it.
 */
import { and, desc, eq, inArray, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import { singleton } from "../../lib/singleton";
import { type Db, isSqliteHandle, onBeforeClose, type SqliteDb } from "../client";
import { auditLog, invitations, mcpServers, users, workspaces } from "../schema";
import { connectionBusy, gated } from "../transaction";
import { all } from "../exec";
import { databaseFailure, WHILE_AWAY } from "../unavailable";

/** One audited action. */
export interface AuditEntry {
  actorId: string | null;
  workspaceId?: string | null;
  action: string;
  target?: string | null;
  detail?: unknown;
}

// Entries waiting per database handle. On globalThis: the server bundles may hold more than one
// copy of this module, and a read through any copy must write every copy's waiting entries.
const waiting = () => singleton("db.auditWaiting", () => new Map<Db, { entries: AuditEntry[] }>());

/**
 * Record one audited action. `detail` must already be free of secrets. Inside a transaction (a
 * handle without its own client) the row is written at once, to commit or roll back with the rest.
 */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  return gated(db, async () => {
    if (!(db as Db & { $client?: unknown }).$client) {
      await db.insert(auditLog).values(rowOf(entry));
      return;
    }
    const queues = waiting();
    const queue = queues.get(db);
    if (queue) {
      queue.entries.push(entry);
      return;
    }
    queues.set(db, { entries: [entry] });
    setTimeout(() => void writeWaiting(db, false), AUDIT_BATCH_MS).unref();
  });
}

/**
 * How long an entry may wait to be written with others. A commit costs a tool call by hand about a
 * tenth of a millisecond, as much as a tenth of the call itself. Nothing can read the log without
 * writing what waits, and the process writes it on its way out (below), so only a hard kill within
 * this window loses entries.
 */
export const AUDIT_BATCH_MS = 250;

// process.exit() and a normal end both pass here; better-sqlite3 writes synchronously, so this
// completes. On Postgres it cannot (an exit handler does not wait): the shutdown on a signal
// (lib/shutdown.ts) and closeDb await the batch instead, so only a hard exit within the window loses it.
process.once("exit", () => {
  for (const db of [...waiting().keys()]) void writeWaiting(db, true);
});

/** Write every entry waiting for `db` now (reads call this first; so can shutdown). */
export async function flushAudit(db: Db): Promise<void> {
  return gated(db, async () => writeWaiting(db, false));
}

// Postgres batches under way per handle: a read (or the close) waits for them, as it would for the
// synchronous SQLite write.
const writing = () => singleton("db.auditWriting", () => new Map<Db, Set<Promise<void>>>());

function settled(db: Db): Promise<void> | undefined {
  const under = writing().get(db);
  return under?.size ? Promise.all(under).then(() => undefined) : undefined;
}

// SQLite: synchronous (better-sqlite3), so the exit handler and closeDb complete it (an async exit
// handler never finishes); while another chain's transaction holds the connection, the timer's batch
// waits for the next window instead of joining (and sharing the fate of) that transaction; at exit
// and close nothing else will run. Postgres: one multi-row insert on a pooled connection, awaited by
// whoever needs it written (the returned promise).
function writeWaiting(db: Db, exiting: boolean): void | Promise<void> {
  const queues = waiting();
  const queue = queues.get(db);
  if (!queue) return settled(db);
  if (!exiting && connectionBusy(db)) {
    setTimeout(() => void writeWaiting(db, false), AUDIT_BATCH_MS).unref();
    return;
  }
  queues.delete(db);
  if (!isSqliteHandle(db)) {
    const batches = writing().get(db) ?? new Set<Promise<void>>();
    writing().set(db, batches);
    const batch = writeBatchAsync(db, queue.entries).finally(() => batches.delete(batch));
    batches.add(batch);
    return settled(db);
  }
  try {
    const insert = preparedInsert(db);
    // One connection: the prepared statement runs inside this transaction.
    (db as SqliteDb).transaction(() => {
      for (const entry of queue.entries) insert.run(rowOf(entry));
    });
  } catch (error) {
    // One bad row must not lose the others: write them one by one.
    for (const entry of queue.entries) writeOne(db, entry, error);
  }
}

onBeforeClose("audit", (db) => writeWaiting(db, true));

// The batch's insert, built and prepared once per database handle (building the SQL per row cost
// as much as writing it).
const inserts = new WeakMap<Db, ReturnType<typeof buildInsert>>();

function buildInsert(db: Db) {
  return db
    .insert(auditLog)
    .values({
      actorId: sql.placeholder("actorId"),
      workspaceId: sql.placeholder("workspaceId"),
      action: sql.placeholder("action"),
      target: sql.placeholder("target"),
      detail: sql.placeholder("detail"),
    })
    .prepare();
}

function preparedInsert(db: Db) {
  let insert = inserts.get(db);
  if (!insert) {
    insert = buildInsert(db);
    inserts.set(db, insert);
  }
  return insert;
}

function insertNow(db: Db, entry: AuditEntry): void {
  db.insert(auditLog).values(rowOf(entry)).run();
}

// SQLite says "FOREIGN KEY constraint failed"; Postgres's error (the cause drizzle wraps) has code 23503.
function isForeignKeyError(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return /FOREIGN KEY/.test(String(error)) || cause?.code === "23503" || (error as { code?: string }).code === "23503";
}

function writeOne(db: Db, entry: AuditEntry, batchError: unknown): void {
  try {
    insertNow(db, entry);
  } catch (error) {
    // The actor's account was deleted before the batch was written: what its deletion would have
    // done to a row written at once (ON DELETE SET NULL).
    if (entry.actorId && isForeignKeyError(error)) {
      writeOne(db, { ...entry, actorId: null }, batchError);
      return;
    }
    console.error(`audit entry ${entry.action} could not be written: ${String(error)} (batch: ${String(batchError)})`);
  }
}

/**
 * The Postgres batch: one multi-row insert; when it fails, each entry alone (as `writeOne`). While the
 * database is out of reach (a restart) the entries wait for a later batch instead of being lost.
 */
async function writeBatchAsync(db: Db, entries: AuditEntry[]): Promise<void> {
  try {
    await db.insert(auditLog).values(entries.map(rowOf));
  } catch (batchError) {
    if (databaseFailure(batchError) === "unavailable" && putBack(db, entries)) return;
    for (const entry of entries) await writeOneAsync(db, entry, batchError);
  }
}

// Put a batch back in front of what waits, to be tried again; false when too much waits already.
function putBack(db: Db, entries: AuditEntry[]): boolean {
  const queues = waiting();
  const queue = queues.get(db);
  if ((queue?.entries.length ?? 0) + entries.length > WHILE_AWAY.maxWaiting) return false;
  if (queue) queue.entries = entries.concat(queue.entries);
  else {
    queues.set(db, { entries: [...entries] });
    setTimeout(() => void writeWaiting(db, false), WHILE_AWAY.retryMs).unref();
  }
  console.error(`audit: the database is out of reach; ${entries.length} entries wait for the next batch`);
  return true;
}

async function writeOneAsync(db: Db, entry: AuditEntry, batchError: unknown): Promise<void> {
  try {
    await db.insert(auditLog).values(rowOf(entry));
  } catch (error) {
    if (entry.actorId && isForeignKeyError(error)) {
      await writeOneAsync(db, { ...entry, actorId: null }, batchError);
      return;
    }
    console.error(`audit entry ${entry.action} could not be written: ${String(error)} (batch: ${String(batchError)})`);
  }
}

function rowOf(entry: AuditEntry) {
  return {
    actorId: entry.actorId,
    workspaceId: entry.workspaceId ?? null,
    action: entry.action,
    target: entry.target ?? null,
    detail: entry.detail ?? null,
  };
}

/** The most recent audit entries, newest first. */
export async function listRecentAudit(db: Db, limit = 100) {
  return gated(db, async () => {
    await flushAudit(db);
    return await all(db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit));
  });
}

/** Filters of `listAudit`; every field is optional. */
export interface AuditFilter {
  actorId?: string;
  workspaceId?: string;
  action?: string;
  target?: string;
  /** Entries older than this id (the previous page's `nextBefore`). */
  before?: number;
  /** Page size, default 50, at most 200. */
  limit?: number;
}

/** One page of audit entries, newest first, with the actor's email; `nextBefore` continues it. */
export async function listAudit(db: Db, filter: AuditFilter) {
  return gated(db, async () => {
    await flushAudit(db);
    const limit = Math.min(Math.max(filter.limit ?? 50, 1), 200);
    const where: SQL[] = [];
    if (filter.actorId) where.push(eq(auditLog.actorId, filter.actorId));
    if (filter.workspaceId) where.push(eq(auditLog.workspaceId, filter.workspaceId));
    if (filter.action) where.push(eq(auditLog.action, filter.action));
    if (filter.target) where.push(eq(auditLog.target, filter.target));
    if (filter.before) where.push(lt(auditLog.id, filter.before));
    const rows = await all(
      db
        .select({
          id: auditLog.id,
          actorId: auditLog.actorId,
          actorEmail: users.email,
          actorName: users.name,
          workspaceId: auditLog.workspaceId,
          action: auditLog.action,
          target: auditLog.target,
          detail: auditLog.detail,
          createdAt: auditLog.createdAt,
        })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorId))
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(auditLog.id))
        .limit(limit + 1),
    );
    const page = rows.slice(0, limit);
    return { entries: page, nextBefore: rows.length > limit ? page[page.length - 1].id : null };
  });
}

/** How many distinct values of each filter `auditFacets` lists at most. */
const FACET_LIMIT = 500;

/**
 * The values the log's filters offer, from the entries in scope: the people who acted (name and
 * email), the actions, the targets and the workspaces named — for each, the FACET_LIMIT used most
 * recently (a busy instance names far more targets than a list can offer, and what was just done is
 * what a reader looks for: picking the first ids in sort order left a new target out at random),
 * then put in a readable order (people by name, the rest by value).
 */
export async function auditFacets(db: Db, scope: { workspaceId?: string }) {
  return gated(db, async () => {
    await flushAudit(db);
    const inScope = scope.workspaceId ? eq(auditLog.workspaceId, scope.workspaceId) : undefined;
    const lastUse = sql`max(${auditLog.id})`;
    const actors = (
      await all(
        db
          .select({ id: users.id, name: users.name, email: users.email })
          .from(auditLog)
          .innerJoin(users, eq(users.id, auditLog.actorId))
          .where(inScope)
          .groupBy(users.id, users.name, users.email)
          .orderBy(desc(lastUse))
          .limit(FACET_LIMIT),
      )
    ).sort((a, b) => a.name.localeCompare(b.name));
    const column = async (c: typeof auditLog.action | typeof auditLog.target | typeof auditLog.workspaceId) =>
      (
        await all(
          db
            .select({ value: c })
            .from(auditLog)
            .where(and(inScope, isNotNull(c)))
            .groupBy(c)
            .orderBy(desc(lastUse))
            .limit(FACET_LIMIT),
        )
      )
        .map((r) => r.value as string)
        .sort();
    return {
      actors,
      actions: await column(auditLog.action),
      targets: await column(auditLog.target),
      workspaceIds: scope.workspaceId ? [] : await column(auditLog.workspaceId),
    };
  });
}

/** What an audit target id names, when it is a user, a workspace or a server. */
export interface AuditSubject {
  kind: "user" | "workspace" | "server" | "invitation";
  name: string;
  email?: string;
}

// Tool and trust entries name their server as `server:<id>`; the subject is the server's.
const SERVER_PREFIX = "server:";

/**
 * The users, workspaces, servers and invitations among `ids` (audit targets are ids of any of them,
 * a server also as `server:<id>`), by the id as given. An invitation is named by the email it was for.
 */
export async function auditSubjects(db: Db, ids: string[]): Promise<Map<string, AuditSubject>> {
  return gated(db, async () => {
    const found = new Map<string, AuditSubject>();
    const given = [...new Set(ids)].filter(Boolean);
    const unique = [...new Set(given.map((id) => (id.startsWith(SERVER_PREFIX) ? id.slice(SERVER_PREFIX.length) : id)))];
    // SQLite binds at most 32766 variables; chunks keep each query well under that.
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      for (const u of await all(
        db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, chunk)),
      ))
        found.set(u.id, { kind: "user", name: u.name, email: u.email });
      for (const w of await all(
        db.select({ id: workspaces.id, name: workspaces.name }).from(workspaces).where(inArray(workspaces.id, chunk)),
      ))
        found.set(w.id, { kind: "workspace", name: w.name });
      for (const s of await all(
        db.select({ id: mcpServers.id, name: mcpServers.name }).from(mcpServers).where(inArray(mcpServers.id, chunk)),
      ))
        found.set(s.id, { kind: "server", name: s.name });
      for (const v of await all(
        db.select({ id: invitations.id, email: invitations.email }).from(invitations).where(inArray(invitations.id, chunk)),
      ))
        found.set(v.id, { kind: "invitation", name: v.email });
    }
    for (const id of given) {
      const server = id.startsWith(SERVER_PREFIX) ? found.get(id.slice(SERVER_PREFIX.length)) : undefined;
      if (server?.kind === "server") found.set(id, server);
    }
    return found;
  });
}
