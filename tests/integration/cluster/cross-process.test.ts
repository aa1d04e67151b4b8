/**
 * Process state that every replica must agree on, checked across real processes (tsx children on
 * the test's database and a real Redis):
 * - MCP Apps' loopback grants: the key is derived from the instance key, so a grant minted by one
 *   process verifies in another, both ways, and one minted under another instance key does not;
 * - content capture: an administrator's switch, stored and announced on one replica, reaches another
 *   within a second, both ways; a change that was never announced (Redis away when it was made)
 *   reaches it at its next periodic read.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { resetInstanceKey } from "@/db/key-check";
import { setInstanceMeta } from "@/db/queries/instance-meta";
import { sanitizeAppCsp } from "@/lib/apps/app-csp";
import { grantedAppCsp, withLoopbackGrant } from "@/lib/apps/loopback-grant";
import { RedisCoordination } from "@/lib/cluster";
import { CONTENT_CAPTURE_KEY, storeContentCapture, storedContentCapture } from "@/lib/runtime/telemetry";
import { setContentCapture } from "@/lib/telemetry/state";
import { startRedis, type TestRedis } from "../../helpers/redis";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

const TSX = path.join("node_modules", "tsx", "dist", "cli.mjs");
const GRANT_CHILD = path.join("tests", "fixtures", "cluster", "loopback-grant-process.ts");
const CAPTURE_CHILD = path.join("tests", "fixtures", "cluster", "content-capture-process.ts");
const KEY = Buffer.alloc(32, 11).toString("base64");
const OTHER_KEY = Buffer.alloc(32, 12).toString("base64");

let dir = "";
let redis: TestRedis;
let here: RedisCoordination;

beforeAll(async () => {
  vi.stubEnv("SWITCHBOARD_SECRET_KEY", KEY);
  dir = useTempDataDir();
  redis = await startRedis();
  here = new RedisCoordination(redis.url);
});

afterAll(async () => {
  setContentCapture(false);
  await here?.close();
  await redis?.stop();
  removeTempDataDir(dir);
  vi.unstubAllEnvs();
  resetInstanceKey();
});

/** Run the grant child once; resolves to the metadata it printed. */
function grantChild(mode: "mint" | "check", userId: string, csp: unknown, key = KEY): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [TSX, GRANT_CHILD, mode, userId, JSON.stringify(csp)], {
      env: { ...process.env, SWITCHBOARD_SECRET_KEY: key },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    proc.stderr.on("data", (chunk) => (err += chunk));
    proc.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}")) : reject(new Error(`child ${code}: ${err}`)),
    );
  });
}

describe("MCP Apps' loopback grants across processes", () => {
  const approved = sanitizeAppCsp(
    { connectDomains: ["https://api.example.com", "http://localhost:5432"], frameDomains: ["http://localhost"] },
    { loopback: true },
  );
  const loopbackKept = (csp: Record<string, unknown>) => (csp.connectDomains as string[]).includes("http://localhost:5432");

  it("a grant minted in another process verifies here, and one minted here verifies there", async () => {
    const minted = await grantChild("mint", "alice", approved);
    expect(minted.loopbackGrant).toEqual(expect.any(String));
    expect(loopbackKept(grantedAppCsp(minted, "alice") as Record<string, unknown>)).toBe(true);
    expect(loopbackKept(grantedAppCsp(minted, "bob") as Record<string, unknown>)).toBe(false);
    expect(loopbackKept(await grantChild("check", "alice", withLoopbackGrant(approved, "alice")))).toBe(true);
  });

  it("a process under another instance key mints grants this one refuses", async () => {
    const foreign = await grantChild("mint", "alice", approved, OTHER_KEY);
    expect(loopbackKept(grantedAppCsp(foreign, "alice") as Record<string, unknown>)).toBe(false);
  });
});

/** Another replica following content capture; `states` collects what it printed, in order. */
function captureChild(rereadMs: number): { proc: ChildProcessWithoutNullStreams; states: string[]; errors: () => string } {
  const proc = spawn(process.execPath, [TSX, CAPTURE_CHILD, redis.url, String(rereadMs)], { env: process.env });
  const states: string[] = [];
  let err = "";
  let partial = "";
  proc.stdout.on("data", (chunk) => {
    partial += chunk;
    const lines = partial.split("\n");
    partial = lines.pop() ?? "";
    states.push(...lines.filter(Boolean));
  });
  proc.stderr.on("data", (chunk) => (err += chunk));
  return { proc, states, errors: () => err };
}

async function waitFor(check: () => boolean, ms: number, what: () => string): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`timed out: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

async function stopChild(proc: ChildProcessWithoutNullStreams): Promise<void> {
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.stdin.end();
  await exited;
}

describe("the content-capture switch across processes", () => {
  it("turned on and off on this replica, it reaches the other within a second", async () => {
    expect(await storedContentCapture(getDb())).toBe(false);
    const other = captureChild(60_000);
    try {
      const last = () => `${other.states.join(",")} ${other.errors()}`;
      await waitFor(() => other.states.at(-1) === "off", 20_000, last);
      await storeContentCapture(getDb(), true, here);
      expect(await waitFor(() => other.states.at(-1) === "on", 1_000, last)).toBeLessThan(1_000);
      await storeContentCapture(getDb(), false, here);
      expect(await waitFor(() => other.states.at(-1) === "off", 1_000, last)).toBeLessThan(1_000);
      expect(other.states).toEqual(["off", "on", "off"]);
    } finally {
      await stopChild(other.proc);
    }
  }, 40_000);

  it("a change no announcement told of (Redis away at the time) reaches it at its next periodic read", async () => {
    const other = captureChild(300);
    try {
      const last = () => `${other.states.join(",")} ${other.errors()}`;
      await waitFor(() => other.states.at(-1) === "off", 20_000, last);
      // Stored without the announcement, as when the publish could not reach Redis.
      await setInstanceMeta(getDb(), CONTENT_CAPTURE_KEY, "on");
      await waitFor(() => other.states.at(-1) === "on", 2_000, last);
      await setInstanceMeta(getDb(), CONTENT_CAPTURE_KEY, "off");
      await waitFor(() => other.states.at(-1) === "off", 2_000, last);
    } finally {
      await stopChild(other.proc);
    }
  }, 40_000);
});
