/**
 * The database: SQLite in the data directory (better-sqlite3, with WAL, foreign keys and a busy
 * timeout; migrations from `drizzle/sqlite/` applied on first open), or Postgres when `DATABASE_URL`
 * names it (a node-postgres pool; migrations from `drizzle/postgres/` applied under an advisory lock
 * before the first query). Opened lazily, so `next build` never touches it.
 */
import Database from "better-sqlite3";
import { is, sql } from "drizzle-orm";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePostgres, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import * as schema from "./schema-sqlite";
import * as postgresSchema from "./schema-postgres";
import { TABLES_DIALECT } from "./schema";
import { isPostgresUrl } from "./dialect";
import { databasePoolSettings, databaseUrlSetting, dataDir } from "../lib/env";
import { clearSingleton, peekSingleton, singleton } from "../lib/singleton";
import { onShutdown } from "../lib/shutdown";
import { checkInstanceKey, checkInstanceKeyPostgres } from "./key-check";
import { listenForChanges, type PostgresChanges, registerChanges } from "./changes-postgres";
import { migratePostgres } from "./migrate-postgres";
import { DatabaseOpsError } from "./ops/errors";
import { databaseFailure } from "./unavailable";
import { connectionCause, describeAddress, type PostgresAddress, postgresAddress } from "./ops/postgres-target";
import { postgresPoolConfig } from "./postgres-settings";

/** The SQLite handle (better-sqlite3). */
export type SqliteDb = BetterSQLite3Database<typeof schema>;
/** The Postgres handle (node-postgres pool). */
export type PostgresDb = NodePgDatabase<typeof postgresSchema>;

/** The query builders every query function uses; both handles hand them out under these names. */
type QueryBuilders = "select" | "selectDistinct" | "insert" | "update" | "delete" | "$count" | "with" | "$with";

/**
 * The handle every query function takes: the query builders both drivers share, typed as SQLite's
 * (the tables of db/schema.ts are, too). On Postgres the object is a `PostgresDb` over the same
 * tables' twins: the same builder calls, run by `await`. Transactions go through db/transaction.ts.
 */
export type Db = Pick<SqliteDb, QueryBuilders>;

interface OpenDb {
  db: SqliteDb;
  sqlite: Database.Database;
  file: string;
}

/** The Postgres database of this process: its pool, and the start-up work before the first query. */
interface OpenPostgres {
  kind: "postgres";
  db: PostgresDb;
  pool: pg.Pool;
  /** Where it is, for messages (never the user or password). */
  address: PostgresAddress;
  /** Migrated and key-checked; until then the first query waits for `starting`. */
  ready: boolean;
  starting: Promise<void> | null;
  changes: PostgresChanges;
}

type Opened = ({ kind: "sqlite" } & OpenDb) | OpenPostgres;

const DB_SLOT = "db";

/** Where drizzle-kit writes migrations; resolved from the project root. */
export const MIGRATIONS_DIR = path.join(process.cwd(), "drizzle", "sqlite");

/**
 * Open (and migrate) a database file. Tests call this with their own temp file; the command line
 * passes the migrations of its install, since it may run from any directory.
 */
export function openDatabase(file: string, migrationsFolder: string = MIGRATIONS_DIR): OpenDb {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  // WAL with NORMAL: a commit is not fsynced on its own (checkpoints are), so a write costs
  // microseconds instead of a disk flush. A crash of the app loses nothing; a power cut can lose the
  // last commits, never consistency (docs/decisions.md). Every audited tool call writes a row.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("busy_timeout = 5000");
  const db = drizzle(sqlite, { schema });
  migrateWithoutForeignKeys(sqlite, db, migrationsFolder);
  sqlite.pragma("foreign_keys = ON");
  return { db, sqlite, file };
}

const appliedCount = (sqlite: Database.Database) =>
  sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'").get()
    ? (sqlite.prepare("select count(*) as n from __drizzle_migrations").get() as { n: number }).n
    : 0;

/**
 * Apply the pending migrations with foreign keys off. A migration that rebuilds a parent table (0006)
 * drops it, which with them on would delete every child row by cascade; the pragma must be set here,
 * since SQLite ignores it inside the migrator's transaction. After any migration, every reference is
 * checked (`PRAGMA foreign_key_check`), so a rebuild cannot leave a dangling one behind.
 */
function migrateWithoutForeignKeys(sqlite: Database.Database, db: SqliteDb, migrationsFolder: string): void {
  sqlite.pragma("foreign_keys = OFF");
  const before = appliedCount(sqlite);
  migrate(db, { migrationsFolder });
  if (appliedCount(sqlite) === before) return;
  const dangling = sqlite.pragma("foreign_key_check") as { table: string; parent: string }[];
  if (dangling.length) {
    const first = dangling[0];
    throw new Error(`after migrating, ${dangling.length} row(s) reference missing rows (first: ${first.table} → ${first.parent})`);
  }
}

