import { defineConfig } from "vitest/config";
import { APP_V8_FLAGS } from "./scripts/v8-flags.mjs";
import { SQLITE_ONLY_FILES, testDatabaseKind } from "./tests/helpers/test-database-kind.mjs";

// Two projects: fast unit tests, and integration tests against real servers, a real SQLite file
// and real child processes (run one file at a time: they spawn processes and bind ports).
export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // A Postgres run leaves out the files that test SQLite itself (tests/helpers/test-database-kind.mjs).
          exclude: testDatabaseKind() === "postgres" ? SQLITE_ONLY_FILES : [],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // SWITCHBOARD_TEST_DB=postgres: one throw-away cluster per run, a migrated database per file
          // (tests/helpers/postgres-suite.ts, test-database-setup.ts); otherwise both do nothing.
          globalSetup: ["tests/helpers/postgres-suite.ts"],
          setupFiles: ["tests/helpers/test-database-setup.ts"],
          // The app's young generation (scripts/v8-flags.mjs): memory bounds measured here mean
          // what they mean for the running app, whatever default the Node release picks.
          execArgv: APP_V8_FLAGS,
        },
      },
    ],
  },
});
