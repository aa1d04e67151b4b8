/**
 * A throw-away Redis for tests: Debian's `redis-server` on a free loopback port, nothing saved to
 * disk (no RDB snapshots, no append-only file), its working directory a temp dir deleted at stop.
 * No system service is involved.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, waitForPort } from "./ports";

/** A running throw-away Redis. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Kill the server (its data is gone: nothing is persisted), keeping its port for `start`. */
  kill(): Promise<void>;
  /** Start it again, empty, on the same port. */
  start(): Promise<void>;
  /** Stop the server and delete its directory. */
  stop(): Promise<void>;
}

/** The `redis-server` binary, or a clear error naming the package to install. */
export function redisServerBinary(): string {
  for (const candidate of ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]) if (fs.existsSync(candidate)) return candidate;
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  if (found.status === 0 && found.stdout.trim()) return found.stdout.trim();
  throw new Error("no redis-server: install Debian's redis-server (apt-get install -y redis-server; npm test does it as root)");
}

/** Start a Redis on a free loopback port (or `options.port`). */
export async function startRedis(options: { port?: number } = {}): Promise<TestRedis> {
  const binary = redisServerBinary();
  const port = options.port ?? (await freePort());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-redis-"));
  let child: ChildProcess | null = null;

  const start = async () => {
    child = spawn(
      binary,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--protected-mode", "yes"],
      { stdio: "ignore" },
    );
    await waitForPort(port, 10_000);
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    async stop() {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
