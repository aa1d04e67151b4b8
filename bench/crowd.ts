/**
 * The load mode with every user active (`npm run bench -- --users U --servers S --inflight C
 * [--seconds T] [--baseline B] [--idle-minutes M] [--client fetch|node-http] [--profile DIR]`):
 * each of U users keeps C calls in flight through `POST /api/servers/:id/tools/call`, each call on
 * the next of their S servers, for T seconds. In the same run and on the same instance, the first B
 * users (64) run alone first, with only their connections open: the crowd's figures are reported as
 * ratios to theirs (calls/s, CPU per call, p99 against p50), so what grows with the number of users
 * or connections shows as a ratio, whatever the machine's speed. Memory: RSS before any connection,
 * with every connection open and idle, at its peak under load, and after the connections idle out
 * (`SWITCHBOARD_MCP_IDLE_MINUTES` = M, the one setting changed from its default; C above the
 * per-user call quota raises that too). With `--profile`, CPU profiles of both phases and the
 * sampling heap profile of opening the crowd's connections (bench/inspector.ts) are written to DIR
 * and summarised.
 */
import fs from "node:fs";
import os from "node:os";
import { freePort } from "../tests/helpers/ports";
import type { CrowdLoadArgs } from "./args";
import { summarise, summariseHeap } from "./cpu-profile";
import { sequential, WARM_UP_CALLS } from "./goals";
import { startAppOn } from "./database";
import { type App, apiEcho, percentile, treeCpuMs, treeRssBytes } from "./harness";
import { callCounts, cpuProfiled, heapSampled, type Inspector, openInspector, stampWrites } from "./inspector";
import { each, mb, seed, settledRss, startUpstream, upstreamInitializes, upstreamOpen } from "./load";

/** The per-user concurrent call quota's default (lib/quotas): above it the bench raises the quota. */
const DEFAULT_CALLS_PER_USER = 16;
/** Calls in flight while connections are opened (one call per connection), as a crowd arriving. */
const CONNECT_INFLIGHT = 64;
/** Seconds of each phase's extra run with every function call counted (with --profile). */
const COUNTED_SECONDS = 5;

type Call = () => Promise<void>;

/** One phase's figures: `users` active, each with `inflight` calls outstanding. */
interface PhaseFigures {
  users: number;
  calls: number;
  perSecond: number;
  p50: number;
  p99: number;
  cpuPerCall: number;
  errors: Record<string, number>;
  rssPeak: number;
}

// Every user of `callers` keeps `inflight` calls outstanding for `seconds`, each call on their next server.
async function phase(callers: Call[][], inflight: number, seconds: number, appPid: number): Promise<PhaseFigures> {
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  let rssPeak = treeRssBytes(appPid);
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, treeRssBytes(appPid));
  }, 1000);
  const cpu0 = treeCpuMs(appPid);
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  await Promise.all(
    callers.flatMap((servers) =>
      Array.from({ length: inflight }, async (_, k) => {
        for (let turn = k; performance.now() < deadline; turn++) {
          const c0 = performance.now();
          try {
            await servers[turn % servers.length]();
            latencies.push(performance.now() - c0);
          } catch (error) {
            const key = String(error instanceof Error ? error.message : error).slice(0, 80);
            errors[key] = (errors[key] ?? 0) + 1;
          }
        }
      }),
    ),
  );
  const elapsed = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const cpuPerCall = (treeCpuMs(appPid) - cpu0) / Math.max(1, latencies.length);
  latencies.sort((a, b) => a - b);
  return {
    users: callers.length,
    calls: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50) ?? Number.NaN,
    p99: percentile(latencies, 99) ?? Number.NaN,
    cpuPerCall,
    errors,
    rssPeak,
  };
}

// One call on each of the callers' connections (opens them), `CONNECT_INFLIGHT` at a time, timed;
// then one more each, untimed: the first connections' pins were written while the last ones opened,
// and each write empties the lookup caches, so every key's first read again happens here, not in
// the measured phase.
async function connect(callers: Call[][]): Promise<{ seconds: number; errors: Record<string, number> }> {
  const t0 = performance.now();
  const errors = await each(callers.flat(), CONNECT_INFLIGHT, (call) => call());
  const seconds = (performance.now() - t0) / 1000;
  await each(callers.flat(), CONNECT_INFLIGHT, (call) => call());
  return { seconds, errors };
}

