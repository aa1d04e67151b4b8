/**
 * The transaction port: `withTransaction(db, fn)` runs `fn` as one transaction on SQLite and on
 * Postgres; a throw (or a rejection) anywhere inside rolls everything back. Bodies are async on both
 * (`async (tx) => { await q1(tx); await q2(tx); }`); see docs/architecture.md#transactions.
 *
 * SQLite has one connection and a synchronous driver, and an async body yields between its queries,
 * so two things guard the connection. A FIFO lock per connection holds it for a transaction from
 * BEGIN to COMMIT/ROLLBACK; `gated` (which every query function of db/queries runs through) lets a
 * query outside the transaction start only while none is open, so another request's statement can
 * never land inside this transaction (and be rolled back with it, or read what it has not
 * committed). A transaction in turn waits until the query functions under way (those awaiting
 * between statements) have finished. Whether code runs inside the transaction is known from an
 * AsyncLocalStorage context, so queries on `tx` (or, on SQLite, on the root handle) inside the body
 * pass the gate, and a nested `withTransaction` becomes a savepoint.
 *
 * Postgres: drizzle's node-postgres transaction (one pooled client, BEGIN/COMMIT/ROLLBACK), SERIALIZABLE
 * and run again when it loses a conflict (see `serializable`); the pool
 * keeps other requests on other connections, so `gated` only runs the function (once the database's
 * start-up, migrations and key check, is done: db/client.ts `pendingStart`).
 *
 * A few writers must stay synchronous on SQLite (the audit batch at process exit) or are cheapest so
 * (a message saved per streamed step): `stepTransaction` runs one body written as a generator of
 * statements synchronously inside better-sqlite3's transaction there, and awaited through
 * `withTransaction` on Postgres.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import { BetterSQLiteTransaction } from "drizzle-orm/better-sqlite3/session";
import { type Db, isSqliteHandle, onPooledConnection, pendingStart, type SqliteDb } from "./client";

/** A transaction handle: the same query functions accept it as they accept `db`. */
export type Tx = Db;

interface Lock {
  /** The chain owning the open transaction, or null. */
  owner: object | null;
  /** Query functions under way outside any transaction (they hold the connection across awaits). */
  inflight: number;
  /** Waiting queries and transactions, in arrival order. */
  queue: { kind: "query" | "tx"; start: () => void }[];
}

interface Context {
  /** The lock whose transaction this chain runs in (SQLite). */
  lock?: Lock;
  /** The transaction handle of this chain, for nested calls. */
  tx?: unknown;
  /** Savepoint depth of nested transactions. */
  depth: number;
  /** Query functions under way in this chain (a transaction started inside one must not wait for it). */
  held: number;
}

const context = new AsyncLocalStorage<Context>();
// One lock per better-sqlite3 connection; on globalThis, since the server bundles may hold more
// than one copy of this module and they must share the connection's lock.
const LOCKS = Symbol.for("switchboard.db.txLocks");
const slots = globalThis as { [LOCKS]?: WeakMap<object, Lock> };
slots[LOCKS] ??= new WeakMap();
const locks = slots[LOCKS];

interface SqliteInternals {
  $client?: { exec(sql: string): void; inTransaction: boolean; open?: boolean };
  session: unknown;
  dialect: unknown;
  _: unknown;
}

/** The better-sqlite3 connection behind a root handle, or undefined (a transaction handle, Postgres). */
function sqliteClient(db: unknown) {
  const client = (db as SqliteInternals).$client;
  return client && typeof client.exec === "function" && "inTransaction" in client ? client : undefined;
}

const lockClients = new WeakMap<Lock, { exec(sql: string): void }>();

function lockOf(client: { exec(sql: string): void }): Lock {
  let lock = locks.get(client);
  if (!lock) {
    lock = { owner: null, inflight: 0, queue: [] };
    locks.set(client, lock);
    lockClients.set(lock, client);
  }
  return lock;
}

/** Start what waits, in order: queries until the next transaction, which starts once nothing is under way. */
function wake(lock: Lock): void {
  while (lock.owner === null && lock.queue.length) {
    const next = lock.queue[0];
    if (next.kind === "tx" && lock.inflight > 0) return;
    lock.queue.shift();
    next.start();
  }
}

/**
 * Run one query function's body on `db`: at once when no transaction is open on its connection (or
 * when this chain owns it), else after that transaction ends. Its body starts synchronously after
 * the check, so no transaction can begin in between.
 */
