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
import { ownCpuMs, startEverything, runBench } from "./harness";

const CALLS = Number(process.argv[2] ?? 2000);

/** What the bench needs of either SDK's client. */
interface RawClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

async function connected<C extends RawClient & { connect(transport: T): Promise<void> }, T>(client: C, transport: T): Promise<C> {
  await client.connect(transport);
  return client;
}

async function main() {
  // The raw 1.x client adds an abort listener per request to one signal; Node's warnings would be measured.
  process.removeAllListeners("warning");
  const url = await startEverything();
  const rows: Array<[string, Awaited<ReturnType<typeof sequential>>]> = [];

  const raws: [string, () => Promise<RawClient>][] = [
    ["raw SDK 1.x", () => connected(new Client({ name: "bench-v1", version: "1" }), new StreamableHTTPClientTransport(new URL(url)))],
    ["raw SDK v2", () => connected(new ClientV2({ name: "bench-v2", version: "1" }), new TransportV2(new URL(url)))],
  ];
  for (const [label, open] of raws) {
    const client = await open();
    const call = async () => {
      await client.callTool({ name: "echo", arguments: { message: "bench" } });
    };
    rows.push([label, await sequential(call, CALLS, ownCpuMs)]);
    await client.close();
  }

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
      const outcome = await pool.session("u", server).callTool("echo", { message: "bench" });
      if (outcome.content.isError) throw new Error("echo failed");
    };
    rows.push([label, await sequential(call, CALLS, ownCpuMs)]);
    await pool.closeAll();
  }

  console.log("| path | p50 ms | p99 ms | CPU ms per call |\n|---|---|---|---|");
  for (const [label, r] of rows) console.log(`| ${label} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${r.cpuPerCall.toFixed(3)} |`);
}

runBench(main);
