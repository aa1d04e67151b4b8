/**
 * The goals table of `npm run bench`: every goal of a tool call through Switchboard as a ratio
 * against the raw SDK client in the same run (latency, CPU per call, throughput at 64 in flight,
 * parallel connect + discovery), each row marked met or not. Memory and chat rows come from
 * bench/release-memory.ts and bench/chat-bench.ts.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpPool } from "../lib/mcp";
import { ownCpuMs, percentile, treeCpuMs } from "./harness";

/** One row of the table. */
export interface GoalRow {
  goal: string;
  raw: string;
  switchboard: string;
  ratio: number;
  /** The bound the ratio must stay within, and in which direction (neither: a figure shown beside the goals). */
  limit: { max?: number; min?: number };
}

/**
 * Percentiles of `calls` sequential calls after a warm-up, and the CPU they cost (`cpu()` ms). The
 * warm-up is the same for every side: a long-running server is measured hot, not while V8 compiles.
 */
export async function sequential(call: () => Promise<void>, calls: number, cpu: () => number, warmUp = WARM_UP_CALLS) {
  for (let i = 0; i < warmUp; i++) await call();
  const latencies: number[] = [];
  const cpu0 = cpu();
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await call();
    latencies.push(performance.now() - t0);
  }
  const cpuPerCall = (cpu() - cpu0) / calls;
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpuPerCall };
}

/**
 * Sequential calls made before measuring (the raw client and the app get the same);
 * `BENCH_WARM_UP_CALLS` lowers it for a quick check that the machinery runs, not for figures.
 */
export const WARM_UP_CALLS = Number(process.env.BENCH_WARM_UP_CALLS ?? 3000);

/** Calls of the unmeasured round at the throughput's concurrency, per side, before its runs. */
export const THROUGHPUT_WARM_UP_CALLS = 500;

/** Calls per second with `inflight` calls always outstanding, `total` calls in all. */
export async function throughput(call: () => Promise<void>, total: number, inflight: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inflight }, async () => {
      while (next++ < total) await call();
    }),
  );
  return total / ((performance.now() - t0) / 1000);
}

/** CPU per call (ms) of each party during a throughput run, by name. */
export type CpuSplit = Record<string, number>;

// One measured throughput run with the CPU each party (`cpus`: name → CPU ms so far) spent per call.
async function measuredThroughput(call: () => Promise<void>, total: number, inflight: number, cpus: Record<string, () => number>) {
  const before = Object.fromEntries(Object.entries(cpus).map(([name, cpu]) => [name, cpu()]));
  const perSecond = await throughput(call, total, inflight);
  const split: CpuSplit = Object.fromEntries(Object.entries(cpus).map(([name, cpu]) => [name, (cpu() - before[name]) / total]));
  return { perSecond, split };
}

/** One side's figures: sequential percentiles and CPU, and throughput at `inflight` with its CPU split. */
export interface SideFigures {
  p50: number;
  p99: number;
  cpuPerCall: number;
  perSecond: number;
  split: CpuSplit;
}

/**
 * The tool-call figures of the raw SDK client on one connection and of the app through
 * `POST /api/servers/:id/tools/call`, once per entry of `appCalls` (by the client that sends it,
 * bench/args.ts), all against the same server; the app's CPU is its process tree only (`appPid`).
 * Sequential figures first (every side after the same warm-up, `WARM_UP_CALLS`), then one
 * unmeasured round per side at `inflight`, then `rounds` throughput runs per side, interleaved so
 * that no side gets the machine's quieter moments; each side's median run is kept, with its CPU split.
 */
