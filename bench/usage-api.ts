/**
 * `npm run bench -- --usage [rounds]` (issue 32's goal, docs/usage.md#measured): what recording
 * usage adds to the API tool call. Three nodes of the built app, each on its own SQLite data
 * directory, identical but for `SWITCHBOARD_USAGE_RECORDING`: `on`, `off`, and a second `off` (the
 * A/A pair, whose difference is the bench's noise). The same `fetch` client sends `echo` through
 * `POST /api/servers/:id/tools/call` of each to the same MCP server; every node gets the same
 * warm-up, then each round runs the same number of sequential calls on every node, in blocks of 250
 * that take turns in an order that rotates (each node first, second and third equally often over
 * six blocks), reading each node's app CPU over the round from /proc as bench/cluster.ts does. A round's ratios (on/off, off′/off) pair
 * calls made seconds apart, so the machine's drift cancels; the median of the rounds' ratios is
 * the figure. Then the Usage page's goal over 1,000,000 seeded calls (bench/usage-page.ts).
 */
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { USAGE_BATCH_MS } from "../db/queries/usage-rows";
import type { UsageArgs } from "./args";
import { sequential, WARM_UP_CALLS } from "./goals";
import { type App, apiEcho, createServer, signIn, startApp, startEverything, treeCpuMs } from "./harness";
import { describeUsagePage, usagePageOnFreshDatabase } from "./usage-page";

type Node = "on" | "off" | "offB";

// Each node first, second and third equally often over six blocks.
const ORDERS: Node[][] = [
  ["off", "on", "offB"],
  ["offB", "on", "off"],
  ["on", "off", "offB"],
  ["offB", "off", "on"],
  ["off", "offB", "on"],
  ["on", "offB", "off"],
];

const NODES: Node[] = ["on", "off", "offB"];

/** Calls a node makes before the next one takes its turn, within a round. */
const BLOCK_CALLS = 250;

/**
 * One round: `calls` sequential calls per node, made in blocks of BLOCK_CALLS that take turns
 * (the order rotating from block to block), so the machine's drift within the round (the other
 * workers on its cores) lands on every node alike; each node's CPU is read over the whole round.
 */
async function interleavedRound(nodes: Record<Node, { app: App; call: () => Promise<void> }>, round: number, calls: number) {
  // Each node's CPU over the whole round, not per block: what a node does after its block (the
  // usage batch written up to 250 ms after its last call, timers, collections) is its cost too.
  const cpu0 = Object.fromEntries(NODES.map((node) => [node, treeCpuMs(nodes[node].app.pid)])) as Record<Node, number>;
  const latencies: Record<Node, number[]> = { on: [], off: [], offB: [] };
  const blocks = Math.ceil(calls / BLOCK_CALLS);
  for (let b = 0; b < blocks; b++) {
    const n = Math.min(BLOCK_CALLS, calls - b * BLOCK_CALLS);
    for (const node of ORDERS[(round * blocks + b) % ORDERS.length]) {
      const { call } = nodes[node];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await call();
        latencies[node].push(performance.now() - t0);
      }
    }
  }
  // The last block's batch is written within 250 ms of it: wait for it before the round's reading.
  await new Promise((r) => setTimeout(r, 2 * USAGE_BATCH_MS));
  const cpu = Object.fromEntries(NODES.map((node) => [node, treeCpuMs(nodes[node].app.pid) - cpu0[node]])) as Record<Node, number>;
  const figure = (node: Node) => ({ cpuPerCall: cpu[node] / calls, p50: median(latencies[node]) });
  return { on: figure("on"), off: figure("off"), offB: figure("offB") };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One node's measured rounds. */
interface NodeRounds {
  cpu: number[];
  p50: number[];
}

/** The rounds' figures of a pair: the median CPU/call and p50 of each side and the median of the rounds' ratios. */
export function pairFigures(a: NodeRounds, b: NodeRounds) {
  return {
    cpuA: median(a.cpu),
    cpuB: median(b.cpu),
    p50A: median(a.p50),
    p50B: median(b.p50),
    cpuRatio: median(a.cpu.map((v, i) => v / b.cpu[i])),
    p50Ratio: median(a.p50.map((v, i) => v / b.p50[i])),
  };
}