export function gated<T>(db: Db, fn: () => T | Promise<T>): Promise<T> {
  const client = sqliteClient(db);
  const ctx = context.getStore();
  if (!client) {
    const starting = pendingStart(db);
    return starting === null ? call(fn) : starting.then(() => call(fn));
  }
  const lock = lockOf(client);
  // Inside this connection's open transaction: part of it.
  if (ctx?.lock === lock) return call(fn);
  const run = () => {
    lock.inflight++;
    const done = () => {
      lock.inflight--;
      wake(lock);
    };
    const result = context.run({ depth: 0, held: (ctx?.held ?? 0) + 1 }, () => call(fn));
    result.then(done, done);
    return result;
  };
  // A query inside one under way never waits (a transaction waiting for it would wait for itself).
  if (lock.owner === null && (lock.queue.length === 0 || ctx?.held)) return run();
  return new Promise<T>((resolve) => lock.queue.push({ kind: "query", start: () => resolve(run()) }));
}

function call<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** How a transaction may be told apart from others (see `withTransaction`). */
export interface TransactionOptions {
  /**
   * Everything the transaction reads and writes belongs to this key (`tool-pins:<server id>`):
   * transactions naming the same key run one after another, and on Postgres such a transaction
   * runs at READ COMMITTED behind a transaction-scoped advisory lock on the key instead of at
   * SERIALIZABLE. Serializable transactions on different keys still conflict whenever Postgres's
   * predicate locks cover whole pages or a small table (every first listing of a server at once
   * under load: dozens rolled back ten times and answered `database.busy`); keyed ones never do.
   * On SQLite every transaction already runs alone, so the key changes nothing there.
   */
  serializeOn?: string;
}

/**
 * Run `fn` in one transaction and return its result; a throw anywhere inside rolls back every
 * write made through `tx`. Nested calls run as savepoints of the outer transaction.
 */
export async function withTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T> | T, options: TransactionOptions = {}): Promise<T> {
  const client = sqliteClient(db);
  const ctx = context.getStore();
  if (!client) {
    // A transaction handle (no client of its own) inside this chain's transaction: a savepoint.
    if (ctx?.tx) return nested(ctx, db, fn);
    // Postgres (and any async drizzle handle): the driver's own transaction on one pooled client.
    await pendingStart(db);
    return postgresTransaction(db, fn, options.serializeOn);
  }
  const lock = lockOf(client);
  if (ctx?.lock === lock) return nested(ctx, db, fn);
  await acquire(lock, ctx?.held ?? 0);
  const internals = db as unknown as SqliteInternals;
  // A handle of its own (no `$client`): code that tells a transaction from the root handle by it
  // (the audit log writes at once inside one) still can; it shares the one connection.
  const tx = new BetterSQLiteTransaction(
    "sync",
    internals.dialect as never,
    internals.session as never,
    internals._ as never,
  ) as unknown as Tx;
  try {
    client.exec("BEGIN IMMEDIATE");
    try {
      const result = await context.run({ lock, tx, depth: 0, held: 0 }, () => fn(tx));
      client.exec("COMMIT");
      return result;
    } catch (error) {
      if (client.inTransaction) client.exec("ROLLBACK");
      throw error;
    }
  } finally {
    lock.owner = null;
    wake(lock);
  }

  function acquire(lock: Lock, held: number): Promise<void> {
    const owner = {};
    // Query functions of this very chain that are under way do not count: they wait for this one.
    const free = () => lock.owner === null && lock.inflight <= held && lock.queue.length === 0;
    if (free()) {
      lock.owner = owner;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      lock.queue.push({
        kind: "tx",
        start: () => {
          lock.owner = owner;
          resolve();
        },
      }),
    );
  }
}

/** How many times a Postgres transaction runs at most when it keeps losing to concurrent ones. */
export const SERIALIZATION_ATTEMPTS = 10;

// Postgres's "could not serialize access" and "deadlock detected": the transaction lost a conflict
// and rolled back; running it again sees the winner's writes. drizzle wraps the driver's error.
function lostConflict(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === "40001" || code === "40P01";
}

/**
 * A Postgres transaction at SERIALIZABLE isolation: SQLite's transactions are serializable (one
 * writer at a time), and the bodies rely on it (check the last owner, then demote; find a free slug,
 * then take it); at Postgres's default READ COMMITTED two such bodies both pass their check. A body
 * that loses a conflict is rolled back and run again (up to SERIALIZATION_ATTEMPTS times, after a
 * random pause that doubles each time, so that bodies colliding again and again spread out: four
 * clients registering people back to back, each body counting the users, lost five times in a row),
 * so a body must do nothing but database work through `tx`. Still losing after that is a
 * `database.busy` answer (db/unavailable.ts), never a 500. With a `key` (TransactionOptions) the body
 * runs at READ COMMITTED behind the key's advisory lock instead.
 */
