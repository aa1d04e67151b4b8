/**
 * Which database the integration tests run on, and a fresh Postgres database per test file when it is
 * Postgres (`SWITCHBOARD_TEST_DB=postgres`; tests/helpers/postgres-suite.ts starts the cluster, the
 * setup file tests/helpers/test-database-setup.ts gives each test file one, `useTempDataDir` each call).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { inject } from "vitest";
import { postgresBinDir } from "./postgres";
import { TEMPLATE_DATABASE } from "./postgres-suite";

let created = 0;

/**
 * A new database copied from the migrated template, or null on a SQLite run. Synchronous (createdb)
 * so that the data directory helpers stay synchronous for the files that call them at the top.
 */
export function newTestDatabase(): string | null {
  const cluster = inject("testPostgres");
  if (!cluster) return null;
  created += 1;
  const name = `t_${process.pid}_${created}_${Math.random().toString(36).slice(2, 8)}`;
  execFileSync(
    path.join(postgresBinDir(), "createdb"),
    ["-h", "127.0.0.1", "-p", String(cluster.port), "-U", "postgres", "-T", TEMPLATE_DATABASE, name],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  return `${cluster.base}/${name}`;
}
