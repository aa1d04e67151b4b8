/**
 * `switchboard db copy|migrate|check`: moving an instance from SQLite to Postgres, and migrating or
 * checking the database the settings name (db/ops). A failure is one line and exit code 2.
 */
import { DatabaseOpsError } from "../../db/ops/errors";
import { copySqliteToPostgres } from "../../db/ops/copy";
import { existingInstanceKey } from "../../db/ops/instance-key";
import { isPostgresUrl } from "../../db/ops/postgres-target";
import { checkDatabase, configuredDatabase, describeDatabase, migrateDatabase } from "../../db/ops/status";
import { UsageError } from "./args";

type Output = { out: (text: string) => void; err: (text: string) => void };

/** The `db` commands' part of the usage text. */
export const DB_USAGE = `  db copy --from <sqlite file> --to <postgres url> [--force]
                                             move an instance into Postgres (migrated, copied in one
                                             transaction, verified); --force empties a non-empty target
  db migrate                                 apply migrations to DATABASE_URL (or the data dir's SQLite)
  db check                                   reachable, migrated to the latest, instance key matches`;

/** Run `db <sub-command>`; returns the exit code. A DatabaseOpsError becomes a UsageError-style line. */
export async function dbCommand(rest: string[], flags: Record<string, string>, io: Output, projectRoot: string): Promise<number> {
  try {
    switch (rest[0]) {
      case "copy":
        return await copy(flags, io, projectRoot);
      case "migrate": {
        const target = configuredDatabase();
        const report = await migrateDatabase(target, projectRoot);
        io.out(`${describeDatabase(target)}: applied ${report.applied} migration(s); ${report.total} of ${report.total} applied`);
        return 0;
      }
      case "check": {
        const target = configuredDatabase();
        const report = await checkDatabase(target, () => existingInstanceKey().key, projectRoot);
        const key = report.recordedKeyId
          ? `key ${report.keyId} matches`
          : `key ${report.keyId} (not recorded yet: the app records it at its first start)`;
        io.out(
          `${describeDatabase(target)}: reachable, ${report.migrations.total} of ${report.migrations.total} migrations applied, ${key}`,
        );
        return 0;
      }
      default:
        throw new UsageError(`db needs copy, migrate or check\n${DB_USAGE}`);
    }
  } catch (error) {
    if (error instanceof DatabaseOpsError) throw new UsageError(error.message);
    throw error;
  }
}

async function copy(flags: Record<string, string>, io: Output, projectRoot: string): Promise<number> {
  const from = flags.from;
  const to = flags.to;
  if (!from || from === "true") throw new UsageError("db copy needs --from <sqlite file>");
  if (!to || to === "true") throw new UsageError("db copy needs --to <postgres url>");
  if (!isPostgresUrl(to)) throw new UsageError("--to must be a postgres:// or postgresql:// URL");
  const { key, source } = existingInstanceKey();
  io.err(`instance key ${key.id} (from ${source})`);
  const report = await copySqliteToPostgres({ from, to, key, projectRoot, force: flags.force === "true" });
  for (const table of report.tables) io.out(`${table.name}  ${table.rows}`);
  io.out(
    `copied ${report.rows} rows in ${report.tables.length} tables to Postgres ${report.target} in ${report.ms} ms; ` +
      `row counts equal, ${report.secretsChecked} sampled secrets decrypt with key ${key.id}`,
  );
  return 0;
}
