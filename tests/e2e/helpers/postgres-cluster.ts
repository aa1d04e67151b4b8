/**
 * The browser suite's Postgres (E2E_DB=postgres, playwright.config.ts): a throw-away cluster on the
 * port in PORT, run as one of Playwright's web servers so that it is up before the app starts and
 * stopped (SIGTERM) after the last spec. The cluster itself is tests/helpers/postgres.ts.
 */
import { startPostgres } from "../../helpers/postgres";

async function main(): Promise<void> {
  const cluster = await startPostgres({ port: Number(process.env.PORT) });
  console.log(`postgres for the browser suite on ${cluster.url}, started in ${cluster.startMs} ms`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void cluster.stop().finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // Stay up until told to stop: the cluster's own processes run detached (pg_ctl), so this process is
  // what Playwright tracks.
  setInterval(() => {}, 60_000);
}

main().catch((error) => {
  console.error(`the browser suite's Postgres did not start: ${(error as Error).message}`);
  process.exit(1);
});
