/**
 * Postgres migrations: apply `drizzle/postgres/` under a session advisory lock, so that processes
 * starting at once (replicas, a rolling deploy) migrate once and the rest find the work done.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import path from "node:path";
import type { Pool } from "pg";

/** Where drizzle-kit writes the Postgres migrations (drizzle.postgres.config.ts); resolved from the project root. */
export const POSTGRES_MIGRATIONS_DIR = path.join(process.cwd(), "drizzle", "postgres");

/**
 * The advisory lock key every Switchboard process migrates under: one bigint for the whole database
 * ("SWBD" in ASCII), constant forever so old and new releases exclude each other.
 */
export const MIGRATION_LOCK_KEY = 0x53574244;

/**
 * Apply the pending migrations of `folder` to the database of `pool`, one process at a time. The lock,
 * the migrator and the unlock share one connection (a session lock belongs to its connection); a
 * connection that failed midway is discarded, which also drops the lock.
 */
export async function migratePostgres(pool: Pool, folder: string = POSTGRES_MIGRATIONS_DIR): Promise<void> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    // Neither waiting for another process's migration nor a long migration is cut short by the
    // app's statement timeout (SWITCHBOARD_DB_STATEMENT_TIMEOUT_MS); RESET gives the pooled
    // connection its configured timeout back.
    await client.query("set statement_timeout = 0");
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migrate(drizzle(client), { migrationsFolder: folder });
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    await client.query("reset statement_timeout");
  } catch (error) {
    failure = error as Error;
    throw error;
  } finally {
    client.release(failure);
  }
}