/**
 * The process-wide database, opened on first use: SQLite under the data directory (migrated and
 * key-checked here), or Postgres when `DATABASE_URL` names it (migrated and key-checked before its
 * first query, see `databaseReady`).
 */
export function getDb(): Db {
  return singleton<Opened>(DB_SLOT, () => {
    const url = databaseUrlSetting();
    if (url !== undefined) {
      if (!isPostgresUrl(url)) {
        throw new DatabaseOpsError(
          "DATABASE_URL must start with postgres:// or postgresql:// (unset it for the SQLite file in the data directory)",
        );
      }
      return openPostgres(url);
    }
    if (TABLES_DIALECT !== "sqlite") throw new DatabaseOpsError("DATABASE_URL was unset after start: restart the process");
    const opened = openDatabase(path.join(dataDir(), "switchboard.db"));
    checkInstanceKey(opened.db);
    return { kind: "sqlite", ...opened };
  }).db as unknown as Db;
}

// The open Postgres databases by handle, so the transaction port can hold a query until start-up is done.
const postgresByHandle = new WeakMap<object, OpenPostgres>();

/**
 * A pool on `url` with the settings of docs/configuration.md; nothing is sent until the first query,
 * which waits for the migrations and the key check (`databaseReady`).
 */
function openPostgres(url: string): OpenPostgres {
  // The tables were chosen at the first import of db/schema.ts: a process runs on one database.
  if (TABLES_DIALECT !== "postgres") throw new DatabaseOpsError("DATABASE_URL was set after start: restart the process");
  const config = postgresPoolConfig(url, databasePoolSettings());
  const pool = new pg.Pool(config);
  // A pooled connection the server closes while idle is dropped by the pool; the error must not
  // crash the process (a query on a lost connection fails on its own and the next one reconnects).
  pool.on("error", () => {});
  // The pool listens for a connection's errors only while it is idle. A connection lost while checked
  // out (a query or transaction under way when Postgres restarts) would emit an error nobody hears,
  // which ends the process; the query under way fails on its own (a 503 at the HTTP boundary) and the
  // pool drops the broken connection when it is released.
  pool.on("connect", (connection) => connection.on("error", () => {}));
  // `satisfies`: the Postgres handle hands out every builder `Db` names (a compile error says which not).
  const db = drizzlePostgres(pool, { schema: postgresSchema }) satisfies Record<QueryBuilders, unknown>;
  const { max: _max, allowExitOnIdle: _exit, ...clientConfig } = config;
  const changes = listenForChanges(clientConfig);
  registerChanges(pool, changes);
  const opened: OpenPostgres = { kind: "postgres", db, pool, address: postgresAddress(url), ready: false, starting: null, changes };
  postgresByHandle.set(db, opened);
  // A signal's shutdown (lib/shutdown.ts) writes what waits (the audit batch) and ends the pool.
  onShutdown("database", closeDb);
  return opened;
}

// A query handle per pooled connection, made once per connection (the pool reuses them).
const handleOfConnection = new WeakMap<pg.PoolClient, PostgresDb>();

/**
 * Run `fn` on one connection of `db`'s pool, with a query handle bound to that connection (a
 * transaction started on it stays on it), and give the connection back however `fn` ends; a
 * connection the database dropped is given back as broken, so the pool closes it. drizzle's own
 * transaction on the pool gives its connection back only once its BEGIN succeeded: a BEGIN that
 * failed while Postgres restarted kept the connection forever, and after as many failures as the
 * pool holds every query waited for good, even once the database was back.
 */
export async function onPooledConnection<T>(db: Db, fn: (connection: PostgresDb) => Promise<T>): Promise<T> {
  const opened = postgresByHandle.get(db as unknown as object);
  // Another handle (a test's own pool or connection): `fn` runs on it as it is.
  if (!opened) return fn(db as unknown as PostgresDb);
  const connection = await opened.pool.connect();
  let handle = handleOfConnection.get(connection);
  if (!handle) {
    handle = drizzlePostgres(connection, { schema: postgresSchema });
    handleOfConnection.set(connection, handle);
  }
  let broken: Error | undefined;
  try {
    return await fn(handle);
  } catch (error) {
    if (databaseFailure(error) === "unavailable") broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    connection.release(broken);
  }
}

