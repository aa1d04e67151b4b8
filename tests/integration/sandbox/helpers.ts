/**
 * Shared setup of the sandbox integration tests: a fake app data directory holding marker
 * secrets, a sandboxed client for a stdio server, and a /proc scan for leftover processes.
 */
import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parseServerConfig, type ServerConfigInput } from "@/lib/mcp/config";
import type { StdioLaunch } from "@/lib/mcp/launch";
import { checkSandbox, createSandboxWrapper, type SandboxOptions } from "@/lib/mcp/sandbox";

export const projectRoot = path.resolve(__dirname, "../../..");
export const fixturesDir = path.join(projectRoot, "tests/fixtures/sandbox");
export const probePath = path.join(fixturesDir, "probe-server.mjs");

/** Fail (never skip) when this host cannot sandbox: the lead's test script installs bubblewrap. */
export async function requireSandbox(): Promise<void> {
  const status = await checkSandbox();
  if (!status.available) {
    throw new Error(`The sandbox integration tests need bubblewrap and util-linux: ${status.reason} Fix: ${status.fix}`);
  }
}

/** A fake app data directory (mode 0700 like the real one) whose secrets all contain `marker`. */
export interface FakeData {
  root: string;
  dataDir: string;
  dbPath: string;
  keyPath: string;
  otherHome: string;
  otherSecret: string;
  cleanup(): void;
}

/** Create a fake data directory with a database, a key file and another user's sandbox home. */
export function makeFakeData(marker: string): FakeData {
  const root = mkdtempSync(path.join(os.tmpdir(), "switchboard-sandbox-"));
  const dataDir = path.join(root, "data");
  mkdirSync(dataDir, { mode: 0o700 });
  const dbPath = path.join(dataDir, "switchboard.db");
  const keyPath = path.join(dataDir, "secret.key");
  writeFileSync(dbPath, `SQLite format 3\0 users table: admin password hash ${marker}`, { mode: 0o600 });
  writeFileSync(keyPath, `key:${marker}`, { mode: 0o600 });
  const otherHome = path.join(dataDir, "sandboxes", "bob", "bobs-server");
  mkdirSync(otherHome, { recursive: true, mode: 0o700 });
  const otherSecret = path.join(otherHome, "notes.txt");
  writeFileSync(otherSecret, `bob's token ${marker}`);
  chmodSync(root, 0o755);
  return { root, dataDir, dbPath, keyPath, otherHome, otherSecret, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A started sandboxed client, with the launch that was actually spawned. */
export interface Sandboxed {
  client: Client;
  transport: StdioClientTransport;
  launch: StdioLaunch;
  marker: string;
  stderr: () => string;
  protocolErrors: () => number;
}

/** Options of `startSandboxed`. */
export interface StartOptions {
  sandbox: SandboxOptions;
  config: ServerConfigInput & { command: string };
  userId?: string;
  serverId?: string;
  /** Environment given to the wrapper (the engine's filtered env). Default: PATH, HOME, LANG, USER. */
  env?: Record<string, string>;
}

/** Wrap a stdio launch in the sandbox and connect the SDK client to it. */
export async function startSandboxed(options: StartOptions): Promise<Sandboxed> {
  const marker = `sbx-marker-${randomUUID()}`;
  const config = parseServerConfig(options.config, "probe");
  const wrap = createSandboxWrapper(options.sandbox);
  const launch = await wrap(
    {
      command: config.command!,
      args: [...(config.args ?? []), `--marker=${marker}`],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.homedir(), LANG: "C.UTF-8", USER: "root", ...options.env, ...config.env },
    },
    { userId: options.userId ?? "alice", serverId: options.serverId ?? `srv-${randomUUID().slice(0, 8)}`, serverName: "probe", config },
  );
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    env: launch.env,
    cwd: launch.cwd,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const client = new Client({ name: "sandbox-test", version: "1.0.0" });
  let protocolErrors = 0;
  await client.connect(transport);
  // Set after connect: Client.connect installs its own handler; non-protocol lines land here.
  const previous = transport.onerror;
  transport.onerror = (error) => {
    protocolErrors++;
    previous?.(error);
  };
  return { client, transport, launch, marker, stderr: () => stderr, protocolErrors: () => protocolErrors };
}

/** Call a probe tool and parse its JSON reply. */
// biome-ignore lint/suspicious/noExplicitAny: probe replies are ad-hoc JSON that each test reads as it needs.
export async function callJson<T = any>(client: Client, name: string, args: Record<string, unknown> = {}, timeout = 30_000): Promise<T> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout });
  const content = result.content as Array<{ type: string; text: string }>;
  if (result.isError) throw new Error(`tool ${name} failed: ${content[0]?.text}`);
  return JSON.parse(content[0].text) as T;
}

/** Host pids (other than this process) whose /proc/<pid>/`file` text matches `test`. */
function hostPids(file: "cmdline" | "status", test: (text: string) => boolean): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (test(readFileSync(`/proc/${entry}/${file}`, "utf8"))) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** Poll `find` until it returns no pids; returns the survivors after `timeoutMs`. */
async function waitUntilNone(find: () => number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let left = find();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = find();
  }
  return left;
}

/** Host pids whose command line contains `marker` (bwrap, the sandbox init and the server). */
export function pidsWithMarker(marker: string): number[] {
  return hostPids("cmdline", (text) => text.includes(marker));
}

/** Wait until no process carries `marker`; returns the survivors after `timeoutMs`. */
export function waitForNoMarker(marker: string, timeoutMs = 8000): Promise<number[]> {
  return waitUntilNone(() => pidsWithMarker(marker), timeoutMs);
}

/** Host pids whose real uid is `uid` (every process of a sandbox runs as its own uid). */
export function pidsOwnedBy(uid: number): number[] {
  return hostPids("status", (text) => Number(text.match(/^Uid:\s+(\d+)/m)?.[1]) === uid);
}

/** Wait until no process runs as `uid` (a dying PID namespace takes a moment to be reaped). */
export function waitForNoProcesses(uid: number, timeoutMs = 8000): Promise<number[]> {
  return waitUntilNone(() => pidsOwnedBy(uid), timeoutMs);
}

/**
 * Live slirp4netns processes serving the sandbox launched as host pid `launchPid` (its command line
 * names that pid as the namespace to serve). A zombie has an empty command line, so it never counts.
 */
export function slirpPidsFor(launchPid: number): number[] {
  return hostPids("cmdline", (text) => {
    const argv = text.split("\0");
    return path.basename(argv[0]) === "slirp4netns" && argv.includes(String(launchPid));
  });
}

/** Wait until no slirp4netns serves the sandbox of `launchPid`; returns the survivors after `timeoutMs`. */
export function waitForNoSlirp(launchPid: number, timeoutMs = 5000): Promise<number[]> {
  return waitUntilNone(() => slirpPidsFor(launchPid), timeoutMs);
}
