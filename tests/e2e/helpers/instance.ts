/**
 * A second, fresh instance of the built app for the specs that start one the way an administrator
 * does (`scripts/start.mjs`, bound to 127.0.0.1 with HOSTNAME): its own port and data directory,
 * and on Postgres its own empty database (tests/e2e/helpers/database.ts); no public URL, so it
 * follows the loopback address each request uses.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";
import { freePort } from "../../helpers/ports";
import { freshDatabaseEnv } from "./database";

/** A running instance; `log()` is everything it printed so far. */
export interface Instance {
  base: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  log(): string;
  /** Stop it (the whole process group: start.mjs and the server it runs) if it still runs, and delete its data. */
  stop(): void;
}

/** Start an instance named `name` (its data dir and database) with `env` added, once `/api/health` answers 200. */
export async function startInstance(name: string, env: Record<string, string> = {}): Promise<Instance> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `switchboard-${name}-`));
  const base = `http://127.0.0.1:${port}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    SWITCHBOARD_DATA_DIR: dataDir,
    ...(await freshDatabaseEnv(name.replace(/\W/g, "_"))),
    ...env,
  };
  delete childEnv.NEXTAUTH_URL;
  delete childEnv.SWITCHBOARD_PUBLIC_URL;
  const child = spawn(process.execPath, ["scripts/start.mjs"], { env: childEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout?.on("data", (chunk) => (log += chunk));
  child.stderr?.on("data", (chunk) => (log += chunk));
  await expect
    .poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status, { timeout: 120_000, intervals: [500] })
    .toBe(200);
  return {
    base,
    port,
    dataDir,
    process: child,
    log: () => log,
    stop() {
      if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, "SIGTERM");
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