/** Reach, migrate and key-check a Postgres database; each failure is one line naming the cause. */
async function startPostgres(opened: OpenPostgres): Promise<void> {
  try {
    await opened.pool.query("select 1");
  } catch (error) {
    const { host, port, database } = opened.address;
    throw new DatabaseOpsError(`cannot reach Postgres at ${host}:${port} (database ${database}): ${connectionCause(error)}`);
  }
  try {
    await migratePostgres(opened.pool);
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    throw new DatabaseOpsError(`migrating Postgres ${describeAddress(opened.address)} failed: ${first}`);
  }
  await checkInstanceKeyPostgres(opened.db);
}

/**
 * Null when `db` can take queries now; else the start-up still to finish (Postgres: reachable,
 * migrated, key checked). A failed start-up is tried again by the next query (the database may be
 * back by then).
 */
export function pendingStart(db: unknown): Promise<void> | null {
  const opened = postgresByHandle.get(db as object);
  if (!opened || opened.ready) return null;
  opened.starting ??= startPostgres(opened).then(
    () => {
      opened.ready = true;
    },
    (error: unknown) => {
      opened.starting = null;
      throw error;
    },
  );
  return opened.starting;
}

/**
 * Open the process-wide database and finish its start-up (SQLite: at once; Postgres: reachable,
 * migrated under the advisory lock, key checked). The start (scripts/preflight.ts) awaits it, so
 * an unreachable Postgres stops it with one line naming host, port and cause.
 */
export async function databaseReady(): Promise<void> {
  await pendingStart(getDb());
}

/** How the start-up names the database: the SQLite file, or Postgres `host:port/database`. */
export function describeOpenDatabase(): string {
  getDb();
  const opened = peekOpened();
  return opened?.kind === "postgres" ? `Postgres ${describeAddress(opened.address)}` : `SQLite ${opened?.file ?? ""}`;
}

function peekOpened(): Opened | undefined {
  return peekSingleton<Opened>(DB_SLOT);
}

/** Whether `db` is a SQLite handle (the root or a transaction's): its statements run synchronously. */
export function isSqliteHandle(db: unknown): boolean {
  return is(db, BaseSQLiteDatabase);
}

/**
 * The better-sqlite3 connection under `db`, for what instruments statements from outside the data
 * layer (lib/runtime/telemetry.ts: a span per statement) and the usage batch's own prepared
 * statements (db/queries/usage-sqlite-batch.ts); null on Postgres, whose statements get no span of
 * their own yet (docs/telemetry.md).
 */
export function sqliteConnectionOf(db: Db): Database.Database | null {
  if (!isSqliteHandle(db)) return null;
  // drizzle keeps the driver's connection as `$client` on the root handle (its type leaves it out of
  // `Db`); a transaction's handle has only its session's, the same connection.
  const handle = db as unknown as { $client?: Database.Database; session?: { client?: Database.Database } };
  return handle.$client ?? handle.session?.client ?? null;
}

/** The connection pool behind a Postgres handle (telemetry wraps its statements), or null on SQLite. */
export function postgresPoolOf(db: Db): pg.Pool | null {
  return postgresByHandle.get(db as unknown as object)?.pool ?? null;
}

/** One round trip to the database (the health check); throws when it cannot be reached or opened. */
export async function pingDb(db: Db): Promise<void> {
  if (isSqliteHandle(db)) {
    (db as unknown as SqliteDb).get(sql`select 1`);
    return;
  }
  await pendingStart(db);
  await (db as unknown as PostgresDb).execute(sql`select 1`);
}

// Work a query module holds back and must finish before the database closes (the audit log's
// waiting entries), by name so each module registers once however many copies the bundles hold.
const beforeClose = () => singleton("db.beforeClose", () => new Map<string, (db: Db) => void | Promise<void>>());

/** Run `hook` with the process-wide database just before it closes (awaited on Postgres). */
export function onBeforeClose(name: string, hook: (db: Db) => void | Promise<void>): void {
  beforeClose().set(name, hook);
}

/**
 * Close the process-wide database (tests, shutdown), after the work held back for it. SQLite closes
 * before this returns; Postgres when the promise resolves (its pool and change listener ended).
 */
export function closeDb(): Promise<void> {
  const opened = clearSingleton<Opened>(DB_SLOT);
  if (!opened) return Promise.resolve();
  if (opened.kind === "sqlite") {
    for (const hook of beforeClose().values()) void hook(opened.db as unknown as Db);
    opened.sqlite.close();
    return Promise.resolve();
  }
  return (async () => {
    for (const hook of beforeClose().values()) await hook(opened.db as unknown as Db);
    await opened.changes.close();
    await opened.pool.end();
  })();
}
