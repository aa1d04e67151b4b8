/**
 * Where the engine's CPU of one connect + discovery goes (the "10 servers in parallel" goal of
 * bench/goals.ts `connectFigures`), against one server-everything process:
 *
 * - `npx tsx bench/connect-profile.ts cold engine|raw [--no-profile]`: the goal's own protocol in a
 *   fresh process (one warm-up, ten singles, ten in parallel) with this process's and the server's
 *   CPU of each step, and its profile. Fresh because that protocol measures barely warmed code.
 * - `npx tsx bench/connect-profile.ts spread`: ten servers as ten processes (the goal's own words),
 *   hot, engine and raw client.
 * - `npx tsx bench/connect-profile.ts goal`: bench/goals.ts `connectFigures` itself, with the CPU
 *   this process and the server spent in it.
 * - `npx tsx bench/connect-profile.ts [connects] [--no-profile]`: hot (after 300 warm-up rounds),
 *   the engine's and the raw SDK 1.x client's CPU per connect + discovery, single against
 *   10-in-parallel wall time for both, then a CPU profile of sequential engine connects (top frames
 *   by self and inclusive time).
 */
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { connectFigures, engineRound, rawRound } from "./goals";
import { summarise } from "./cpu-profile";
import { ownCpuMs, runBench, serverPidOf, startEverything, treeCpuMs } from "./harness";

const COLD = process.argv[2] === "cold" ? process.argv[3] : undefined;
const CONNECTS = Number(process.argv[2]) || 200;
const PROFILE = !process.argv.includes("--no-profile");

/** CPU of this process and of the server per round (ms) over `rounds` sequential single connects, after `warmUp`. */
async function cpuPerConnect(round: (n: number) => Promise<number>, rounds: number, serverCpu: () => number, warmUp = 300) {
  for (let i = 0; i < warmUp; i++) await round(1);
  const cpu0 = ownCpuMs();
  const server0 = serverCpu();
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) await round(1);
  return { cpu: (ownCpuMs() - cpu0) / rounds, server: (serverCpu() - server0) / rounds, wall: (performance.now() - t0) / rounds };
}

/** The goal's protocol (bench/goals.ts `connectFigures`) with the CPU of each step. */
async function cold(round: (n: number) => Promise<number>, serverCpu: () => number) {
  const step = async (n: number) => {
    const cpu0 = ownCpuMs();
    const server0 = serverCpu();
    const ms = await round(n);
    return `${ms.toFixed(1)} ms (client CPU ${(ownCpuMs() - cpu0).toFixed(1)}, server CPU ${(serverCpu() - server0).toFixed(1)})`;
  };
  console.log(`warm-up: ${await step(1)}`);
  for (let i = 0; i < 10; i++) console.log(`single ${i + 1}: ${await step(1)}`);
  console.log(`10 in parallel: ${await step(10)}`);
}

/** One line per side of `connectFigures`: slowest alone, all in parallel, ratio. */
function printConnect(what: string, figures: Awaited<ReturnType<typeof connectFigures>>) {
  for (const [side, f] of Object.entries(figures)) {
    console.log(
      `${side} ${what}: slowest single ${f.slowestSingle.toFixed(1)} ms, 10 parallel ${f.parallel.toFixed(1)} ms, ratio ${(f.parallel / f.slowestSingle).toFixed(2)}`,
    );
  }
}

/**
 * The goal as its words have it, ten servers: ten server-everything processes, each server's
 * connect alone (the slowest kept) against all ten in parallel, engine and raw client, hot.
 */
async function spread(first: string) {
  const urls = [first, ...(await Promise.all(Array.from({ length: 9 }, () => startEverything())))];
  printConnect("against 10 processes", await connectFigures(urls, 5, 100));
}

