/**
 * A replica's stop as a load balancer sees it (docs/deployment.md#run-with-a-container): a second
 * instance of the built app with SWITCHBOARD_SHUTDOWN_GRACE_SECONDS=4 gets SIGTERM; from then on
 * `/api/health/ready` answers 503 draining while it still serves (liveness 200, a page still
 * loads), and only after the grace does it stop taking connections and exit 0. Every answer names
 * the replica that served it (`X-Switchboard-Replica`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../helpers/ports";
import { freshDatabaseEnv } from "./helpers/database";

const GRACE_SECONDS = 4;
let server: ChildProcess | undefined;
let log = "";
let base = "";
let dataDir = "";

test.beforeAll(async () => {
  const port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-drain-"));
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    SWITCHBOARD_DATA_DIR: dataDir,
    SWITCHBOARD_SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    ...(await freshDatabaseEnv("drain")),
  };
  server = spawn(process.execPath, ["scripts/start.mjs"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  server.stdout?.on("data", (chunk) => (log += chunk));
  server.stderr?.on("data", (chunk) => (log += chunk));
  await expect
    .poll(async () => (await fetch(`${base}/api/health/ready`).catch(() => null))?.status, { timeout: 120_000, intervals: [500] })
    .toBe(200);
});

test.afterAll(() => {
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, "SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("every answer names the replica that served it: the id the start printed", async () => {
  const id = /switchboard: replica ([0-9a-f]{8})/.exec(log)?.[1];
  expect(id).toBeTruthy();
  expect((await fetch(`${base}/api/health`)).headers.get("x-switchboard-replica")).toBe(id);
  expect((await fetch(`${base}/signin`)).headers.get("x-switchboard-replica")).toBe(id);
});

test("on SIGTERM readiness answers 503 draining at once, the server serves through the grace, then exits 0", async () => {
  const exited = new Promise<number | null>((resolve) => server?.once("exit", (code) => resolve(code)));
  const signalled = Date.now();
  server?.kill("SIGTERM");

  await expect
    .poll(async () => (await fetch(`${base}/api/health/ready`).catch(() => null))?.status, { timeout: 3_000, intervals: [100] })
    .toBe(503);
  const ready = await fetch(`${base}/api/health/ready`);
  expect(await ready.json()).toMatchObject({ ok: false, draining: true });
  // Still serving: liveness, and a page.
  expect((await fetch(`${base}/api/health`)).status).toBe(200);
  expect((await fetch(`${base}/signin`)).status).toBe(200);

  expect(await exited).toBe(0);
  // Not before the grace (measured from the signal: an upper bound would only measure the machine).
  expect(Date.now() - signalled).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 200);
  await expect(fetch(`${base}/api/health`)).rejects.toThrow();
  expect(log).not.toMatch(/unhandled|failed \(/i);
});
