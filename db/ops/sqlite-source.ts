/**
 * A SQLite database file opened read-only for the database commands: it must exist, be SQLite and
 * hold Switchboard's tables; each failure is one DatabaseOpsError line.
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import { DatabaseOpsError } from "./errors";

/** Open `file` read-only (never created, never migrated) and check it holds the `required` tables. */
export function openSqliteReadOnly(file: string, required: string[]): Database.Database {
  if (!fs.existsSync(file)) throw new DatabaseOpsError(`no SQLite database at ${file}`);
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
    sqlite.pragma("busy_timeout = 5000");
    const present = new Set(
      (sqlite.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name),
    );
    const missing = required.filter((name) => !present.has(name));
    if (missing.length) throw new DatabaseOpsError(`${file} is not a Switchboard database (no ${missing.slice(0, 3).join(", ")} table)`);
    return sqlite;
  } catch (error) {
    sqlite?.close();
    if (error instanceof DatabaseOpsError) throw error;
    const code = (error as { code?: string }).code;
    if (code === "SQLITE_NOTADB") throw new DatabaseOpsError(`${file} is not a SQLite database`);
    throw new DatabaseOpsError(`cannot open ${file}: ${(error as Error).message.split("\n")[0]}`);
  }
}

/** The newest migration time drizzle recorded in this SQLite database, or null when it has none. */
export function sqliteLastMigration(sqlite: Database.Database): number | null {
  const table = sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'").get();
  if (!table) return null;
  const row = sqlite.prepare("select max(created_at) as createdAt from __drizzle_migrations").get() as { createdAt: number | null };
  return row.createdAt === null ? null : Number(row.createdAt);
}

/** The key fingerprint this SQLite database records, or null (none yet, or no table). */
export function sqliteKeyId(sqlite: Database.Database, keyRow: string): string | null {
  const table = sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = 'instance_meta'").get();
  if (!table) return null;
  const row = sqlite.prepare("select value from instance_meta where key = ?").get(keyRow) as { value: string } | undefined;
  return row?.value ?? null;
}
