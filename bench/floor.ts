/**
 * `npx tsx bench/floor.ts`: how much of an API tool call is Next's own request handling. One app,
 * 300 sequential requests each: `GET /api/health` (no session, no database), `GET
 * /api/servers/:id/status` (session, workspace and server lookups, no MCP request) and the tool
 * call itself, with the app's CPU per request.
 */
import { apiEcho, createServer, percentile, signIn, startApp, startEverything, runBench, treeCpuMs } from "./harness";

async function measure(label: string, request: () => Promise<unknown>, pid: number) {
  for (let i = 0; i < 30; i++) await request();
  const latencies: number[] = [];
  const cpu0 = treeCpuMs(pid);
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    await request();
    latencies.push(performance.now() - t0);
  }
  const cpu = (treeCpuMs(pid) - cpu0) / 300;
  latencies.sort((a, b) => a - b);
  console.log(`| ${label} | ${percentile(latencies, 50).toFixed(2)} | ${cpu.toFixed(2)} |`);
}

async function main() {
  const mcpUrl = await startEverything();
  const app = await startApp();
  const cookie = await signIn(app.base, app.dataDir);
  const id = await createServer(app.base, cookie, "everything", { url: mcpUrl });
  console.log("| request | p50 ms | app CPU ms per request |\n|---|---|---|");
  await measure("GET /api/health", async () => (await fetch(`${app.base}/api/health`)).text(), app.pid);
  await measure(
    "GET /api/servers/:id/status",
    async () => (await fetch(`${app.base}/api/servers/${id}/status`, { headers: { cookie } })).text(),
    app.pid,
  );
  await measure("POST /api/servers/:id/tools/call", apiEcho(app.base, cookie, id, "node-http"), app.pid);
}

runBench(main);
