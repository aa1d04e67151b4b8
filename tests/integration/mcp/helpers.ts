/**
 * Shared helpers for the MCP engine's integration tests: server definitions for the real servers
 * and fixtures, free ports, and waiting for an HTTP server to listen.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { parseServerConfig, type ServerDefinition } from "@/lib/mcp/config";

export const ROOT = path.resolve(__dirname, "../../..");
export const EVERYTHING = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const FIXTURES = path.join(ROOT, "tests/fixtures/mcp");

/** A validated server definition. */
export function def(name: string, config: Record<string, unknown>, id = name): ServerDefinition {
  return { id, name, config: parseServerConfig(config, name) };
}

/** A stdio definition for a fixture script under tests/fixtures/mcp. */
export function fixture(name: string, script: string, extra: Record<string, unknown> = {}, id = name): ServerDefinition {
  return def(name, { command: process.execPath, args: [path.join(FIXTURES, script)], ...extra }, id);
}

export { freePort } from "../../helpers/ports";

/** Start a process and wait until `url` answers (any HTTP status). */
export async function startHttpServer(args: string[], env: Record<string, string>, url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early with ${child.exitCode}`);
    try {
      await fetch(url, { method: "GET", signal: AbortSignal.timeout(1000) }).then((r) => r.body?.cancel());
      return child;
    } catch {
      await new Promise((r) => setTimeout(r, 200)); // not listening yet: poll again
    }
  }
  child.kill("SIGKILL");
  throw new Error(`server at ${url} did not start`);
}

/** Stop a server started by `startHttpServer`. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/** Whether a PID is alive (signal 0 probes without killing). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false; // ESRCH: gone
  }
}

/** Poll `check` until it returns true or the timeout passes. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