/** A CPU profile of `run` (sampled every 100 µs), written to a temporary file. */
async function profile(run: () => Promise<unknown>): Promise<string> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  await run();
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  const file = path.join(os.tmpdir(), `connect-${process.pid}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  return file;
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Inclusive time per frame label (each label counted once per stack), in ms. */
function inclusive(file: string, top: number) {
  const p = JSON.parse(fs.readFileSync(file, "utf8")) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const label = (n: Node) => {
    const u = n.callFrame.url;
    const nm = u.lastIndexOf("node_modules/");
    const short = nm >= 0 ? u.slice(nm + 13) : u.replace(/^file:\/\/.*?\/main\//, "");
    return `${n.callFrame.functionName || "(anonymous)"} ${short}:${n.callFrame.lineNumber + 1}`;
  };
  const totals = new Map<string, number>();
  let all = 0;
  p.samples.forEach((id, i) => {
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === "(idle)" || leaf.callFrame.functionName === "(program)") return;
    all += ms;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const l = label(byId.get(at)!);
      if (seen.has(l)) continue;
      seen.add(l);
      totals.set(l, (totals.get(l) ?? 0) + ms);
    }
  });
  return [...totals]
    .filter(([l]) => !l.startsWith("(root)"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([l, ms]) => `${((100 * ms) / all).toFixed(1).padStart(5)} %  ${l}`);
}

runBench(async () => {
  const url = await startEverything();
  const engine = (n: number) => engineRound([url], n);
  const raw = (n: number) => rawRound([url], n);
  if (process.argv[2] === "spread") return spread(url);
  const serverCpu = () => treeCpuMs(serverPidOf(url));
  if (process.argv[2] === "goal") {
    const cpu0 = ownCpuMs();
    const server0 = serverCpu();
    const { engine: figures } = await connectFigures(Array(10).fill(url));
    const { slowestSingle, parallel } = figures;
    const cpu = `client CPU ${(ownCpuMs() - cpu0).toFixed(0)} ms, server CPU ${(serverCpu() - server0).toFixed(0)} ms (engine and raw client)`;
    console.log(
      `goal: slowest single ${slowestSingle.toFixed(1)} ms, 10 parallel ${parallel.toFixed(1)} ms, ratio ${(parallel / slowestSingle).toFixed(2)} (${cpu})`,
    );
    return;
  }
  if (COLD) {
    const round = COLD === "raw" ? raw : engine;
    if (!PROFILE) return cold(round, serverCpu);
    await round(1); // module loading is not the figure
    return printProfile(await profile(() => cold(round, serverCpu)), 20);
  }
  const e = await cpuPerConnect(engine, CONNECTS, serverCpu);
  const r = await cpuPerConnect(raw, CONNECTS, serverCpu);
  const line = (x: typeof e) => `${x.cpu.toFixed(2)} ms (server ${x.server.toFixed(2)} ms, wall ${x.wall.toFixed(1)} ms)`;
  console.log(`CPU per connect + discovery, hot (${CONNECTS} sequential): engine ${line(e)}; raw SDK 1.x ${line(r)}`);
  // Already hot from the rounds above: no further warm-up.
  printConnect("against one server", await connectFigures(Array(10).fill(url), 5, 0));
  if (!PROFILE) return;
  printProfile(
    await profile(async () => {
      for (let i = 0; i < CONNECTS; i++) await engine(1);
    }),
    CONNECTS,
  );
});

function printProfile(file: string, connects: number) {
  const { total, frames, packages } = summarise(file, 30);
  console.log(`\nprofile: ${total.toFixed(0)} ms sampled (${(total / connects).toFixed(2)} ms per connect)`);
  console.log("\nby package:");
  for (const s of packages) console.log(`${s.percent.toFixed(1).padStart(5)} %  ${s.label}`);
  console.log("\ntop self:");
  for (const s of frames) console.log(`${s.percent.toFixed(1).padStart(5)} %  ${s.label}`);
  console.log("\ntop inclusive:");
  for (const line of inclusive(file, 60)) console.log(line);
  console.log(`\n(profile: ${file})`);
}
