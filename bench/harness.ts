/**
 * What the bench scripts share: child processes (the app via scripts/start.mjs, MCP fixture
 * servers), waiting for them, signing a user in through next-auth's credentials flow, percentiles,
 * and CPU/RSS of a process tree read from /proc (Linux), so the app's own cost is measured apart
 * from the MCP server's and the bench client's.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/helpers/ports";
import { APP_V8_FLAGS } from "../scripts/v8-flags.mjs";
import type { BenchClient } from "./args";

/** The project root. */
export const ROOT = path.resolve(import.meta.dirname, "..");
const children: ChildProcess[] = [];

/** Start a child that is killed when the bench ends (`stopAll`). */
export function start(command: string, args: string[], env: Record<string, string> = {}, stdoutFile?: string): ChildProcess {
  const stdout = stdoutFile ? fs.openSync(stdoutFile, "w") : "ignore";
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", stdout, "inherit"] });
  children.push(child);
  return child;
}

/** Run a bench script's `main`, stop every child it started, and report a failure in the exit code. */
export function runBench(main: () => Promise<void>): void {
  const run = async () => {
    try {
      await main();
    } finally {
      await stopAll();
    }
  };
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

/** Stop every child started here (SIGTERM: the app writes its CPU profile on the way out). */
export async function stopAll(): Promise<void> {
  const exits = children.filter((c) => c.exitCode === null).map((c) => new Promise((r) => c.once("exit", r)));
  for (const child of children) child.kill("SIGTERM");
  await Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, 10_000))]);
}

/** Stop the child with `pid` (SIGTERM) and wait for it, at most 10 s: before what it depends on stops. */
export async function stopChild(pid: number): Promise<void> {
  const child = children.find((c) => c.pid === pid);
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
}

/** Poll `url` until it answers below 500. */
export async function waitFor(url: string, timeoutMs: number): Promise<void> {
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

/** The value at percentile `p` of an ascending list. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const serverPids = new Map<string, number>();

/** server-everything over Streamable HTTP; returns its `/mcp` URL. */
export async function startEverything(): Promise<string> {
  const port = await freePort();
  const child = start(
    process.execPath,
    [path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "streamableHttp"],
    {
      PORT: String(port),
    },
  );
  const url = `http://127.0.0.1:${port}/mcp`;
  serverPids.set(url, child.pid!);
  // Generous: ten of them start at once, and the machine may be shared.
  await waitFor(url, 60_000);
  return url;
}

/**
 * `urls` behind a proxy that delays every chunk by `oneWayMs` each way (bench/latency-proxy.mjs),
 * so local servers answer like remote ones; returns the proxied URLs in the same order.
 */
export async function behindLatency(urls: string[], oneWayMs: number): Promise<string[]> {
  const targets = urls.map((u) => new URL(u));
  const child = spawn(process.execPath, [path.join(ROOT, "bench/latency-proxy.mjs"), String(oneWayMs), ...targets.map((t) => t.port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.includes("\n")) resolve(out.split("\n")[0]);
    });
    child.once("exit", (code) => reject(new Error(`the latency proxy exited (${code})`)));
  });
  const ports = line.replace(/^listening /, "").split(" ");
  return targets.map((t, i) => {
    const proxied = new URL(t);
    proxied.port = ports[i];
    return proxied.href;
  });
}

/** The pid of the server `startEverything` started at `url` (its CPU is read from /proc). */
export function serverPidOf(url: string): number {
  const pid = serverPids.get(url);
  if (pid === undefined) throw new Error(`no server was started at ${url}`);
  return pid;
}

/** A running app: its base URL, data directory and the pid of `scripts/start.mjs`. */
export interface App {
  base: string;
  dataDir: string;
  pid: number;
  /** The Postgres it runs on (`DATABASE_URL`), or undefined on SQLite in `dataDir`. */
  databaseUrl?: string;
}

/**
 * Build if needed and start the app on a fresh data directory. With `cpuProfileDir` the server runs
 * under `node --cpu-prof`, and with BENCH_APP_NODE_FLAGS (e.g. `--trace-gc`) under those flags
 * (neither is allowed in NODE_OPTIONS; BENCH_APP_STDOUT names a file for what they print), and
 * with `nodeFlags` (e.g. `--inspect=127.0.0.1:<port>`, bench/inspector.ts) under those too: the
 * preflight runs first, then the app's server
 * (scripts/server.mjs) directly, as scripts/start.mjs would.
 */
