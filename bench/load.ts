/**
 * Spread load mode of `npm run bench -- --load UxS [--inflight C] [--seconds T]`: U users × S Streamable
 * HTTP servers each (their own personal workspace), C calls in flight in all for T seconds through
 * `POST /api/servers/:id/tools/call`, on SQLite or (`--db postgres`) on a throw-away Postgres. Users,
 * servers and sessions are written straight into the app's database (another process: the app sees
 * them at once) and the session cookies are minted with next-auth's `encode`, so a thousand sign-ups
 * do not cost a thousand password hashes.
 * Reports calls/s, p50/p99, the app's CPU per call against one user's sequential calls on the same
 * instance, RSS per (user, server) connection, what deleting the servers returns, and errors.
 * The mode with every user active is bench/crowd.ts; both share the seeding and readings here.
 */
import path from "node:path";
import { encode } from "next-auth/jwt";
import fs from "node:fs";
import { spawnSync } from "node:child_process";
import { freePort } from "../tests/helpers/ports";
import type { SpreadLoadArgs } from "./args";
import { startAppOn } from "./database";
import { sequential } from "./goals";
import { type App, apiEcho, percentile, ROOT, start, treeCpuMs, treeRssBytes, waitFor } from "./harness";
import type { SeededUser } from "./seed";

/** One seeded user: the session cookie and the ids of their servers. */
export interface Person {
  cookie: string;
  serverIds: string[];
}

interface Pair {
  cookie: string;
  serverId: string;
}

/** Megabytes, rounded, for the tables. */
export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/**
 * `users` users, each with a personal workspace, a session and `servers` servers at `upstream`
 * (the hostile fixture's good mode, one URL per pair), written into the app's database by a child
 * process opening it as the app does (bench/seed.ts: the app sees them at once, on either database).
 */
export async function seed(app: App, upstream: string, options: { users: number; servers: number }): Promise<Person[]> {
  const secret = fs.readFileSync(path.join(app.dataDir, "nextauth.secret"), "utf8").trim();
  const child = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "bench/seed.ts", String(options.users), String(options.servers), upstream],
    {
      cwd: ROOT,
      env: { ...process.env, SWITCHBOARD_DATA_DIR: app.dataDir, ...(app.databaseUrl ? { DATABASE_URL: app.databaseUrl } : {}) },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  if (child.status !== 0) throw new Error(`seeding the load users failed (exit ${child.status})`);
  const seeded: Person[] = [];
  for (const person of JSON.parse(child.stdout) as SeededUser[]) {
    const token = await encode({ token: { sub: person.userId, sid: person.sid }, secret });
    seeded.push({ cookie: `next-auth.session-token=${token}`, serverIds: person.serverIds });
  }
  return seeded;
}

/** Run `work` on every item with `inflight` at once; returns the errors by message. */
export async function each<T>(items: T[], inflight: number, work: (item: T) => Promise<void>): Promise<Record<string, number>> {
  const errors: Record<string, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: inflight }, async () => {
      while (next < items.length) {
        const item = items[next++];
        await work(item).catch((error: unknown) => {
          const key = String(error instanceof Error ? error.message : error).slice(0, 80);
          errors[key] = (errors[key] ?? 0) + 1;
        });
      }
    }),
  );
  return errors;
}

/** RSS once it stops falling (sampled each second, at most 20 s): what the process keeps when idle. */
export async function settledRss(pid: number): Promise<number> {
  let last = treeRssBytes(pid);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = treeRssBytes(pid);
    if (i >= 4 && now >= last - 1024 * 1024) return now;
    last = now;
  }
  return last;
}

/** The upstream MCP fixture every load connection goes to; its base URL. */
export async function startUpstream(): Promise<string> {
  const upstreamPort = await freePort();
  start(process.execPath, [path.join(ROOT, "tests/fixtures/mcp/hostile-http.mjs")], { PORT: String(upstreamPort) });
  const upstream = `http://127.0.0.1:${upstreamPort}`;
  await waitFor(`${upstream}/stats`, 20_000);
  return upstream;
}

/** How many MCP sessions the upstream fixture has open (it counts initializes and DELETEs). */
export async function upstreamOpen(upstream: string): Promise<number> {
  return ((await (await fetch(`${upstream}/stats`)).json()) as { sessionsOpen: number }).sessionsOpen;
}

/** How many MCP sessions the upstream fixture has opened so far (initializes of every mode). */
export async function upstreamInitializes(upstream: string): Promise<number> {
  const stats = (await (await fetch(`${upstream}/stats`)).json()) as { initializes: Record<string, number> };
  return Object.values(stats.initializes).reduce((a, b) => a + b, 0);
}

/** The spread load run (`--load UxS`); prints its table. */
export async function loadMode(options: SpreadLoadArgs): Promise<void> {
  const upstream = await startUpstream();
  const connections = options.users * options.servers;
  const { app, stop } = await startAppOn(options.db, {
    SWITCHBOARD_QUOTA_CONNECTIONS_TOTAL: String(connections + 100),
    SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER: String(options.inflight),
  });
  try {
    await spreadLoad(app, upstream, options);
  } finally {
    await stop();
  }
}

