/**
 * `npm run bench`: tool-call latency and throughput through Switchboard's HTTP API
 * (`POST /api/servers/:id/tools/call`) against the raw SDK client calling the same local
 * Streamable HTTP server in the same run, plus engine connect time for 1 vs 10 servers in parallel.
 * A benchmark, not a test: figures vary with machine load; compare the ratios.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpPool } from "../lib/mcp";
import { freePort } from "../tests/helpers/ports";
import { hostileNeighbour } from "./hostile-neighbour";
import { releaseMemory } from "./release-memory";
import { printToolSearch, toolSearchBench } from "./tool-search";

const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const children: ChildProcess[] = [];

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  children.push(child);
  return child;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Figures {
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
}

async function measure(call: () => Promise<void>): Promise<Figures> {
  for (let i = 0; i < 20; i++) await call(); // warm-up
  const latencies: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await call();
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < CALLS) await call();
    }),
  );
  const perSecond = CALLS / ((performance.now() - t0) / 1000);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), perSecond };
}

/** Sign up and sign in through next-auth's credentials flow; returns the session cookie header. */
async function signIn(base: string, dataDir: string, email = "bench@example.com"): Promise<string> {
  // A fresh instance's first account needs the setup code the server wrote at start-up.
  const codeFile = path.join(dataDir, "setup-code");
  const setupCode = fs.existsSync(codeFile) ? fs.readFileSync(codeFile, "utf8").trim() : undefined;
  const account = { email, password: "a long bench password", name: email.split("@")[0], ...(setupCode ? { setupCode } : {}) };
  await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(account),
  });
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const login = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, email: account.email, password: account.password, json: "true" }),
  });
  cookies.push(...login.headers.getSetCookie().map((c) => c.split(";")[0]));
  if (!cookies.some((c) => c.includes("session-token"))) throw new Error(`sign-in failed (${login.status})`);
  return cookies.join("; ");
}

async function main() {
  const root = path.resolve(import.meta.dirname, "..");
  const mcpPort = await freePort();
  start(process.execPath, [path.join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "streamableHttp"], {
    PORT: String(mcpPort),
  });
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  await waitFor(`http://127.0.0.1:${mcpPort}/mcp`, 20_000);

  const appPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-"));
  start(process.execPath, [path.join(root, "scripts/start.mjs")], {
    PORT: String(appPort),
    SWITCHBOARD_DATA_DIR: dataDir,
    SWITCHBOARD_ALLOWED_HOSTS: "127.0.0.1",
    // The bench sends more than a person would: the per-minute request quota would stop it.
    SWITCHBOARD_QUOTA_REQUESTS_PER_MINUTE: "1000000",
    NEXTAUTH_URL: `http://localhost:${appPort}`,
  });
  const base = `http://127.0.0.1:${appPort}`;
  await waitFor(`${base}/api/health`, 300_000);
  const cookie = await signIn(base, dataDir);
  const created = await fetch(`${base}/api/servers`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ name: "everything", config: { url: mcpUrl, supports_parallel_tool_calls: true } }),
  });
  const { id } = (await created.json()) as { id: string };

  const viaApp = await measure(async () => {
    const response = await fetch(`${base}/api/servers/${id}/tools/call`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ name: "echo", arguments: { message: "bench" } }),
    });
    if (!response.ok) throw new Error(`app call failed: ${response.status}`);
    await response.json();
  });

  const raw = new Client({ name: "bench-raw", version: "1" });
  await raw.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  const viaSdk = await measure(async () => {
    await raw.callTool({ name: "echo", arguments: { message: "bench" } });
  });
  await raw.close();

  const connectTime = async (count: number) => {
    const pool = new McpPool();
    const servers = Array.from({ length: count }, (_, i) => ({ id: `s${i}`, name: `s${i}`, config: { url: mcpUrl } }));
    const t0 = performance.now();
    const statuses = await pool.discover("bench", servers);
    const ms = performance.now() - t0;
    if (statuses.some((s) => s.state !== "connected")) throw new Error("a bench server failed to connect");
    await pool.closeAll();
    return ms;
  };
  const one = await connectTime(1);
  const ten = await connectTime(10);

  const hostilePort = await freePort();
  start(process.execPath, [path.join(root, "tests/fixtures/mcp/hostile-http.mjs")], { PORT: String(hostilePort) });
  await waitFor(`http://127.0.0.1:${hostilePort}/stats`, 20_000);
  const neighbour = await hostileNeighbour({
    base,
    hostileCookie: await signIn(base, dataDir, "hostile@example.com"),
    hostileBase: `http://127.0.0.1:${hostilePort}`,
    calls: CALLS,
    goodCall: async () => {
      const response = await fetch(`${base}/api/servers/${id}/tools/call`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ name: "echo", arguments: { message: "bench" } }),
      });
      if (!response.ok) throw new Error(`app call failed: ${response.status}`);
      await response.json();
    },
  });

  const row = (label: string, f: Figures) =>
    `| ${label} | ${f.p50.toFixed(2)} | ${f.p95.toFixed(2)} | ${f.p99.toFixed(2)} | ${f.perSecond.toFixed(0)} |`;
  console.log(
    `\nTool call \`echo\`, ${CALLS} sequential calls (latency, ms) and ${CALLS} calls at concurrency ${CONCURRENCY} (throughput):\n`,
  );
  console.log("| path | p50 | p95 | p99 | calls/s |\n|---|---|---|---|---|");
  console.log(row("raw SDK client", viaSdk));
  console.log(row("Switchboard HTTP API", viaApp));
  const added = viaApp.p50 - viaSdk.p50;
  console.log(
    `\np50 ratio (API / raw SDK): ${(viaApp.p50 / viaSdk.p50).toFixed(2)}x; p50 added latency ${added.toFixed(2)} ms = ${(added / viaSdk.p50).toFixed(2)}x the raw call (goal ≤ 1.5x); throughput ratio: ${(viaApp.perSecond / viaSdk.perSecond).toFixed(2)}x`,
  );
  console.log(
    `engine connect + discovery: 1 server ${one.toFixed(0)} ms, 10 servers in parallel ${ten.toFixed(0)} ms (${(ten / one).toFixed(2)}x)`,
  );
  console.log(
    `\nhostile neighbour (another user's servers: 60 MB tool list reconnected in a loop, retry: 0 storm, notification flood), well-behaved user's ${CALLS} sequential calls:\n`,
  );
  console.log("| well-behaved user | p50 ms | p99 ms |\n|---|---|---|");
  console.log(`| alone | ${neighbour.alone.p50.toFixed(2)} | ${neighbour.alone.p99.toFixed(2)} |`);
  console.log(`| with hostile neighbour | ${neighbour.withHostile.p50.toFixed(2)} | ${neighbour.withHostile.p99.toFixed(2)} |`);
  console.log(`hostile user's requests by status: ${JSON.stringify(neighbour.hostileRequests)}`);
  const memory = await releaseMemory(root);
  console.log("\nprompt release (engine pool in this process; upstream sessions counted by the server):\n");
  console.log("| phase | RSS MB | heap MB | upstream sessions open |\n|---|---|---|---|");
  for (const m of memory) console.log(`| ${m.phase} | ${m.rssMb} | ${m.heapMb} | ${m.upstreamSessions} |`);
  printToolSearch(await toolSearchBench(root));
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill("SIGTERM");
  });