export async function startApp(env: Record<string, string> = {}, cpuProfileDir?: string, nodeFlags: string[] = []): Promise<App> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-"));
  const appEnv = {
    PORT: String(port),
    SWITCHBOARD_DATA_DIR: dataDir,
    SWITCHBOARD_ALLOWED_HOSTS: "127.0.0.1",
    // The bench sends more than a person would: the per-minute request quota would stop it.
    SWITCHBOARD_QUOTA_REQUESTS_PER_MINUTE: "1000000",
    NEXTAUTH_URL: `http://localhost:${port}`,
    ...env,
  };
  let child: ChildProcess;
  const extraFlags = [...nodeFlags, ...(process.env.BENCH_APP_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [])];
  if (cpuProfileDir || extraFlags.length) {
    const preflight = spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/preflight.ts"], {
      cwd: ROOT,
      env: { ...process.env, ...appEnv },
      stdio: "inherit",
    });
    if (preflight.status !== 0) throw new Error("preflight failed");
    const secret = fs.readFileSync(path.join(dataDir, "nextauth.secret"), "utf8").trim();
    const server = path.join(ROOT, "scripts/server.mjs");
    const profile = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : [];
    child = start(
      process.execPath,
      [...APP_V8_FLAGS, ...profile, ...extraFlags, server],
      { ...appEnv, NEXTAUTH_SECRET: secret },
      process.env.BENCH_APP_STDOUT,
    );
  } else {
    child = start(process.execPath, [path.join(ROOT, "scripts/start.mjs")], appEnv);
  }
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`, 300_000);
  return { base, dataDir, pid: child.pid!, ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}) };
}

/** Sign up and sign in through next-auth's credentials flow; returns the session cookie header. */
export async function signIn(base: string, dataDir: string, email = "bench@example.com"): Promise<string> {
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

/** Create a server in the caller's personal workspace; returns its id. */
export async function createServer(base: string, cookie: string, name: string, config: Record<string, unknown>): Promise<string> {
  const created = await fetch(`${base}/api/servers`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ name, config }),
  });
  if (!created.ok) throw new Error(`creating server ${name} failed: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { id: string }).id;
}

// The two ways the bench calls the API (`--client`, bench/args.ts). `fetch` is what the raw SDK
// client sends through, so the goals table compares like with like by default; `node:http` on
// kept-alive sockets costs the bench process about a third of `fetch`'s CPU per request, which
// matters when the bench shares two cores with the app under load. No socket cap and no cap on idle
// sockets: a thousand users in flight are a thousand kept connections, as a thousand browsers would
// be (Node's default keeps 256 idle sockets and closes the rest, so a crowd whose calls all end at
// once reconnected hundreds of sockets at once and measured the listen queue, not the app).
const agent = new http.Agent({
  keepAlive: true,
  maxSockets: Number.POSITIVE_INFINITY,
  maxFreeSockets: Number.POSITIVE_INFINITY,
});

/** POST `body` to `url` on a kept-alive `node:http` socket; resolves with the status and the body text. */
export function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: "POST", agent, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** POST `body` to `url` with the global `fetch` (undici's kept-alive pool), as the raw SDK client sends. */
export async function postFetch(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: "POST", headers, body });
  return { status: response.status, text: await response.text() };
}

/** One `echo` call through `POST /api/servers/:id/tools/call`, sent with `client`. */
export function apiEcho(base: string, cookie: string, serverId: string, client: BenchClient = "fetch"): () => Promise<void> {
  const url = `${base}/api/servers/${serverId}/tools/call`;
  const headers = { "content-type": "application/json", cookie };
  const body = JSON.stringify({ name: "echo", arguments: { message: "bench" } });
  const send = client === "fetch" ? postFetch : post;
  return async () => {
    const response = await send(url, headers, body);
    if (response.status !== 200) throw new Error(`app call failed: ${response.status} ${response.text}`);
    const result = JSON.parse(response.text) as { isError?: boolean };
    if (result.isError) throw new Error(`echo failed: ${response.text}`);
  };
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function descendants(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    try {
      const tasks = fs.readdirSync(`/proc/${all[i]}/task`);
      for (const task of tasks) {
        const kids = fs.readFileSync(`/proc/${all[i]}/task/${task}/children`, "utf8").trim();
        if (kids) all.push(...kids.split(/\s+/).map(Number));
      }
    } catch {
      // the process ended between the listing and the read: it has no CPU left to count
    }
  }
  return all;
}

/** CPU milliseconds (user + system) used so far by `pid` and its descendants. */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  for (const p of descendants(pid)) {
    try {
      const fields = fs.readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // ended meanwhile
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** Resident memory (bytes) of `pid` and its descendants. */
export function treeRssBytes(pid: number): number {
  let kb = 0;
  for (const p of descendants(pid)) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
      if (match) kb += Number(match[1]);
    } catch {
      // ended meanwhile
    }
  }
  return kb * 1024;
}

/** This process's CPU milliseconds (user + system) so far. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}
