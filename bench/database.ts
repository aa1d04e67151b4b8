/**
 * `npm run bench -- --db postgres` (issue 26): the API tool call with the app on SQLite and with a
 * second app on Postgres (a throw-away cluster on loopback, as the tests start it), the same client,
 * the same MCP server, in one run. The sides are interleaved: the sequential calls of one, then of
 * the other, then the throughput rounds alternately. The goal: the Postgres p50 within 1.1× of
 * SQLite's. Each app's CPU is read from its own process tree.
 */
import type { BenchDb } from "./args";
import { sequential, throughput, type GoalRow } from "./goals";
import { type App, apiEcho, createServer, signIn, startApp, stopChild, treeCpuMs } from "./harness";
import { startPostgres, type TestPostgres } from "../tests/helpers/postgres";

/**
 * The app on `db`: SQLite in its data dir, or Postgres on a throw-away cluster (`stop` then ends the
 * app and the cluster, in that order). `startApp`'s other arguments pass through.
 */
export async function startAppOn(
  db: BenchDb,
  env: Record<string, string>,
  cpuProfileDir?: string,
  nodeFlags: string[] = [],
): Promise<{ app: App; stop: () => Promise<void> }> {
  if (db === "sqlite") return { app: await startApp(env, cpuProfileDir, nodeFlags), stop: async () => {} };
  const cluster: TestPostgres = await startPostgres();
  try {
    const app = await startApp({ ...env, DATABASE_URL: await cluster.createDatabase("bench") }, cpuProfileDir, nodeFlags);
    return {
      app,
      stop: async () => {
        await stopChild(app.pid);
        await cluster.stop();
      },
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** One database's side: p50 and p99 of sequential calls, the app's CPU per call, calls per second. */
export interface DatabaseSide {
  p50: number;
  p99: number;
  cpuPerCall: number;
  perSecond: number;
}

/** A running app on a throw-away Postgres cluster, signed in, with the MCP server added; `stop` ends the cluster. */
export async function startPostgresApp(mcpUrl: string, env: Record<string, string>) {
  const { app, stop } = await startAppOn("postgres", env);
  const cookie = await signIn(app.base, app.dataDir);
  const id = await createServer(app.base, cookie, "everything", { url: mcpUrl, supports_parallel_tool_calls: true });
  return { app, call: apiEcho(app.base, cookie, id, "fetch"), stop };
}

/** Both databases' figures, measured interleaved (see the module comment). */
export async function databaseFigures(
  sides: Record<"sqlite" | "postgres", { call: () => Promise<void>; pid: number }>,
  options: { calls: number; inflight: number; throughputCalls: number; rounds?: number },
): Promise<Record<"sqlite" | "postgres", DatabaseSide>> {
  const { calls, inflight, throughputCalls, rounds = 3 } = options;
  const seq = {} as Record<"sqlite" | "postgres", Awaited<ReturnType<typeof sequential>>>;
  const rates: Record<"sqlite" | "postgres", number[]> = { sqlite: [], postgres: [] };
  for (const name of ["sqlite", "postgres"] as const) {
    seq[name] = await sequential(sides[name].call, calls, () => treeCpuMs(sides[name].pid));
  }
  for (let r = 0; r < rounds; r++) {
    for (const name of ["sqlite", "postgres"] as const) rates[name].push(await throughput(sides[name].call, throughputCalls, inflight));
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return {
    sqlite: { ...seq.sqlite, perSecond: median(rates.sqlite) },
    postgres: { ...seq.postgres, perSecond: median(rates.postgres) },
  };
}

/** The goal rows: Postgres against SQLite (the ratio is Postgres over SQLite). */
export function databaseRows(figures: Record<"sqlite" | "postgres", DatabaseSide>, inflight: number): GoalRow[] {
  const { sqlite, postgres } = figures;
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  return [
    {
      goal: "API tool call p50, Postgres vs SQLite",
      raw: `${ms(sqlite.p50)} (SQLite)`,
      switchboard: `${ms(postgres.p50)} (Postgres)`,
      ratio: postgres.p50 / sqlite.p50,
      limit: { max: 1.1 },
    },
    {
      goal: "app CPU per call, Postgres vs SQLite",
      raw: `${ms(sqlite.cpuPerCall)} (SQLite)`,
      switchboard: `${ms(postgres.cpuPerCall)} (Postgres)`,
      ratio: postgres.cpuPerCall / sqlite.cpuPerCall,
      limit: {},
    },
    {
      goal: `throughput, ${inflight} in flight (calls/s), Postgres vs SQLite`,
      raw: `${sqlite.perSecond.toFixed(0)} (SQLite)`,
      switchboard: `${postgres.perSecond.toFixed(0)} (Postgres)`,
      ratio: postgres.perSecond / sqlite.perSecond,
      limit: {},
    },
  ];
}