async function startNode(recording: "on" | "off", mcpUrl: string): Promise<{ app: App; call: () => Promise<void> }> {
  const app = await startApp({ SWITCHBOARD_USAGE_RECORDING: recording });
  const cookie = await signIn(app.base, app.dataDir);
  const id = await createServer(app.base, cookie, "everything", { url: mcpUrl });
  return { app, call: apiEcho(app.base, cookie, id, "fetch") };
}

// The MCP rows a node wrote (read from its SQLite file; the node flushes within 250 ms of a call).
async function recordedRows(app: App): Promise<number> {
  await new Promise((r) => setTimeout(r, 2 * USAGE_BATCH_MS));
  const file = new Database(path.join(app.dataDir, "switchboard.db"), { readonly: true });
  try {
    return (file.prepare("select count(*) as n from usage_mcp_requests").get() as { n: number }).n;
  } finally {
    file.close();
  }
}

const pct = (ratio: number) => `${ratio >= 1 ? "+" : ""}${((ratio - 1) * 100).toFixed(1)}%`;

/** The run (see the module comment). */
export async function usageMode(args: UsageArgs): Promise<void> {
  const mcpUrl = await startEverything();
  // Started one after the other: each start checks the build, and two at once would race.
  const nodes: Record<Node, Awaited<ReturnType<typeof startNode>>> = {
    on: await startNode("on", mcpUrl),
    off: await startNode("off", mcpUrl),
    offB: await startNode("off", mcpUrl),
  };
  const rounds: Record<Node, NodeRounds> = { on: { cpu: [], p50: [] }, off: { cpu: [], p50: [] }, offB: { cpu: [], p50: [] } };
  // The same warm-up for every node: a long-running server is measured hot, not while V8 compiles.
  for (const node of ORDERS[0]) await sequential(nodes[node].call, 1, () => 0, WARM_UP_CALLS);
  for (let round = 0; round < args.rounds; round++) {
    const figures = await interleavedRound(nodes, round, args.calls);
    for (const node of NODES) {
      rounds[node].cpu.push(figures[node].cpuPerCall);
      rounds[node].p50.push(figures[node].p50);
    }
  }
  // The setting did what it says: the "on" node recorded every measured call, the others none.
  const measured = WARM_UP_CALLS + args.rounds * args.calls;
  for (const node of NODES) {
    const rows = await recordedRows(nodes[node].app);
    if (node === "on" ? rows < measured : rows !== 0) throw new Error(`the ${node} node recorded ${rows} calls of ${measured}`);
  }
  const ab = pairFigures(rounds.on, rounds.off);
  const aa = pairFigures(rounds.offB, rounds.off);
  const ms = (v: number) => `${v.toFixed(3)} ms`;
  const us = (v: number) => `${(v * 1000).toFixed(0)} µs`;
  console.log(
    `\nUsage recording on the API tool call (${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the end, ` +
      `${new Date().toISOString().slice(0, 10)}; three nodes of the built app on SQLite, identical but for SWITCHBOARD_USAGE_RECORDING; ` +
      `fetch; ${WARM_UP_CALLS} calls of warm-up each, then ${args.rounds} rounds of ${args.calls} sequential calls per node, order rotating):\n`,
  );
  console.log("| pair | app CPU/call | p50 | CPU: median of the rounds' ratios | p50: median of the rounds' ratios |");
  console.log("|---|---|---|---|---|");
  console.log(
    `| recording on vs off (A/B) | ${us(ab.cpuA)} vs ${us(ab.cpuB)} | ${ms(ab.p50A)} vs ${ms(ab.p50B)} | **${pct(ab.cpuRatio)}** (goal ≤ +3%) | ${pct(ab.p50Ratio)} |`,
  );
  console.log(
    `| off vs off (A/A, the noise) | ${us(aa.cpuA)} vs ${us(aa.cpuB)} | ${ms(aa.p50A)} vs ${ms(aa.p50B)} | ${pct(aa.cpuRatio)} | ${pct(aa.p50Ratio)} |`,
  );
  for (const node of NODES)
    console.log(`  ${node.padEnd(4)} CPU/call per round: ${rounds[node].cpu.map((v) => (v * 1000).toFixed(0)).join(", ")} µs`);
  console.log(describeUsagePage(await usagePageOnFreshDatabase(args.seeded)));
}
