/**
 * Which database an integration run is on (`SWITCHBOARD_TEST_DB`, docs/testing.md#the-suite-on-postgres),
 * and the tests that belong to the SQLite run only: they test SQLite itself (a file they open with
 * `openDatabase`, its pragmas, its synchronous batch writers, the copy whose source is a SQLite file).
 * On a Postgres run the query functions use the Postgres tables (db/schema.ts), which a SQLite handle
 * cannot run, so those tests are left out there instead of failing; the Postgres side of each has
 * its own tests (db-copy's target, postgres-runtime, the Postgres halves of the mixed files).
 * Imported by vitest.config.mts (plain JavaScript, as its other imports): no imports of the app here.
 */

/**
 * `SWITCHBOARD_TEST_DB`: `postgres` runs the integration suite on Postgres; unset or `sqlite`, on SQLite files.
 * @returns {"sqlite" | "postgres"}
 */
export function testDatabaseKind() {
  const kind = (process.env.SWITCHBOARD_TEST_DB ?? "sqlite").trim().toLowerCase();
  if (kind !== "sqlite" && kind !== "postgres") throw new Error(`SWITCHBOARD_TEST_DB must be sqlite or postgres (got ${kind})`);
  return kind;
}

/** Whole files of the SQLite run only (excluded from a Postgres run by vitest.config.mts). */
export const SQLITE_ONLY_FILES = [
  // The synchronous SQLite batch, written at exit by a child process on a SQLite file of its own.
  "tests/integration/db/audit-batch.test.ts",
  // The SQLite key check through getDb (the Postgres one: tests/integration/db/postgres-runtime.test.ts).
  "tests/integration/db/secret-key.test.ts",
  // Rebuilds a SQLite file; and the copy from a SQLite instance (built through db/queries) to Postgres.
  "tests/integration/db-sqlite-rebuild.test.ts",
  "tests/integration/db-copy.test.ts",
];

/** True on a SQLite run: the SQLite-only cases of files that run on both use `it.runIf(onSqliteRun)`. */
export const onSqliteRun = testDatabaseKind() === "sqlite";
