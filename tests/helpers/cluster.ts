/**
 * A cluster of the built app for the cluster tests and the cluster bench: N replicas (each its own
 * `scripts/start.mjs` process, port and data directory; one Postgres database, one Redis, the same
 * secret key and session secret) behind the round-robin proxy (tests/helpers/round-robin-proxy.ts),
 * on loopback. The public URL is the proxy's, as it would be a load balancer's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startNginx } from "./nginx";
import { freePort } from "./ports";
import { type RoundRobinProxy, startRoundRobinProxy } from "./round-robin-proxy";

/** One replica of the cluster. */
export interface Replica {
  id: string;
  port: number;
  /** `http://127.0.0.1:<port>`: straight to this replica, past the proxy. */
  direct: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything it printed since it last started. */
  log(): string;
  /** Kill it with `signal` (SIGKILL: a crash) and wait for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Start it again (same id, port and data directory) and wait until it is ready. */
  restart(): Promise<void>;
}

/** A running cluster. */
export interface Cluster {
  /** The front's base URL (`http://localhost:<port>`), the instance's public URL. */
  base: string;
  proxy: RoundRobinProxy;
  replicas: Replica[];
  /** The first run's setup code (read from the first replica's log). */
  setupCode(): string;
  stop(): Promise<void>;
}

/** What a cluster is started with. */
export interface ClusterOptions {
  replicas?: number;
  databaseUrl: string;
  redisUrl: string;
  /** More environment for every replica (the model, the allowed hosts…). */
  env?: Record<string, string>;
  /**
   * What stands at `base`: the round-robin proxy of the tests (default; it can `pin`), or Debian's
   * nginx with deploy/nginx.conf (the documented deployment; the proxy then runs on a port of its
   * own, for `check`).
   */
  front?: "proxy" | "nginx";
}

/** Wait until `url` answers 200 (or throw after `timeoutMs`, with `log()` in the message). */
async function waitReady(url: string, log: () => string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.status)
      .catch(() => 0);
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms:\n${log().slice(-3000)}`);
}

/** Resolve once nothing accepts connections on 127.0.0.1:`port` (within 10 s). */
async function waitClosed(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (!open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`something still listens on 127.0.0.1:${port}`);
}

/** Start a cluster of the built app (run `next build` first). */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.replicas ?? 2;
  const proxyPort = await freePort();
  const base = `http://localhost:${proxyPort}`;
  const shared = {
    SWITCHBOARD_SECRET_KEY: randomBytes(32).toString("base64"),
    NEXTAUTH_SECRET: randomBytes(32).toString("base64"),
  };
  const replicas: Replica[] = [];
  for (let i = 0; i < count; i++) {
    const id = String.fromCharCode(97 + i); // a, b, …
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `switchboard-replica-${id}-`));
    let output = "";
    let child: ChildProcess | null = null;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...options.env,
      ...shared,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      SWITCHBOARD_DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      SWITCHBOARD_REPLICA_ID: id,
      SWITCHBOARD_PUBLIC_URL: base,
      NEXTAUTH_URL: base,
      SWITCHBOARD_TRUSTED_PROXIES: "127.0.0.1,::1",
      SWITCHBOARD_SHUTDOWN_GRACE_SECONDS: options.env?.SWITCHBOARD_SHUTDOWN_GRACE_SECONDS ?? "1",
    };
    const launch = () => {
      output = "";
      const started = spawn(process.execPath, ["scripts/start.mjs"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      started.stdout?.on("data", (chunk) => (output += chunk));
      started.stderr?.on("data", (chunk) => (output += chunk));
      child = started;
      return started;
    };
    const replica: Replica = {
      id,
      port,
      direct: `http://127.0.0.1:${port}`,
      dataDir,
      process: launch(),
      log: () => output,
      async kill(signal = "SIGKILL") {
        const running = child;
        if (!running?.pid || running.exitCode !== null || running.signalCode !== null) return;
        const exited = new Promise((resolve) => running.once("exit", resolve));
        // The whole group: start.mjs and the server it runs.
        process.kill(-running.pid, signal);
        await exited;
        // start.mjs may exit before the server it runs: done once nothing listens on the port.
        await waitClosed(port);
      },
      async restart() {
        await replica.kill("SIGTERM");
        replica.process = launch();
        await waitReady(`${replica.direct}/api/health/ready`, replica.log);
      },
    };
    replicas.push(replica);
  }
  await Promise.all(replicas.map((r) => waitReady(`${r.direct}/api/health/ready`, r.log)));
  const upstreams = replicas.map((r) => ({ name: r.id, port: r.port }));
  const nginx =
    options.front === "nginx"
      ? await startNginx(
          replicas.map((r) => r.port),
          proxyPort,
        )
      : null;
  const proxy = await startRoundRobinProxy(upstreams, nginx ? {} : { port: proxyPort });
  return {
    base,
    proxy,
    replicas,
    setupCode() {
      const code = replicas.map((r) => /setup code: ([0-9A-Z-]+)/.exec(r.log())?.[1]).find(Boolean);
      if (!code) throw new Error("no replica printed a setup code");
      return code;
    },
    async stop() {
      await proxy.close();
      await nginx?.stop();
      await Promise.all(replicas.map((r) => r.kill("SIGTERM")));
      for (const r of replicas) fs.rmSync(r.dataDir, { recursive: true, force: true });
    },
  };
}