async function postgresTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T> | T, key?: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      // On a connection of its own, given back however the transaction ends (onPooledConnection).
      return await onPooledConnection(db, (connection) =>
        connection.transaction(
          async (tx) => {
            // A keyed transaction waits here for the one before it on the same key (TransactionOptions).
            if (key !== undefined) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
            return context.run({ tx, depth: 0, held: 0 }, async () => fn(tx as unknown as Tx));
          },
          { isolationLevel: key === undefined ? "serializable" : "read committed" },
        ),
      );
    } catch (error) {
      if (attempt >= SERIALIZATION_ATTEMPTS || !lostConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(250, 5 * 2 ** attempt)));
    }
  }
}

/** A nested transaction: a savepoint of the outer one, rolled back alone when `fn` throws. */
async function nested<T>(ctx: Context, db: Db, fn: (tx: Tx) => Promise<T> | T): Promise<T> {
  const tx = (ctx.tx ?? db) as { execute?: (q: string) => Promise<unknown>; run?: (q: unknown) => unknown };
  const name = `sp${ctx.depth + 1}`;
  const exec = async (statement: string) => {
    const client = ctx.lock && sqliteClientOfLock(ctx);
    if (client) client.exec(statement);
    else await (tx.execute as (q: string) => Promise<unknown>)(statement);
  };
  await exec(`SAVEPOINT ${name}`);
  try {
    const result = await context.run({ ...ctx, depth: ctx.depth + 1 }, () => fn(ctx.tx as Tx));
    await exec(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await exec(`ROLLBACK TO SAVEPOINT ${name}`);
    throw error;
  }
}

function sqliteClientOfLock(ctx: Context) {
  return ctx.lock ? lockClients.get(ctx.lock) : undefined;
}

/**
 * Whether a transaction of another chain holds `db`'s SQLite connection: synchronous writers that
 * bypass the gate (the audit batch, timers) must wait rather than write into it.
 */
export function connectionBusy(db: Db): boolean {
  const client = sqliteClient(db);
  if (!client) return false;
  const lock = locks.get(client);
  return !!lock && lock.owner !== null && context.getStore()?.lock !== lock;
}

/** Whether the calling code runs inside a transaction (the audit log writes at once there). */
export function inTransaction(): boolean {
  return context.getStore()?.tx !== undefined;
}

/** One statement of a `stepTransaction` body (made by `rows` or `write`). */
export interface Step {
  kind: "rows" | "write";
  query: unknown;
}

/** A step that reads: `const found = yield* rows(tx.select()…)` gives every row the query returns. */
export function* rows<T>(query: { all(): T[] }): Generator<Step, T[], unknown> {
  return (yield { kind: "rows", query }) as T[];
}

/** A step that writes: `yield* write(tx.insert(…).values(…))`. */
export function* write(query: { run(): unknown }): Generator<Step, void, unknown> {
  yield { kind: "write", query };
}

/**
 * Run `body` as one transaction whose statements are its `yield* rows(…)` / `yield* write(…)` steps.
 * On SQLite all of it runs synchronously inside better-sqlite3's transaction before this returns (no
 * other code can run in between, and an exit handler can complete it); on Postgres the steps are
 * awaited one by one inside `withTransaction` (a promise). A throw inside rolls back on both.
 */
export function stepTransaction<T>(db: Db, body: (tx: Tx) => Generator<Step, T, unknown>): T | Promise<T> {
  if (isSqliteHandle(db)) {
    return (db as SqliteDb).transaction((tx) => {
      const steps = body(tx as unknown as Tx);
      let next = steps.next();
      while (!next.done) {
        const { kind, query } = next.value;
        next = steps.next(kind === "rows" ? (query as { all(): unknown[] }).all() : (query as { run(): unknown }).run());
      }
      return next.value;
    });
  }
  return withTransaction(db, async (tx) => {
    const steps = body(tx);
    let next = steps.next();
    while (!next.done) {
      let result: unknown;
      try {
        result = await (next.value.query as PromiseLike<unknown>);
      } catch (error) {
        next = steps.throw(error);
        continue;
      }
      next = steps.next(result);
    }
    return next.value;
  });
}