export async function toolCallFigures(options: {
  appCalls: Record<string, () => Promise<void>>;
  appPid: number;
  mcpUrl: string;
  serverPid: number;
  calls: number;
  inflight: number;
  throughputCalls: number;
  rounds?: number;
}): Promise<{ app: Record<string, SideFigures>; raw: SideFigures }> {
  const { appCalls, appPid, mcpUrl, serverPid, calls, inflight, throughputCalls, rounds = 3 } = options;
  const client = new Client({ name: "bench-raw", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  const rawCall = async () => {
    await client.callTool({ name: "echo", arguments: { message: "bench" } });
  };
  const appCpu = () => treeCpuMs(appPid);
  const serverCpu = () => treeCpuMs(serverPid);
  type Side = { call: () => Promise<void>; seqCpu: () => number; cpus: Record<string, () => number> };
  const sides: Record<string, Side> = {};
  for (const [label, call] of Object.entries(appCalls))
    sides[label] = { call, seqCpu: appCpu, cpus: { "bench client": ownCpuMs, app: appCpu, server: serverCpu } };
  // The bench process runs nothing else meanwhile: its CPU is the raw client's.
  sides.raw = { call: rawCall, seqCpu: ownCpuMs, cpus: { client: ownCpuMs, server: serverCpu } };
  const seq: Record<string, Awaited<ReturnType<typeof sequential>>> = {};
  for (const [label, side] of Object.entries(sides)) seq[label] = await sequential(side.call, calls, side.seqCpu);
  // One unmeasured round each at the same concurrency: sockets opened, code hot.
  for (const side of Object.values(sides)) await throughput(side.call, Math.min(throughputCalls, THROUGHPUT_WARM_UP_CALLS), inflight);
  const runs: Record<string, { perSecond: number; split: CpuSplit }[]> = Object.fromEntries(Object.keys(sides).map((label) => [label, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [label, side] of Object.entries(sides))
      runs[label].push(await measuredThroughput(side.call, throughputCalls, inflight, side.cpus));
  }
  await client.close();
  const median = (list: { perSecond: number; split: CpuSplit }[]) =>
    [...list].sort((x, y) => x.perSecond - y.perSecond)[Math.floor(list.length / 2)];
  const figures = (label: string): SideFigures => ({ ...seq[label], ...median(runs[label]) });
  return { app: Object.fromEntries(Object.keys(appCalls).map((label) => [label, figures(label)])), raw: figures("raw") };
}

/** Engine: one pool per round, `n` servers, the i-th at `urls[i % urls.length]`; wall time (ms). */
export async function engineRound(urls: string[], n: number): Promise<number> {
  const pool = new McpPool();
  const servers = Array.from({ length: n }, (_, i) => ({ id: `s${i}`, name: `s${i}`, config: { url: urls[i % urls.length] } }));
  const t0 = performance.now();
  const statuses = await pool.discover("bench", servers);
  const ms = performance.now() - t0;
  if (statuses.some((s) => s.state !== "connected")) throw new Error(`connect failed: ${JSON.stringify(statuses[0].lastError)}`);
  await pool.closeAll();
  return ms;
}

/** Raw SDK 1.x: connect and the four lists the engine asks for, then close (DELETE, as the engine); wall time (ms). */
export async function rawRound(urls: string[], n: number): Promise<number> {
  const t0 = performance.now();
  const clients = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const client = new Client({ name: "bench-raw", version: "1" });
      const transport = new StreamableHTTPClientTransport(new URL(urls[i % urls.length]));
      await client.connect(transport);
      await Promise.all([client.listTools(), client.listResources(), client.listResourceTemplates(), client.listPrompts()]);
      return { client, transport };
    }),
  );
  const ms = performance.now() - t0;
  await Promise.all(
    clients.map(async ({ client, transport }) => {
      await transport.terminateSession();
      await client.close();
    }),
  );
  return ms;
}

/** Slowest single against all in parallel, for one way of connecting. */
export interface ConnectFigure {
  slowestSingle: number;
  parallel: number;
}

/**
 * Connect + discovery of the servers at `urls`, hot (as a long-running app connects; `warmUp`
 * rounds of all of them first): `tries` times each server alone, the slowest kept, then all in
 * parallel; the median try of each. For the engine and, the machine's own bound, the raw SDK 1.x,
 * their tries interleaved so that neither side gets the quieter moments of the machine.
 */
export async function connectFigures(urls: string[], tries = 3, warmUp = 20): Promise<{ engine: ConnectFigure; raw: ConnectFigure }> {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const sides = { engine: engineRound, raw: rawRound };
  const singles = { engine: [] as number[], raw: [] as number[] };
  const parallels = { engine: [] as number[], raw: [] as number[] };
  for (const round of Object.values(sides)) for (let i = 0; i < warmUp; i++) await round(urls, urls.length);
  for (let t = 0; t < tries; t++) {
    for (const [side, round] of Object.entries(sides) as [keyof typeof sides, typeof engineRound][]) {
      let slowest = 0;
      for (const url of urls) slowest = Math.max(slowest, await round([url], 1));
      singles[side].push(slowest);
      parallels[side].push(await round(urls, urls.length));
    }
  }
  const figure = (side: keyof typeof sides) => ({ slowestSingle: median(singles[side]), parallel: median(parallels[side]) });
  return { engine: figure("engine"), raw: figure("raw") };
}

/** Whether a row's ratio is within its limit. */
export function met(row: GoalRow): boolean {
  return (row.limit.max === undefined || row.ratio <= row.limit.max) && (row.limit.min === undefined || row.ratio >= row.limit.min);
}

/** The table as Markdown. */
export function goalsTable(rows: GoalRow[], sides: [string, string] = ["raw SDK", "Switchboard"]): string {
  const limit = (r: GoalRow) => (r.limit.max !== undefined ? `≤ ${r.limit.max}` : r.limit.min !== undefined ? `≥ ${r.limit.min}` : "—");
  const hasGoal = (r: GoalRow) => r.limit.max !== undefined || r.limit.min !== undefined;
  const lines = [`| goal | ${sides[0]} | ${sides[1]} | ratio | goal | met |`, "|---|---|---|---|---|---|"];
  for (const r of rows) {
    lines.push(
      `| ${r.goal} | ${r.raw} | ${r.switchboard} | ${r.ratio.toFixed(2)} | ${limit(r)} | ${!hasGoal(r) ? "—" : met(r) ? "yes" : "**no**"} |`,
    );
  }
  return lines.join("\n");
}