async function spreadLoad(app: App, upstream: string, options: SpreadLoadArgs): Promise<void> {
  const connections = options.users * options.servers;
  const t0 = performance.now();
  const pairs: Pair[] = (await seed(app, upstream, options)).flatMap((p) =>
    p.serverIds.map((serverId) => ({ cookie: p.cookie, serverId })),
  );
  console.log(`seeded ${options.users} users × ${options.servers} servers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const calls = new Map(pairs.map((p) => [p, apiEcho(app.base, p.cookie, p.serverId, options.client)]));

  // One user alone first, on the same instance: the CPU per call the load is compared with.
  const single = await sequential(calls.get(pairs[0])!, 300, () => treeCpuMs(app.pid));
  const rssBefore = treeRssBytes(app.pid);
  const connectStart = performance.now();
  const connectErrors = await each(pairs, options.inflight, (p) => calls.get(p)!());
  const connectSeconds = (performance.now() - connectStart) / 1000;
  // Idle connections: give V8's memory reducer (it collects once allocation stops for a few
  // seconds) time to run, so the figure is what the connections keep, not garbage of setting them up.
  const rssConnected = await settledRss(app.pid);
  const openAtPeak = await upstreamOpen(upstream);

  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const cpu0 = treeCpuMs(app.pid);
  const deadline = performance.now() + options.seconds * 1000;
  const loadStart = performance.now();
  await Promise.all(
    Array.from({ length: options.inflight }, async () => {
      while (performance.now() < deadline) {
        const pair = pairs[Math.floor(Math.random() * pairs.length)];
        const c0 = performance.now();
        try {
          await calls.get(pair)!();
          latencies.push(performance.now() - c0);
        } catch (error) {
          const key = String(error instanceof Error ? error.message : error).slice(0, 80);
          errors[key] = (errors[key] ?? 0) + 1;
        }
      }
    }),
  );
  const loadSeconds = (performance.now() - loadStart) / 1000;
  const cpuPerCall = (treeCpuMs(app.pid) - cpu0) / Math.max(1, latencies.length);
  const rssPeak = treeRssBytes(app.pid);
  latencies.sort((a, b) => a - b);

  // Delete every server through the API: each user's connections must close (upstream sessions → 0).
  const deleteErrors = await each(pairs, options.inflight, async (p) => {
    const response = await fetch(`${app.base}/api/servers/${p.serverId}`, { method: "DELETE", headers: { cookie: p.cookie } });
    if (!response.ok) throw new Error(`delete ${response.status}`);
  });
  // Closing is asynchronous (each session ends with a DELETE upstream): wait for it, at most 60 s.
  const deleted = performance.now();
  let openAfterDelete = await upstreamOpen(upstream);
  while (openAfterDelete > 0 && performance.now() - deleted < 60_000) {
    await new Promise((r) => setTimeout(r, 1000));
    openAfterDelete = await upstreamOpen(upstream);
  }
  const closeSeconds = (performance.now() - deleted) / 1000;
  const rssAfterDelete = await settledRss(app.pid);

  const perConnectionKb = (rssConnected - rssBefore) / connections / 1024;
  console.log(
    `\nload: ${options.users} users × ${options.servers} servers = ${connections} connections, ${options.inflight} in flight, ${options.seconds} s, client ${options.client}, ${options.db === "postgres" ? "Postgres" : "SQLite"}\n`,
  );
  console.log("| figure | value |\n|---|---|");
  console.log(`| connect phase (one call per connection) | ${connectSeconds.toFixed(1)} s, errors ${JSON.stringify(connectErrors)} |`);
  console.log(`| calls/s | ${(latencies.length / loadSeconds).toFixed(0)} |`);
  console.log(`| p50 / p99 ms | ${percentile(latencies, 50).toFixed(1)} / ${percentile(latencies, 99).toFixed(1)} |`);
  console.log(
    `| app CPU per call (load / one user alone) | ${cpuPerCall.toFixed(2)} ms / ${single.cpuPerCall.toFixed(2)} ms = ${(cpuPerCall / single.cpuPerCall).toFixed(2)}× (goal ≤ 1.2×) |`,
  );
  console.log(`| errors | ${latencies.length ? JSON.stringify(errors) : "no call succeeded"} |`);
  console.log(`| app RSS before / connected / after load | ${mb(rssBefore)} / ${mb(rssConnected)} / ${mb(rssPeak)} MB |`);
  console.log(`| RSS per idle connection | ${perConnectionKb.toFixed(0)} KB (goal ≤ 64 KB) |`);
  console.log(
    `| upstream sessions open at peak / after deleting the servers | ${openAtPeak} / ${openAfterDelete} ${closeSeconds.toFixed(0)} s after the deletes (delete errors ${JSON.stringify(deleteErrors)}) |`,
  );
  console.log(`| app RSS after deleting the servers | ${mb(rssAfterDelete)} MB |`);
}
