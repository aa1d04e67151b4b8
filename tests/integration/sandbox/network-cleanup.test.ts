/**
 * slirp4netns, the only way out of a `network: true` sandbox, must end with its sandbox however the
 * sandbox ends: closed, its server crashing, or the app that started it killed outright. Nothing
 * else ends it (its tap device keeps the namespace alive), and earlier it outlived its sandbox by
 * hours. Each launch is found by the pid the engine spawned, which slirp4netns names as its target.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseServerConfig } from "@/lib/mcp/config";
import { createSandboxWrapper } from "@/lib/mcp/sandbox";
import {
  callJson,
  fixturesDir,
  makeFakeData,
  pidsWithMarker,
  probePath,
  projectRoot,
  requireSandbox,
  slirpPidsFor,
  startSandboxed,
  waitForNoMarker,
  waitForNoSlirp,
  type FakeData,
} from "./helpers";

const CONFIG = { command: process.execPath, args: [probePath], read_only_paths: [fixturesDir], network: true };
let data: FakeData;
/** Every launch pid seen: survivors of a failed test are ended afterwards, never left running. */
const launches: number[] = [];

beforeAll(async () => {
  await requireSandbox();
  data = makeFakeData("network-cleanup");
});

afterAll(() => {
  for (const pid of launches.flatMap(slirpPidsFor)) process.kill(pid, "SIGKILL");
  data?.cleanup();
});

/**
 * The host pid of the probe server itself (bwrap's processes carry the marker too): the one whose
 * program is Node. By its argv[0], not its name: Node 24 names its main thread `MainThread`.
 */
function serverPid(marker: string): number {
  const [pid] = pidsWithMarker(marker).filter(
    (candidate) => readFileSync(`/proc/${candidate}/cmdline`, "utf8").split("\0")[0] === process.execPath,
  );
  if (pid === undefined) throw new Error("the probe server's process was not found");
  return pid;
}

// A network: true probe whose network is up (slirp4netns configured tap0), with its launch's pid.
async function startNetworked() {
  const sandboxed = await startSandboxed({ sandbox: { dataDir: data.dataDir, projectRoot }, config: CONFIG });
  const launchPid = sandboxed.transport.pid!;
  launches.push(launchPid);
  expect((await callJson(sandboxed.client, "identity")).interfaces).toContain("tap0");
  expect(slirpPidsFor(launchPid)).toHaveLength(1);
  return { sandboxed, launchPid };
}

describe("slirp4netns ends with its network: true sandbox", () => {
  it("after the server is closed", async () => {
    const { sandboxed, launchPid } = await startNetworked();
    try {
      // The network stays up while the sandbox runs.
      expect(slirpPidsFor(launchPid)).toHaveLength(1);
    } finally {
      await sandboxed.client.close();
    }
    expect(await waitForNoSlirp(launchPid)).toEqual([]);
    expect(await waitForNoMarker(sandboxed.marker)).toEqual([]);
  });

  it("after the server process is killed (a crash)", async () => {
    const { sandboxed, launchPid } = await startNetworked();
    try {
      process.kill(serverPid(sandboxed.marker), "SIGKILL");
      expect(await waitForNoSlirp(launchPid)).toEqual([]);
      expect(await waitForNoMarker(sandboxed.marker)).toEqual([]);
    } finally {
      await sandboxed.client.close().catch(() => undefined);
    }
  });

  it("after the app that started it is killed with SIGKILL", async () => {
    const marker = `sbx-app-kill-${randomUUID()}`;
    const config = parseServerConfig({ ...CONFIG, args: [probePath, `--marker=${marker}`] });
    const launch = await createSandboxWrapper({ dataDir: data.dataDir, projectRoot })(
      { command: config.command!, args: config.args!, env: { PATH: "/usr/bin:/bin" } },
      { userId: "alice", serverId: `app-kill-${randomUUID().slice(0, 8)}`, serverName: "probe", config },
    );
    // A stand-in for the app: spawns the launch as the engine's transport does (its own process
    // group, so no signal to the app reaches it), and says the launch's pid once the server answers.
    const appEnv: Record<string, string> = { LAUNCH: JSON.stringify(launch) };
    const app: ChildProcess = spawn(process.execPath, ["-e", APP], {
      env: appEnv as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "ignore"],
    });
    try {
      const launchPid = await new Promise<number>((resolve, reject) => {
        app.stdout!.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
        app.once("exit", () => reject(new Error("the stand-in app ended before the server answered")));
      });
      expect(launchPid).toBeGreaterThan(0);
      launches.push(launchPid);
      expect(slirpPidsFor(launchPid)).toHaveLength(1);
      app.kill("SIGKILL");
      expect(await waitForNoSlirp(launchPid)).toEqual([]);
      expect(await waitForNoMarker(marker)).toEqual([]);
    } finally {
      app.kill("SIGKILL");
    }
  });
});

const APP = `
const { spawn } = require("node:child_process");
const launch = JSON.parse(process.env.LAUNCH);
const child = spawn(launch.command, launch.args, { env: launch.env, cwd: launch.cwd, detached: true, stdio: ["pipe", "pipe", "ignore"] });
child.stdout.once("data", () => process.stdout.write(child.pid + "\\n"));
const params = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "app", version: "1" } };
child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params }) + "\\n");
setInterval(() => {}, 60000);
`;
