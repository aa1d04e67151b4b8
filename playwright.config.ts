import { defineConfig } from "@playwright/test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// The app under test runs from the production build, on its own port with a throw-away data dir.
const PORT = Number(process.env.E2E_PORT ?? 3111);
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-e2e-"));
process.env.E2E_DATA_DIR = dataDir;
// The scripted OpenAI-compatible model the chat tests drive (tests/fixtures/llm/scripted-llm.mjs).
const LLM_PORT = Number(process.env.E2E_LLM_PORT ?? 3198);
// E2E_DB=postgres runs the app on a throw-away Postgres cluster on E2E_PG_PORT (started below as the
// first web server, tests/e2e/helpers/postgres-cluster.ts); otherwise on SQLite in the data dir.
// E2E_DATABASE_URL tells the specs which (tests/e2e/helpers/database.ts).
const PG_PORT = Number(process.env.E2E_PG_PORT ?? 3196);
const onPostgres = process.env.E2E_DB === "postgres";
if (onPostgres) process.env.E2E_DATABASE_URL = `postgres://postgres@127.0.0.1:${PG_PORT}/postgres`;
else delete process.env.E2E_DATABASE_URL;
// The servers run on the Node running Playwright (the project's Node 24 under npm), not whichever
// `node` the shell would find first.
const NODE = JSON.stringify(process.execPath);

export default defineConfig({
  testDir: "tests/e2e",
  // Each database's run keeps its traces apart: the two runs go side by side in `npm test`, and each
  // empties its own output dir when it starts.
  outputDir: onPostgres ? "test-results-postgres" : "test-results",
  fullyParallel: false,
  workers: 1,
  // On CI a failed test runs once more. One that then passes is reported as flaky by name (the list
  // reporter and scripts/test.mjs print it) rather than failing a 50-minute run on a 2-core machine
  // shared with the build; locally every failure stays a failure, so races get found and fixed.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  // foundation.spec.ts must register the instance's first user (the administrator), so it runs
  // before every other file, whatever their names sort as.
  // The cluster specs start their own replicas, which need Postgres: they run in the Postgres run only.
  projects: [
    { name: "foundation", testMatch: /foundation\.spec\.ts$/ },
    {
      name: "app",
      testIgnore: onPostgres ? /foundation\.spec\.ts$/ : [/foundation\.spec\.ts$/, /cluster[^/]*\.spec\.ts$/],
      dependencies: ["foundation"],
    },
  ],
  webServer: [
    ...(onPostgres
      ? [
          {
            command: `${NODE} ${JSON.stringify(path.resolve("node_modules/tsx/dist/cli.mjs"))} tests/e2e/helpers/postgres-cluster.ts`,
            port: PG_PORT,
            reuseExistingServer: false,
            timeout: 60_000,
            env: { PORT: String(PG_PORT) },
            // SIGTERM lets the script stop the cluster (pg_ctl runs it detached) and delete its files.
            gracefulShutdown: { signal: "SIGTERM" as const, timeout: 15_000 },
          },
        ]
      : []),
    {
      command: `${NODE} tests/fixtures/llm/scripted-llm.mjs`,
      url: `http://127.0.0.1:${LLM_PORT}/requests`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { PORT: String(LLM_PORT) },
    },
    {
      command: `${NODE} scripts/start.mjs`,
      url: `http://localhost:${PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 240_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        PORT: String(PORT),
        SWITCHBOARD_DATA_DIR: dataDir,
        ...(onPostgres ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
        // No NEXTAUTH_URL / SWITCHBOARD_PUBLIC_URL: the app follows the loopback address each request
        // uses, which hardening.spec.ts checks from 127.0.0.1.
        SWITCHBOARD_ALLOWED_HOSTS: "127.0.0.1,localhost",
        // The OAuth fixture AS (tests/e2e/oauth.spec.ts) is plain http on 127.0.0.1.
        SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH: "1",
        // Every browser test signs up from 127.0.0.1: more accounts than the default 30 per hour per address.
        SWITCHBOARD_REGISTRATIONS_PER_ADDRESS: "500",
        // The tests' API clients act as a proxy on 127.0.0.1 that names made-up client addresses in
        // X-Forwarded-For (hardening.spec.ts); any other peer (127.0.0.2 in edge.spec.ts) is a client.
        SWITCHBOARD_TRUSTED_PROXIES: "127.0.0.1,::1",
        SWITCHBOARD_LLM_PROVIDER: "openai-compatible",
        SWITCHBOARD_LLM_MODEL: "scripted",
        SWITCHBOARD_LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
      },
    },
  ],
});
