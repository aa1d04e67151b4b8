/**
 * Running a drizzle query builder on either database (issue 26): `one` (first row), `all` (the rows)
 * and `exec` (a write; how many rows it changed), and a prepared look-up (`prepared`, `oneOf`). better-sqlite3 builders run synchronously through
 * `get`/`all`/`run`, node-postgres builders are promises and have none of those; query functions
 * `await` these helpers and so read the same on both (docs/architecture.md#transactions).
 *
 * On SQLite the helpers call the driver at once and hand back its value as is (no promise, no
 * extra statement); the only cost over calling the driver directly is the caller's `await`.
 * Written by tools/dialect-codemod.mjs from tools/dialect-codemod/exec.ts.tmpl.
 */

/** A value now (SQLite) or later (Postgres): callers await it either way. */
export type Awaitable<T> = T | PromiseLike<T>;

/** A query whose awaited value is its rows: a select, or a write with `.returning()`. */
export type RowsQuery<R> = PromiseLike<R[]>;

// better-sqlite3's builders (drizzle-orm/sqlite-core): synchronous, with these three methods.
interface SqliteBuilder {
  get(): unknown;
  all(): unknown[];
  run(): { changes: number };
}

const onSqlite = (query: unknown): query is SqliteBuilder => typeof (query as Partial<SqliteBuilder>).get === "function";

// A node-postgres select can be limited; a write with `.returning()` cannot (and returns its rows).
const limitable = (query: unknown): query is { limit(n: number): PromiseLike<unknown[]> } =>
  typeof (query as { limit?: unknown }).limit === "function";

/**
 * The first row of `query`, or undefined. SQLite reads one row (`get`); on Postgres a select is
 * limited to one row, so neither reads more than it returns.
 */
export function one<R>(query: RowsQuery<R>): Awaitable<R | undefined> {
  if (onSqlite(query)) return query.get() as R | undefined;
  const rows = limitable(query) ? (query.limit(1) as PromiseLike<R[]>) : query;
  return rows.then((list) => list[0]);
}

/** Every row of `query`. */
export function all<R>(query: RowsQuery<R>): Awaitable<R[]> {
  return onSqlite(query) ? (query.all() as R[]) : query;
}

/**
 * Run a write (insert, update, delete) and answer how many rows it changed: better-sqlite3's
 * `changes`, node-postgres' `rowCount` (the rows returned when the write has `.returning()`).
 */
export function exec(query: PromiseLike<unknown>): Awaitable<number> {
  if (onSqlite(query)) return query.run().changes;
  return query.then((result) => (Array.isArray(result) ? result.length : ((result as { rowCount?: number | null }).rowCount ?? 0)));
}

/**
 * Prepare `query` once to run it many times (a per-request look-up). Postgres names a server-side
 * prepared statement, so it takes `name` (unique per statement); SQLite's `prepare` takes none.
 */
export function prepared<P>(query: { prepare: (...args: never[]) => P }, name: string): P {
  return (query.prepare as unknown as (this: unknown, name: string) => P).call(query, name);
}

/** The first row of a prepared statement run with `values` for its placeholders, or undefined. */
export function oneOf<R>(
  statement: { execute(values?: Record<string, unknown>): PromiseLike<R[]> },
  values: Record<string, unknown>,
): Awaitable<R | undefined> {
  const sqlite = statement as unknown as { get?: (values: Record<string, unknown>) => R | undefined };
  if (typeof sqlite.get === "function") return sqlite.get(values);
  return statement.execute(values).then((rows) => rows[0]);
}