// `work` under `profiler` when profiling (its file is kept in `files`), else as it is.
async function maybe<T>(
  inspector: Inspector | null,
  profiler: typeof cpuProfiled,
  dir: string | undefined,
  name: string,
  files: Record<string, string>,
  work: () => Promise<T>,
): Promise<T> {
  if (!inspector || !dir) return work();
  const [result, file] = await profiler(inspector, dir, name, work);
  files[name] = file;
  return result;
}

/** The run; prints its tables (and the profiles' summaries with `--profile`). */
export async function crowdMode(options: CrowdLoadArgs): Promise<void> {
  const { inflightPerUser, idleMinutes, profileDir } = options;
  const upstream = await startUpstream();
  const env: Record<string, string> = { SWITCHBOARD_MCP_IDLE_MINUTES: String(idleMinutes) };
  if (inflightPerUser > DEFAULT_CALLS_PER_USER) env.SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER = String(inflightPerUser);
  const inspectPort = profileDir ? await freePort() : 0;
  const { app, stop } = await startAppOn(options.db, env, undefined, profileDir ? [`--inspect=127.0.0.1:${inspectPort}`] : []);
  try {
    await crowd(app, upstream, options, inspectPort);
  } finally {
    await stop();
  }
}

async function crowd(app: App, upstream: string, options: CrowdLoadArgs, inspectPort: number): Promise<void> {
  const { users, servers, inflightPerUser, seconds, baselineUsers, idleMinutes, client, profileDir } = options;
  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
  const inspector = profileDir ? await openInspector(inspectPort) : null;
  const files: Record<string, string> = {};
  const t0 = performance.now();
  const people = await seed(app, upstream, { users, servers });
  console.log(`seeded ${users} users × ${servers} servers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const callers = people.map((p) => p.serverIds.map((id) => apiEcho(app.base, p.cookie, id, client)));

  // Warm-up: one user's sequential calls (the code hot, as a long-running server is), then the
  // figure before any other connection is open.
  const alone = await sequential(callers[0][0], 300, () => treeCpuMs(app.pid), WARM_UP_CALLS);
  const rssBefore = await settledRss(app.pid);

  const baselineConnect = await connect(callers.slice(0, baselineUsers));
  // Before and after each measured phase: the writes that emptied the lookup caches (with
  // --profile) and the MCP sessions opened upstream (a reconnect, say after an idle eviction).
  const stamps: number[] = [];
  const sessionsOpened: number[] = [];
  const stamp = async () => {
    sessionsOpened.push(await upstreamInitializes(upstream));
    if (inspector) stamps.push((await stampWrites(inspector)) ?? Number.NaN);
  };
  await stamp();
  const baseline = await maybe(inspector, cpuProfiled, profileDir, "baseline", files, () =>
    phase(callers.slice(0, baselineUsers), inflightPerUser, seconds, app.pid),
  );
  await stamp();
  const counted: Counted[] = [];
  const countedRun = async (active: Call[][]) => {
    if (!inspector) return;
    const opened = await upstreamInitializes(upstream);
    const [figures, counts] = await callCounts(inspector, () => phase(active, inflightPerUser, COUNTED_SECONDS, app.pid));
    const calls = figures.calls + Object.values(figures.errors).reduce((a, b) => a + b, 0);
    counted.push({ calls, counts, reconnects: (await upstreamInitializes(upstream)) - opened });
    // Every count, for questions the table does not answer (which write ran, how often).
    fs.writeFileSync(
      `${profileDir}/counts-${counted.length === 1 ? "baseline" : "crowd"}.json`,
      JSON.stringify({ calls, counts: Object.fromEntries(counts) }),
    );
  };
  await countedRun(callers.slice(0, baselineUsers));
  // What opening the rest of the connections leaves alive, per allocation site (with --profile).
  const crowdConnect = await maybe(inspector, heapSampled, profileDir, "connections", files, () => connect(callers.slice(baselineUsers)));
  const rssConnected = await settledRss(app.pid);
  const openConnected = await upstreamOpen(upstream);
  await stamp();
  const crowd = await maybe(inspector, cpuProfiled, profileDir, "crowd", files, () => phase(callers, inflightPerUser, seconds, app.pid));
  await stamp();
  await countedRun(callers);

  // The connections idle out (every upstream session closed), then RSS settles.
  const idleStart = performance.now();
  const idleLimitMs = idleMinutes * 60_000 + 120_000;
  let openAfter = await upstreamOpen(upstream);
  while (openAfter > 0 && performance.now() - idleStart < idleLimitMs) {
    await new Promise((r) => setTimeout(r, 2000));
    openAfter = await upstreamOpen(upstream);
  }
  const idleSeconds = (performance.now() - idleStart) / 1000;
  const rssAfterIdle = await settledRss(app.pid);
  inspector?.close();

  const connections = users * servers;
  // Per connection actually open (the upstream counts them): on a slow machine the first ones may
  // idle out before the last ones open.
  const open = Math.max(1, openConnected);
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const kbPer = (bytes: number, count = open) => (bytes / count / 1024).toFixed(0);
  console.log(
    `\ncrowd: ${users} users × ${servers} servers = ${connections} connections, ${inflightPerUser} in flight per user, ${seconds} s per phase, ` +
      `client ${client}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the end; ` +
      `warm-up ${WARM_UP_CALLS} sequential calls of one user, then one call per connection (${CONNECT_INFLIGHT} at a time)\n`,
  );
  const row = (figure: string, b: string, c: string, r: string, goal: string) =>
    console.log(`| ${figure} | ${b} | ${c} | ${r} | ${goal} |`);
  console.log(`| figure | ${baselineUsers} users active | ${users} users active | ratio | goal |\n|---|---|---|---|---|`);
  row("calls in flight", String(baselineUsers * inflightPerUser), String(users * inflightPerUser), "", "");
  row(
    "connect phase (one call per connection)",
    `${baselineConnect.seconds.toFixed(1)} s, errors ${JSON.stringify(baselineConnect.errors)}`,
    `${crowdConnect.seconds.toFixed(1)} s (the other users), errors ${JSON.stringify(crowdConnect.errors)}`,
    "",
    "",
  );
  row("calls/s", baseline.perSecond.toFixed(0), crowd.perSecond.toFixed(0), ratio(crowd.perSecond, baseline.perSecond), "≥ 0.9");
  row(
    "app CPU ms per call",
    baseline.cpuPerCall.toFixed(2),
    crowd.cpuPerCall.toFixed(2),
    ratio(crowd.cpuPerCall, baseline.cpuPerCall),
    "≤ 1.3",
  );
  row(
    "p50 / p99 ms",
    `${baseline.p50.toFixed(1)} / ${baseline.p99.toFixed(1)}`,
    `${crowd.p50.toFixed(1)} / ${crowd.p99.toFixed(1)}`,
    "",
    "",
  );
  row("p99 / p50 (within the phase)", ratio(baseline.p99, baseline.p50), ratio(crowd.p99, crowd.p50), "", "≤ 2 (crowd)");
  row("errors", JSON.stringify(baseline.errors), JSON.stringify(crowd.errors), "", "none");
  row(
    "MCP sessions opened during the phase (reconnects)",
    String(sessionsOpened[1] - sessionsOpened[0]),
    String(sessionsOpened[3] - sessionsOpened[2]),
    "",
    "0",
  );
  if (stamps.length === 4)
    row(
      "writes that emptied the lookup caches (db/generation.ts; with --profile)",
      String(stamps[1] - stamps[0]),
      String(stamps[3] - stamps[2]),
      "",
      "",
    );
  console.log(
    `\none user alone after the warm-up: p50 ${alone.p50.toFixed(2)} ms, app CPU ${alone.cpuPerCall.toFixed(2)} ms per call` +
      `\n\n| app RSS | MB | per connection |\n|---|---|---|` +
      `\n| before (warm, no connection open) | ${mb(rssBefore)} | |` +
      `\n| ${openConnected} connections open, idle | ${mb(rssConnected)} | ${kbPer(rssConnected - rssBefore)} KB (goal ≤ 64 KB) |` +
      `\n| peak under load (${users} users active) | ${mb(crowd.rssPeak)} | ${kbPer(crowd.rssPeak - rssBefore, connections)} KB |` +
      `\n| after idle (${openAfter} upstream sessions open ${idleSeconds.toFixed(0)} s after the load) | ${mb(rssAfterIdle)} | ` +
      `${ratio(rssAfterIdle, rssBefore)}× of before (goal ≤ 1.25×) |`,
  );
  if (profileDir) printProfiles(files, connections - baselineUsers * servers);
  if (counted.length === 2) printCounts(counted[0], counted[1], baselineUsers, users);
}

// The profiles side by side: self-time shares of the crowd against the baseline, and what the
// crowd's connections keep alive per allocation site.
function printProfiles(files: Record<string, string>, newConnections: number): void {
  const base = summarise(files.baseline, 200);
  const crowd = summarise(files.crowd, 25);
  const baseShare = new Map(base.frames.map((f) => [f.label, f.percent]));
  const basePackages = new Map(base.packages.map((p) => [p.label, p.percent]));
  console.log(`\nCPU profiles (${files.baseline}, ${files.crowd}): self time, % of the sampled non-idle time\n`);
  console.log("| package | baseline % | crowd % |\n|---|---|---|");
  for (const p of crowd.packages) console.log(`| ${p.label} | ${(basePackages.get(p.label) ?? 0).toFixed(1)} | ${p.percent.toFixed(1)} |`);
  console.log("\n| frame | baseline % | crowd % |\n|---|---|---|");
  for (const f of crowd.frames) console.log(`| ${f.label} | ${(baseShare.get(f.label) ?? 0).toFixed(1)} | ${f.percent.toFixed(1)} |`);
  const heap = summariseHeap(files.connections, 25);
  const kb = (bytes: number) => (bytes / Math.max(1, newConnections) / 1024).toFixed(1);
  console.log(
    `\nheap kept by opening ${newConnections} connections (${files.connections}): ${kb(heap.total)} KB per connection, sampled\n\n| package | KB per connection | % |\n|---|---|---|`,
  );
  for (const p of heap.packages) console.log(`| ${p.label} | ${kb(p.bytes)} | ${p.percent.toFixed(1)} |`);
  console.log("\n| allocation site | KB per connection | % |\n|---|---|---|");
  for (const f of heap.frames) console.log(`| ${f.label} | ${kb(f.bytes)} | ${f.percent.toFixed(1)} |`);
}

/** One counted run: its tool calls, the app's function calls by name, MCP sessions opened meanwhile. */
interface Counted {
  calls: number;
  counts: Map<string, number>;
  reconnects: number;
}

// The functions whose calls per tool call grew the most from the baseline to the crowd: work that
// depends on the number of users or connections, counted, not timed.
function printCounts(base: Counted, crowd: Counted, baselineUsers: number, users: number): void {
  const perCall = (run: typeof base, key: string) => (run.counts.get(key) ?? 0) / Math.max(1, run.calls);
  const keys = new Set([...base.counts.keys(), ...crowd.counts.keys()]);
  const grown = [...keys]
    .map((key) => ({ key, base: perCall(base, key), crowd: perCall(crowd, key) }))
    .filter((f) => f.crowd - f.base >= 0.05)
    .sort((a, b) => b.crowd - b.base - (a.crowd - a.base))
    .slice(0, 30);
  console.log(
    `\nfunction calls per tool call, ${COUNTED_SECONDS} s counted after each phase (${base.calls} calls with ${baselineUsers} users, ${crowd.calls} with ${users}; ` +
      `MCP sessions opened meanwhile ${base.reconnects} and ${crowd.reconnects}); the 30 that grew most\n`,
  );
  console.log(`| function | ${baselineUsers} users | ${users} users |\n|---|---|---|`);
  for (const f of grown) console.log(`| ${f.key} | ${f.base.toFixed(2)} | ${f.crowd.toFixed(2)} |`);
}
