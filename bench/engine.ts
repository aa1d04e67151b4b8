/**
 * The engine's own cost, without the web app in front: sequential `echo` calls to one local
 * Streamable HTTP server through the raw SDK 1.x client, the raw SDK v2 client, and the engine
 * (McpPool) with and without the SSRF-guarded fetch. CPU per call is this process's own (the
 * server runs in a child). `npx tsx bench/engine.ts [calls]`
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { engineLimitsFromEnv, McpPool } from "../lib/mcp";
import { createGuardedFetch, parseAllowedHosts } from "../lib/net";
import { sequential } from "./goals";
import { ownCpuMs, startEverything, stopAll } from "./harness";

const CALLS = Number(process.argv[2] ?? 2000);

async function main() {
  // The raw 1.x client adds an abort listener per request to one signal; Node's warnings would be measured.
  process.removeAllListeners("warning");
  const url = await startEverything();
  const rows: Array<[string, Awaited<ReturnType<typeof sequential>>]> = [];

  const v1 = new Client({ name: "bench-v1", version: "1" });
  await v1.connect(new StreamableHTTPClientTransport(new URL(url)));
  rows.push([
    "raw SDK 1.x",
    await sequential(() => v1.callTool({ name: "echo", arguments: { message: "bench" } }).then(() => {}), CALLS, ownCpuMs),
  ]);
  await v1.close();

  const v2 = new ClientV2({ name: "bench-v2", version: "1" });
  await v2.connect(new TransportV2(new URL(url)));
  rows.push([
    "raw SDK v2",
    await sequential(() => v2.callTool({ name: "echo", arguments: { message: "bench" } }).then(() => {}), CALLS, ownCpuMs),
  ]);
  await v2.close();

  const guarded = () => createGuardedFetch({ allowedHosts: parseAllowedHosts("127.0.0.1") });
  for (const [label, options] of [
    ["engine, plain fetch, no limits", {}],
    ["engine, guarded fetch, no limits", { fetch: guarded() }],
    ["engine, guarded fetch and limits (as the app)", { fetch: guarded(), limits: engineLimitsFromEnv(process.env) }],
  ] as const) {
    const pool = new McpPool(options);
    const server = { id: "s", name: "s", config: { url } };
    await pool.discover("u", [server]);
    const call = async () => {
      const outcome = await pool.callTool("u", server, "echo", { message: "bench" });
      if (outcome.content.isError) throw new Error("echo failed");
    };
    rows.push([label, await sequential(call, CALLS, ownCpuMs)]);
    await pool.closeAll();
  }

  console.log("| path | p50 ms | p99 ms | CPU ms per call |\n|---|---|---|---|");
  for (const [label, r] of rows) console.log(`| ${label} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${r.cpuPerCall.toFixed(3)} |`);
}

async function run(): Promise<void> {
  try {
    await main();
  } finally {
    await stopAll();
  }
}

run().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
