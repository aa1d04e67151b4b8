/**
 * The SQLite database: opened lazily (so `next build` never touches it), with WAL, foreign keys
 * and a busy timeout; migrations from `drizzle/sqlite/` are applied on first open.
 */
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import fs from "node:fs";
import path from "node:path";
import * as schema from "./schema";
import { dataDir } from "../lib/env";
import { clearSingleton, singleton } from "../lib/singleton";
import { checkInstanceKey } from "./key-check";

/** The typed drizzle handle used by every query module. */
export type Db = BetterSQLite3Database<typeof schema>;

interface OpenDb {
  db: Db;
  sqlite: Database.Database;
  file: string;
}

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
function migrateWithoutForeignKeys(sqlite: Database.Database, db: Db, migrationsFolder: string): void {
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

/** The process-wide database under the data directory, opened and key-checked on first use. */
export function getDb(): Db {
  return singleton(DB_SLOT, () => {
    const opened = openDatabase(path.join(dataDir(), "switchboard.db"));
    checkInstanceKey(opened.db);
    return opened;
  }).db;
}

// Work a query module holds back and must finish before the database closes (the audit log's
// waiting entries), by name so each module registers once however many copies the bundles hold.
const beforeClose = () => singleton("db.beforeClose", () => new Map<string, (db: Db) => void>());

/** Run `hook` with the process-wide database just before it closes. */
export function onBeforeClose(name: string, hook: (db: Db) => void): void {
  beforeClose().set(name, hook);
}

/** Close the process-wide database (tests, shutdown), after the work held back for it. */
export function closeDb(): void {
  const opened = clearSingleton<OpenDb>(DB_SLOT);
  if (!opened) return;
  for (const hook of beforeClose().values()) hook(opened.db);
  opened.sqlite.close();
}
