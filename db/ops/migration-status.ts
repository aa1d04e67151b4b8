/**
 * How far a database is migrated, read the way drizzle's migrator decides what to apply: every
 * migration of the folder whose journal time is after the newest one the database recorded.
 */
import { readMigrationFiles } from "drizzle-orm/migrator";
import path from "node:path";

/** Where a dialect's migrations live under the Switchboard install (the command line may run elsewhere). */
export function migrationsFolder(projectRoot: string, dialect: "sqlite" | "postgres"): string {
  return path.join(projectRoot, "drizzle", dialect);
}

/** The migrations of a folder against what a database recorded. */
export interface MigrationStatus {
  total: number;
  pending: number;
}

/** Compare `folder` with the newest `created_at` a database recorded (null: nothing applied, or no bookkeeping table). */
export function migrationStatus(folder: string, lastAppliedAt: number | null): MigrationStatus {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  const pending = migrations.filter((m) => lastAppliedAt === null || m.folderMillis > lastAppliedAt).length;
  return { total: migrations.length, pending };
}

/** "3 migrations pending" style wording for the one-line reports. */
export function describePending(status: MigrationStatus): string {
  return `${status.pending} of ${status.total} migration${status.total === 1 ? "" : "s"} not applied`;
}
