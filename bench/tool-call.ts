/**
 * `npm run bench`: one table with every performance goal of a tool call through Switchboard's
 * HTTP API (`POST /api/servers/:id/tools/call`) as a ratio against the raw SDK client calling the
 * same local Streamable HTTP server in the same run (bench/goals.ts), the chat rows over the
 * scripted LLM (bench/chat-bench.ts), then the hostile-neighbour and prompt-release figures.
 * `npm run bench -- --load 1000x3 [--inflight 64] [--seconds 30]` runs the load mode instead
 * (bench/load.ts). A benchmark, not a test: figures vary with machine load; compare the ratios.
 */
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { chatFigures } from "./chat-bench";
import { connectFigures, type GoalRow, goalsTable, toolCallFigures } from "./goals";
import {
  apiEcho,
  behindLatency,
  createServer,
  ROOT,
  runBench,
  serverPidOf,
  signIn,
  start,
  startApp,
  startEverything,
  treeCpuMs,
  waitFor,
} from "./harness";
import { hostileNeighbour } from "./hostile-neighbour";
import { loadMode } from "./load";
import { releaseMemoryApart } from "./release-memory";
import { printToolSearch, toolSearchBench } from "./tool-search";
import { freePort } from "../tests/helpers/ports";

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const INFLIGHT = 64;
const THROUGHPUT_CALLS = Number(process.env.BENCH_THROUGHPUT_CALLS ?? 3000);
// The network round trip to a remote MCP server for the parallel-connect goal, and a shorter one
// printed beside it (docs/performance.md#connecting-ten-servers-in-parallel).
const CONNECT_RTT_MS = Number(process.env.BENCH_CONNECT_RTT_MS ?? 40);
const SHORT_RTT_MS = 20;

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main() {
  // The raw SDK 1.x client adds an abort listener per request to one signal and Node warns about
  // each one past the limit; printing thousands of warnings would be measured as the client's cost.
  process.removeAllListeners("warning");
  const load = flag("load");
  if (load) {
    const [users, servers] = load.split("x").map(Number);
    if (!users || !servers) throw new Error("--load takes UxS, e.g. 1000x3");
    await loadMode({ users, servers, inflight: Number(flag("inflight") ?? 64), seconds: Number(flag("seconds") ?? 30) });
    return;
  }
  const mcpUrl = await startEverything();
  const llmPort = await freePort();
  start(process.execPath, [path.join(ROOT, "tests/fixtures/llm/scripted-llm.mjs")], { PORT: String(llmPort) });
  const app = await startApp({
    SWITCHBOARD_LLM_PROVIDER: "openai-compatible",
    SWITCHBOARD_LLM_MODEL: "scripted",
    SWITCHBOARD_LLM_BASE_URL: `http://127.0.0.1:${llmPort}/v1`,
    // 64 calls in flight from one user is the throughput figure, not abuse: the default allows 16.
    SWITCHBOARD_QUOTA_CONCURRENT_CALLS_PER_USER: String(INFLIGHT),
  });
  await waitFor(`http://127.0.0.1:${llmPort}/requests`, 20_000);
  const cookie = await signIn(app.base, app.dataDir);
  const id = await createServer(app.base, cookie, "everything", { url: mcpUrl, supports_parallel_tool_calls: true });
  const goodCall = apiEcho(app.base, cookie, id);

  const { app: viaApp, raw: viaSdk } = await toolCallFigures({
    appCall: goodCall,
    appPid: app.pid,
    mcpUrl,
    serverPid: serverPidOf(mcpUrl),
    calls: CALLS,
    inflight: INFLIGHT,
    throughputCalls: THROUGHPUT_CALLS,
  });
  // Ten servers as a host meets them: ten server processes, each answering over a network round
  // trip. And the same ten connections to the one local server, where only CPU counts.
  const tenServers = await Promise.all(Array.from({ length: 10 }, () => startEverything()));
  const connect = await connectFigures(await behindLatency(tenServers, CONNECT_RTT_MS / 2), 5);
  const shortConnect = await connectFigures(await behindLatency(tenServers, SHORT_RTT_MS / 2), 5);
  const localConnect = await connectFigures(Array(10).fill(mcpUrl), 5);
  const chat = await chatFigures(app.base, app.dataDir, mcpUrl);
  const memory = releaseMemoryApart(ROOT);
  const [before, peak, idle, deleted] = memory;
  // Per connection actually open at the peak (the upstream server counts them).
  const perConnection = (bytes: number) => bytes / Math.max(1, peak.upstreamSessions) / 1024;
  const rssPerConnection = perConnection(peak.rssBytes - before.rssBytes);
  const heapPerConnection = perConnection(peak.heapBytes - before.heapBytes);

  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const connectLine = (f: { slowestSingle: number; parallel: number }) =>
    `${f.slowestSingle.toFixed(1)} → ${f.parallel.toFixed(1)} ms (${(f.parallel / f.slowestSingle).toFixed(2)}×)`;
  const rows: GoalRow[] = [
    { goal: "API tool call p50", raw: ms(viaSdk.p50), switchboard: ms(viaApp.p50), ratio: viaApp.p50 / viaSdk.p50, limit: { max: 1.5 } },
    {
      goal: "CPU per call (client vs Switchboard's process)",
      raw: ms(viaSdk.cpuPerCall),
      switchboard: ms(viaApp.cpuPerCall),
      ratio: viaApp.cpuPerCall / viaSdk.cpuPerCall,
      limit: { max: 2 },
    },
    {
      goal: `throughput, ${INFLIGHT} in flight (calls/s)`,
      raw: viaSdk.perSecond.toFixed(0),
      switchboard: viaApp.perSecond.toFixed(0),
      ratio: viaApp.perSecond / viaSdk.perSecond,
      limit: { min: 0.8 },
    },
    {
      // The heap after a collection is what a connection keeps; RSS in one process at this scale is
      // dominated by V8 keeping or returning pages (the load mode reports RSS per connection).
      goal: "memory per idle connection (engine pool in a process of its own, heap after GC; RSS in brackets)",
      raw: "—",
      switchboard: `${heapPerConnection.toFixed(0)} KB (${rssPerConnection.toFixed(0)} KB)`,
      ratio: heapPerConnection,
      limit: { max: 150 },
    },
    {
      goal: `connect + discovery, 10 servers in parallel vs the slowest alone (10 server processes, ${CONNECT_RTT_MS} ms round trip)`,
      raw: connectLine(connect.raw),
      switchboard: connectLine(connect.engine),
      ratio: connect.engine.parallel / connect.engine.slowestSingle,
      limit: { max: 1.5 },
    },
    {
      goal: "chat: MCP result → tool card part, added p50 (ms, absolute)",
      raw: `${ms(viaSdk.p50)} (raw echo)`,
      switchboard: `${ms(chat.toolCard)} (input → output part)`,
      ratio: chat.toolCard - viaSdk.p50,
      limit: { max: 10 },
    },
    {
      goal: "chat: first token, 10 connected servers vs none",
      raw: `${ms(chat.firstTokenNone)} (none)`,
      switchboard: `${ms(chat.firstTokenTen)} (10)`,
      ratio: chat.firstTokenTen / chat.firstTokenNone,
      limit: { max: 1.2 },
    },
  ];
  console.log(
    `\nGoals (${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; ${CALLS} sequential calls, ${THROUGHPUT_CALLS} at ${INFLIGHT} in flight):\n`,
  );
  console.log(goalsTable(rows));
  console.log(`\np99: raw ${ms(viaSdk.p99)}, Switchboard ${ms(viaApp.p99)}`);
  console.log(
    `connect + discovery, slowest alone → 10 in parallel: at a ${SHORT_RTT_MS} ms round trip, engine ${connectLine(shortConnect.engine)}, ` +
      `raw SDK ${connectLine(shortConnect.raw)}; 10 connections to the one local server (no network wait: CPU-bound on these cores), ` +
      `engine ${connectLine(localConnect.engine)}, raw SDK ${connectLine(localConnect.raw)}`,
  );
  const split = (figures: Record<string, number>) =>
    Object.entries(figures)
      .map(([name, cpu]) => `${name} ${cpu.toFixed(2)}`)
      .join(", ");
  console.log(`CPU ms per call at ${INFLIGHT} in flight: raw: ${split(viaSdk.split)}; through Switchboard: ${split(viaApp.split)}`);

  const neighbour = await hostileNeighbour({
    base: app.base,
    hostileCookie: await signIn(app.base, app.dataDir, "hostile@example.com"),
    hostileBase: await startHostile(),
    calls: CALLS,
    goodCall,
    appCpuMs: () => treeCpuMs(app.pid),
    // BENCH_HOSTILE_MODES=big-list,retry0,flood picks the misbehaviours (to tell their costs apart).
    modes: process.env.BENCH_HOSTILE_MODES?.split(","),
  });
  console.log(
    `\nhostile neighbour (another user's servers: 60 MB tool list reconnected in a loop, retry: 0 storm, notification flood), well-behaved user's ${CALLS} sequential calls:\n`,
  );
  console.log("| well-behaved user | p50 ms | p99 ms | app CPU ms per good call (the hostile user's work included) |\n|---|---|---|---|");
  for (const [label, figures] of [
    ["alone", neighbour.alone],
    ["with hostile neighbour", neighbour.withHostile],
  ] as const) {
    console.log(`| ${label} | ${figures.p50.toFixed(2)} | ${figures.p99.toFixed(2)} | ${figures.appCpuMsPerCall?.toFixed(2) ?? "—"} |`);
  }
  console.log(`hostile user's requests by status: ${JSON.stringify(neighbour.hostileRequests)}`);
  console.log("\nprompt release (engine pool in a process of its own; upstream sessions counted by the server):\n");
  console.log("| phase | RSS MB | heap MB | upstream sessions open |\n|---|---|---|---|");
  for (const m of [before, peak, idle, deleted]) console.log(`| ${m.phase} | ${m.rssMb} | ${m.heapMb} | ${m.upstreamSessions} |`);
  printToolSearch(await toolSearchBench(ROOT));
  fs.rmSync(app.dataDir, { recursive: true, force: true });
}

async function startHostile(): Promise<string> {
  const port = await freePort();
  start(process.execPath, [path.join(ROOT, "tests/fixtures/mcp/hostile-http.mjs")], { PORT: String(port) });
  await waitFor(`http://127.0.0.1:${port}/stats`, 20_000);
  return `http://127.0.0.1:${port}`;
}

runBench(main);
