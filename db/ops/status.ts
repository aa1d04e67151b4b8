/**
 * `switchboard db migrate` and `db check` on the database the settings name: `DATABASE_URL` (Postgres),
 * or the SQLite file in the data directory when it is unset. Each failure is one DatabaseOpsError line.
 */
import path from "node:path";
import type { SecretKey } from "../../lib/crypto";
import { databaseUrlSetting, dataDir } from "../../lib/env";
import { openDatabase } from "../client";
import { KEY_ID } from "../key-check";
import { migratePostgres } from "../migrate-postgres";
import { DatabaseOpsError } from "./errors";
import { assertSameKey } from "./instance-key";
import { describePending, migrationsFolder, migrationStatus, type MigrationStatus } from "./migration-status";
import { connectPostgres, describeAddress, isPostgresUrl, postgresAddress, postgresKeyId, postgresLastMigration } from "./postgres-target";
import { openSqliteReadOnly, sqliteKeyId, sqliteLastMigration } from "./sqlite-source";

/** The database a command works on. */
export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "sqlite"; file: string };

/** The database the settings name: `DATABASE_URL` when set (Postgres only), else `<data dir>/switchboard.db`. */
export function configuredDatabase(): DatabaseTarget {
  const url = databaseUrlSetting();
  if (url === undefined) return { kind: "sqlite", file: path.join(dataDir(), "switchboard.db") };
  if (!isPostgresUrl(url)) {
    throw new DatabaseOpsError(
      "DATABASE_URL must start with postgres:// or postgresql:// (unset it for the SQLite file in the data directory)",
    );
  }
  return { kind: "postgres", url };
}

/** How reports name a database (never with its password). */
export function describeDatabase(target: DatabaseTarget): string {
  return target.kind === "postgres" ? `Postgres ${describeAddress(postgresAddress(target.url))}` : `SQLite ${target.file}`;
}

/** Migrations applied by `migrateDatabase`, out of the folder's total. */
export interface MigrateReport {
  applied: number;
  total: number;
}

/** Apply the pending migrations (Postgres under its advisory lock; SQLite as the app does at start, creating the file). */
export async function migrateDatabase(target: DatabaseTarget, projectRoot: string): Promise<MigrateReport> {
  if (target.kind === "postgres") {
    const folder = migrationsFolder(projectRoot, "postgres");
    const pool = await connectPostgres(target.url);
    try {
      const before = migrationStatus(folder, await postgresLastMigration(pool));
      await migratePostgres(pool, folder);
      return { applied: before.pending, total: before.total };
    } finally {
      await pool.end();
    }
  }
  const folder = migrationsFolder(projectRoot, "sqlite");
  let before: MigrationStatus = migrationStatus(folder, null);
  try {
    const existing = openSqliteReadOnly(target.file, []);
    try {
      before = migrationStatus(folder, sqliteLastMigration(existing));
    } finally {
      existing.close();
    }
  } catch (error) {
    // A missing file is created below; anything else (not SQLite) is the answer.
    if (!(error instanceof DatabaseOpsError) || !error.message.startsWith("no SQLite database")) throw error;
  }
  try {
    openDatabase(target.file, folder).sqlite.close();
  } catch (error) {
    throw new DatabaseOpsError(`migrating ${target.file} failed: ${(error as Error).message.split("\n")[0]}`);
  }
  return { applied: before.pending, total: before.total };
}

/** What `checkDatabase` found when everything is in order. */
export interface CheckReport {
  migrations: MigrationStatus;
  /** The fingerprint the database records; null when the app has not started on it yet. */
  recordedKeyId: string | null;
  /** The fingerprint of the instance key the settings give. */
  keyId: string;
}

/** Reachable, migrated to the latest, and (when recorded) encrypted under `key`; the first failure throws. */
export async function checkDatabase(target: DatabaseTarget, loadKey: () => SecretKey, projectRoot: string): Promise<CheckReport> {
  const name = describeDatabase(target);
  let migrations: MigrationStatus;
  let recordedKeyId: string | null;
  if (target.kind === "postgres") {
    const pool = await connectPostgres(target.url);
    try {
      migrations = migrationStatus(migrationsFolder(projectRoot, "postgres"), await postgresLastMigration(pool));
      recordedKeyId = migrations.pending ? null : await postgresKeyId(pool, KEY_ID);
    } finally {
      await pool.end();
    }
  } else {
    const sqlite = openSqliteReadOnly(target.file, []);
    try {
      migrations = migrationStatus(migrationsFolder(projectRoot, "sqlite"), sqliteLastMigration(sqlite));
      recordedKeyId = sqliteKeyId(sqlite, KEY_ID);
    } finally {
      sqlite.close();
    }
  }
  if (migrations.pending) throw new DatabaseOpsError(`${name}: ${describePending(migrations)}: run switchboard db migrate`);
  const key = loadKey();
  assertSameKey(recordedKeyId, key, name);
  return { migrations, recordedKeyId, keyId: key.id };
}
