/**
 * The integration suite on Postgres (`SWITCHBOARD_TEST_DB=postgres`, docs/testing.md): vitest's global
 * setup starts one throw-away cluster for the run and migrates a template database once; every test
 * file then gets its own database copied from the template (tests/helpers/test-database.ts). Without
 * the switch this does nothing and the suite runs on SQLite files as always.
 */
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migratePostgres } from "../../db/migrate-postgres";
import { startPostgres } from "./postgres";
import { testDatabaseKind } from "./test-database-kind.mjs";

/** The run's cluster, as the global setup provides it. */
export interface TestCluster {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>` (no database). */
  base: string;
}

/** The migrated database every test database is copied from. */
export const TEMPLATE_DATABASE = "switchboard_template";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's cluster when the suite runs on Postgres, else null. */
    testPostgres: TestCluster | null;
  }
}

/** Start the cluster and the migrated template (Postgres runs only); returns the teardown. */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (testDatabaseKind() !== "postgres") {
    project.provide("testPostgres", null);
    return undefined;
  }
  const cluster = await startPostgres();
  const template = await cluster.createDatabase(TEMPLATE_DATABASE);
  const pool = new pg.Pool({ connectionString: template, max: 1 });
  try {
    await migratePostgres(pool);
  } finally {
    // CREATE DATABASE … TEMPLATE refuses a template with open connections.
    await pool.end();
  }
  console.log(`integration tests on Postgres: cluster on 127.0.0.1:${cluster.port} (started in ${cluster.startMs} ms)`);
  project.provide("testPostgres", { port: cluster.port, base: cluster.url.replace(/\/postgres$/, "") });
  return () => cluster.stop();
}
