/**
 * Escape attempts from inside the sandbox, made by a real MCP server (the probe fixture) started
 * through the wrapper and the SDK's stdio client. Every attempt must fail or be bounded, and this
 * test process must stay responsive throughout.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseServerConfig } from "@/lib/mcp/config";
import { createSandboxWrapper } from "@/lib/mcp/sandbox";
import { sandboxUid } from "@/lib/mcp/sandbox/identity";
import {
  callJson,
  fixturesDir,
  makeFakeData,
  waitForNoProcesses,
  probePath,
  projectRoot,
  requireSandbox,
  startSandboxed,
  waitForNoMarker,
  type FakeData,
  type Sandboxed,
} from "./helpers";

// The persistent home (homeBytes: null) and no CPU quota here (a throttled fork bomb skews the
// /proc sampling); the whole-sandbox limits have their own tests below.
const LIMITS = { processes: 64, fileSizeBytes: 8 * 1024 * 1024, memoryBytes: 1024 * 1024 * 1024, homeBytes: null, groupCpus: null };
const HOST_SECRET = `host-secret-${process.pid}-${Date.now()}`;

let data: FakeData;
let probe: Sandboxed;
let probeUid: number;
let health: { server: http.Server; failures: number; worstMs: number; timer: NodeJS.Timeout };
let trap: { server: net.Server; port: number; connections: number };

function startHealth(): typeof health {
  const server = http.createServer((_req, res) => res.end("ok")).listen(0, "127.0.0.1");
  const state = { server, failures: 0, worstMs: 0, timer: undefined as unknown as NodeJS.Timeout };
  state.timer = setInterval(() => {
    const started = Date.now();
    const req = http.get({ host: "127.0.0.1", port: (server.address() as net.AddressInfo).port, timeout: 2000 }, (res) => {
      res.resume();
      res.on("end", () => (state.worstMs = Math.max(state.worstMs, Date.now() - started)));
    });
    req.on("error", () => state.failures++);
    req.on("timeout", () => req.destroy(new Error("timeout")));
  }, 100);
  return state;
}

beforeAll(async () => {
  await requireSandbox();
  // Would be readable through /proc/<ppid>/environ if the sandbox shared our PID namespace.
  process.env.SWITCHBOARD_TEST_HOST_SECRET = HOST_SECRET;
  health = startHealth();
  const trapServer = net.createServer((socket) => {
    trap.connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trapServer.listen(0, "127.0.0.1", resolve));
  trap = { server: trapServer, port: (trapServer.address() as net.AddressInfo).port, connections: 0 };
  data = makeFakeData(HOST_SECRET);
  probe = await startSandboxed({
    sandbox: { dataDir: data.dataDir, projectRoot, limits: LIMITS },
    config: { command: process.execPath, args: [probePath], env: { PROBE_CONFIG_TOKEN: "from-config" }, read_only_paths: [fixturesDir] },
  });
  probeUid = (await callJson(probe.client, "identity")).uid;
});

afterAll(async () => {
  if (process.env.SANDBOX_TEST_DEBUG) console.error(probe?.stderr());
  await probe?.client.close().catch(() => undefined);
  if (health) {
    clearInterval(health.timer);
    health.server.close();
  }
  trap?.server.close();
  data?.cleanup();
  delete process.env.SWITCHBOARD_TEST_HOST_SECRET;
});

describe("sandbox escape attempts", () => {
  it("runs as an unprivileged uid in its own PID, network and UTS namespaces", async () => {
    const seen = await callJson(probe.client, "identity");
    expect(seen.uid).toBeGreaterThan(0);
    expect(seen.gid).toBeGreaterThan(0);
    expect(seen.user).toEqual({ ok: true, value: "sandbox" });
    expect(seen.hostname).toBe("sandbox");
    expect(seen.interfaces).toEqual(["lo"]);
    expect(seen.cwd).toBe("/home/sandbox");
    // Only the sandbox's init (bwrap), the inner bwrap (its parent) and the server itself exist
    // in its PID namespace: no host process is visible.
    expect(seen.pids).toEqual([1, seen.ppid, seen.pid]);
    expect(seen.pid).toBeLessThan(10);
  });

  it("cannot create a user namespace of its own", async () => {
    const seen = await callJson(probe.client, "new_user_namespace");
    expect(seen.status).not.toBe(0);
    expect(seen.stdout).toBe("");
  });

  it("gets exactly the launch environment, with HOME and TMPDIR inside the sandbox (and bwrap's PWD)", async () => {
    const env = await callJson<Record<string, string>>(probe.client, "env");
    expect(env).toEqual({
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: "/home/sandbox",
      TMPDIR: "/tmp",
      LANG: "C.UTF-8",
      USER: "root",
      npm_config_cache: "/home/sandbox/.npm",
      PROBE_CONFIG_TOKEN: "from-config",
      PWD: "/home/sandbox",
    });
  });

  it("cannot read the parent's or the host's /proc/<pid>/environ and cmdline", async () => {
    const seen = await callJson<Record<string, { ok: boolean; value?: string; code?: string }>>(probe.client, "proc_peek", {
      pids: [process.pid, process.ppid],
    });
    for (const [file, result] of Object.entries(seen)) {
      if (result.ok) expect(result.value, file).not.toContain(HOST_SECRET);
    }
    // pid 1 inside is bwrap's init, running as root: its environment is closed to the server.
    // The parent is the inner bwrap (same uid): it holds the server's own environment only.
    expect(seen["/proc/1/environ"].ok).toBe(false);
    // Our own pid does not exist in the sandbox's PID namespace (or is a different process).
    expect(seen[`/proc/${process.pid}/environ`].ok).toBe(false);
  });

  it("cannot read the app's database, key file or another user's sandbox home", async () => {
    const paths = [
      data.dbPath,
      data.keyPath,
      data.otherSecret,
      "/etc/shadow",
      "/root/.bash_history",
      path.join(projectRoot, "package.json"),
    ];
    const seen = await callJson<Record<string, { ok: boolean; code?: string }>>(probe.client, "read_files", { paths });
    for (const file of paths) expect(seen[file], file).toMatchObject({ ok: false });
    expect(JSON.stringify(seen)).not.toContain(HOST_SECRET);
  });

  it("cannot list /root, the data directory or other users' homes", async () => {
    const dirs = ["/root", data.dataDir, path.join(data.dataDir, "sandboxes"), data.otherHome, "/home"];
    const seen = await callJson<Record<string, { ok: boolean; value?: string[] }>>(probe.client, "list_dirs", { paths: dirs });
    for (const dir of dirs.slice(0, 4)) expect(seen[dir], dir).toMatchObject({ ok: false });
    // /home holds only the sandbox's own home.
    expect(seen["/home"]).toEqual({ ok: true, value: ["sandbox"] });
  });

  it("can write only to its own home and /tmp", async () => {
    const outside = [
      "/usr/x",
      "/etc/x",
      "/x",
      path.join(data.dataDir, "x"),
      path.join(fixturesDir, "x"),
      path.join(projectRoot, "node_modules", "x"),
    ];
    const inside = ["/home/sandbox/written.txt", "/tmp/written.txt"];
    const seen = await callJson<Record<string, { ok: boolean }>>(probe.client, "write_files", { paths: [...outside, ...inside] });
    for (const file of outside) {
      expect(seen[file], file).toMatchObject({ ok: false });
      expect(existsSync(file), file).toBe(false);
    }
    for (const file of inside) expect(seen[file], file).toEqual({ ok: true });
    const homeOnHost = path.join(data.dataDir, "sandboxes", "alice");
    const [server] = readdirSync(homeOnHost);
    expect(readFileSync(path.join(homeOnHost, server, "written.txt"), "utf8")).toBe("written from the sandbox");
  });

  it("cannot connect to a port on the host's loopback", async () => {
    const seen = await callJson(probe.client, "connect", { host: "127.0.0.1", port: trap.port });
    expect(seen.connected).toBe(false);
    expect(trap.connections).toBe(0);
  });

  it("hits the process limit when spawning many children", async () => {
    const seen = await callJson(probe.client, "spawn_many", { count: 200 });
    expect(seen.started).toBeLessThan(LIMITS.processes);
    expect(seen.failed).toBeGreaterThan(0);
    expect(seen.errors).toContain("EAGAIN");
  });

  it("keeps a shell fork bomb below the process limit", async () => {
    const seen = await callJson(probe.client, "fork_bomb", { seconds: 3 }, 45_000);
    expect(seen.started).toBe(true);
    // It ran into the limit: the shells report failed forks. The peak is /proc listed from inside,
    // which is no snapshot: while the bomb's shells fork and die, one listing can hold both the
    // ones that just exited and their successors, more so on a loaded machine (77 and 83 seen
    // against 64 during a CI rehearsal). So the peak only shows the bomb stayed bounded — an
    // unbounded one doubles past any small multiple within the 3 s; the cgroup test below checks
    // the kernel's own count exactly.
    expect(seen.forkErrors).toBeGreaterThan(0);
    expect(seen.peak).toBeLessThanOrEqual(2 * LIMITS.processes);
    expect(seen.after).toBe(0);
    // The server is still usable afterwards.
    expect((await callJson(probe.client, "identity")).uid).toBe(probeUid);
  });

  it("hits the file-size limit", async () => {
    const seen = await callJson(probe.client, "write_big", { path: "/home/sandbox/big.bin", maxBytes: 64 * 1024 * 1024 });
    expect(seen.error).toBe("EFBIG");
    expect(seen.size).toBeLessThanOrEqual(LIMITS.fileSizeBytes);
  });

  it("hits the memory limit", async () => {
    const seen = await callJson(probe.client, "alloc", { bytes: 1024 * 1024 * 1024 });
    expect(seen.ok).toBe(false);
  });

  it("survives flooding stdout with non-protocol output", async () => {
    const before = probe.protocolErrors();
    const seen = await callJson(probe.client, "flood_stdout", { bytes: 32 * 1024 * 1024 }, 60_000);
    expect(seen.sent).toBeGreaterThanOrEqual(32 * 1024 * 1024);
    expect(probe.protocolErrors()).toBeGreaterThan(before);
    expect((await callJson(probe.client, "identity")).uid).toBe(probeUid);
  });

  it("kept this process responsive throughout", () => {
    expect(health.failures).toBe(0);
    expect(health.worstMs).toBeLessThan(2000);
  });

  it("leaves no process alive after close", async () => {
    await probe.client.close();
    expect(await waitForNoMarker(probe.marker)).toEqual([]);
    expect(await waitForNoProcesses(probeUid)).toEqual([]);
  });
});

describe("sandbox limits that end the server", () => {
  it("kills a server that exceeds its CPU time, and leaves nothing behind", async () => {
    const burner = await startSandboxed({
      sandbox: { dataDir: data.dataDir, projectRoot, limits: { cpuSeconds: 1 } },
      config: { command: process.execPath, args: [probePath], read_only_paths: [fixturesDir] },
    });
    const uid = (await callJson(burner.client, "identity")).uid;
    await expect(callJson(burner.client, "burn_cpu", { seconds: 10 })).rejects.toThrow(/closed/i);
    await burner.client.close();
    expect(await waitForNoMarker(burner.marker)).toEqual([]);
    expect(await waitForNoProcesses(uid)).toEqual([]);
  });
});

describe("sandbox with network: true", () => {
  it("reaches the internet but not the host's loopback, its private addresses or the metadata address", async () => {
    // A trap on every interface: reachable through the host's private address too, were it not blocked.
    const wide = net.createServer((socket) => {
      wideConnections++;
      socket.destroy();
    });
    let wideConnections = 0;
    await new Promise<void>((resolve) => wide.listen(0, "0.0.0.0", resolve));
    const widePort = (wide.address() as net.AddressInfo).port;
    const privateAddress = Object.values(os.networkInterfaces())
      .flat()
      .find((entry) => entry?.family === "IPv4" && !entry.internal)?.address;
    const before = trap.connections;
    const networked = await startSandboxed({
      sandbox: { dataDir: data.dataDir, projectRoot },
      config: { command: process.execPath, args: [probePath], read_only_paths: [fixturesDir], network: true },
    });
    try {
      const connect = (host: string, port: number) => callJson(networked.client, "connect", { host, port, timeoutMs: 3000 });
      expect(await connect("127.0.0.1", trap.port)).toMatchObject({ connected: false });
      expect(await connect("10.0.2.2", trap.port)).toMatchObject({ connected: false }); // slirp's alias for the host
      if (privateAddress) expect(await connect(privateAddress, widePort)).toMatchObject({ connected: false });
      expect(await connect("169.254.169.254", 80)).toMatchObject({ connected: false });
      expect(await connect("192.168.0.1", 80)).toMatchObject({ connected: false });
      expect(trap.connections).toBe(before);
      expect(wideConnections).toBe(0);
      // The internet (the npm registry is what this machine reaches), by name through slirp's DNS.
      expect(await connect("registry.npmjs.org", 443)).toMatchObject({ connected: true });
      // Still cannot read the app's secrets.
      const seen = await callJson(networked.client, "read_files", { paths: [data.keyPath] });
      expect(seen[data.keyPath].ok).toBe(false);
    } finally {
      await networked.client.close();
      wide.close();
    }
    expect(await waitForNoMarker(networked.marker)).toEqual([]);
  });
});

describe("whole-sandbox limits (control group and home size)", () => {
  // Per-process limits off, so what stops the server here is the limit on the whole sandbox.
  const GROUP = {
    processes: null,
    memoryBytes: null,
    fileSizeBytes: null,
    groupProcesses: 64,
    groupMemoryBytes: 256 * 1024 * 1024,
    homeBytes: 16 * 1024 * 1024,
  };
  const HOME_SERVER = `grouped-${process.pid}`;
  const start = () =>
    startSandboxed({
      sandbox: { dataDir: data.dataDir, projectRoot, limits: GROUP },
      config: { command: process.execPath, args: [probePath], read_only_paths: [fixturesDir] },
      serverId: HOME_SERVER,
    });
  let grouped: Sandboxed;
  beforeAll(async () => {
    grouped = await start();
  });
  afterAll(async () => {
    await grouped?.client.close().catch(() => undefined);
  });

  it("reports nothing as unenforced on this host (cgroups and the home image are available as root)", () => {
    expect(grouped.stderr()).not.toContain("not enforced");
    expect(grouped.stderr()).not.toContain("kept in memory");
  });

  it("stops a memory bomb spread over processes at the sandbox-wide memory limit", async () => {
    const seen = await callJson(grouped.client, "alloc_many", { count: 4, bytes: 128 * 1024 * 1024 }, 60_000);
    expect(seen.killed).toBeGreaterThan(0);
    expect(seen.completed).toBeLessThan(4);
    expect((await callJson(grouped.client, "identity")).uid).toBeGreaterThan(0);
  });

  it("stops a fork bomb at the sandbox-wide process limit", async () => {
    const uid = (await callJson(grouped.client, "identity")).uid;
    const group = `/sys/fs/cgroup/pids/switchboard/sandbox-${uid}`;
    // The kernel's own count of the group's tasks, sampled from outside while the bomb runs. (The
    // /proc view from inside also lists tasks already exiting and uncharged: on a loaded machine a
    // few dozen of them, so it is no measure of the limit.)
    let charged = 0;
    const sampler = setInterval(() => {
      charged = Math.max(charged, Number(readFileSync(`${group}/pids.current`, "utf8")));
    }, 5);
    const seen = await callJson(grouped.client, "fork_bomb", { seconds: 3 }, 45_000).finally(() => clearInterval(sampler));
    expect(seen.forkErrors).toBeGreaterThan(0);
    // Forks refused at the group's limit (v1 pids controller on this host), and never more charged.
    const events = readFileSync(`${group}/pids.events`, "utf8");
    expect(Number(/max (\d+)/.exec(events)?.[1])).toBeGreaterThan(0);
    expect(charged).toBeGreaterThan(GROUP.groupProcesses / 2);
    expect(charged).toBeLessThanOrEqual(GROUP.groupProcesses);
    expect(seen.after).toBe(0);
  });

  it("stops filling the home at its cap, and on the data disk only the home's own image grows, to at most the cap", async () => {
    const image = path.join(data.dataDir, "sandboxes", "alice", `${HOME_SERVER}.img`);
    const othersBefore = diskUseOutside(data.dataDir, image);
    const seen = await callJson(grouped.client, "write_big", { path: "/home/sandbox/fill.bin", maxBytes: 64 * 1024 * 1024 });
    expect(seen.error).toBe("ENOSPC");
    expect(seen.size).toBeLessThanOrEqual(GROUP.homeBytes);
    expect(seen.size).toBeGreaterThan(GROUP.homeBytes / 2);
    // Sparse: the image takes what the home holds, never more than its cap.
    expect(statSync(image).blocks * 512).toBeLessThanOrEqual(GROUP.homeBytes);
    expect(diskUseOutside(data.dataDir, image)).toBe(othersBefore);
  });

  it("keeps the home's files across a restart of the server, and frees the mount when it ends", async () => {
    const file = "/home/sandbox/kept.txt";
    expect((await callJson(grouped.client, "write_files", { paths: [file] }))[file].ok).toBe(true);
    await grouped.client.close();
    expect(await waitForNoMarker(grouped.marker)).toEqual([]);
    // The mount lived only in the sandbox's own mount namespace: no loop device stays attached.
    const image = path.join(data.dataDir, "sandboxes", "alice", `${HOME_SERVER}.img`);
    await waitForDetached(image);
    grouped = await start();
    const seen = await callJson(grouped.client, "read_files", { paths: [file] });
    expect(seen[file]).toEqual({ ok: true, value: "written from the sandbox" });
    expect(readFileSync("/proc/self/mountinfo", "utf8")).not.toContain(path.join("sandboxes", "alice", HOME_SERVER));
  });

  it("throttles a CPU-burning server to its CPU quota (CPU time over wall time from the group's own counters)", async () => {
    // The group's process limit is the default here, not GROUP's 64: pids.max counts threads, and
    // the probe (11) plus eight node children (7 each at start) need 67. A node child that cannot
    // create its worker threads at start waits for them forever (stuck in a futex, using no CPU),
    // so under 64 one child hung and the call never came back (what this test ran into before).
    const half = await startSandboxed({
      sandbox: { dataDir: data.dataDir, projectRoot, limits: { ...GROUP, groupProcesses: 256, groupCpus: 0.1, homeBytes: null } },
      config: { command: process.execPath, args: [probePath], read_only_paths: [fixturesDir] },
    });
    try {
      const uid = (await callJson(half.client, "identity")).uid;
      const group = (controller: string, file: string) =>
        readFileSync(`/sys/fs/cgroup/${controller}/switchboard/sandbox-${uid}/${file}`, "utf8");
      const throttled = () => Number(/nr_throttled (\d+)/.exec(group("cpu", "cpu.stat"))?.[1]);
      expect(group("cpu", "cpu.cfs_quota_us").trim()).toBe("10000");
      const usageBefore = Number(group("cpuacct", "cpuacct.usage"));
      const throttledBefore = throttled();
      const wallStart = process.hrtime.bigint();
      // Eight spinning processes want eight cores: far more than the tenth of one the group may use,
      // even on a machine so busy that they would get only a fraction of its two cores. Starting
      // them at a tenth of a core takes a few seconds of wall time (about 7 s in all on this host).
      const seen = await callJson(half.client, "burn_cpu_children", { count: 8, seconds: 3, giveUpSeconds: 30 }, 40_000);
      const wallNs = Number(process.hrtime.bigint() - wallStart);
      const cpuNs = Number(group("cpuacct", "cpuacct.usage")) - usageBefore;
      if (process.env.SANDBOX_TEST_DEBUG) console.error({ cpuNs, wallNs, ratio: cpuNs / wallNs, throttled: throttled() - throttledBefore });
      expect(seen.ends).toEqual(Array(8).fill("exit 0"));
      // The group gets a tenth of a core, however many processes ask (plus a period's slack).
      expect(cpuNs / wallNs).toBeLessThanOrEqual(0.15);
      expect(cpuNs / wallNs).toBeGreaterThan(0.02);
      expect(throttled() - throttledBefore).toBeGreaterThan(5);
    } finally {
      await half.client.close();
    }
  });
});

/** Bytes on disk of every file under `dir` except `skip` (the home image). */
function diskUseOutside(dir: string, skip: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (full === skip || !entry.isFile()) continue;
    total += statSync(full).blocks * 512;
  }
  return total;
}

async function waitForDetached(image: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const attached = spawnSync("/usr/sbin/losetup", ["-j", image], { encoding: "utf8" }).stdout.trim();
    if (attached === "") return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${image} is still attached to a loop device`);
}

describe("engine-style shutdown", () => {
  it("killing the process group of a detached launch ends the whole sandbox", async () => {
    const marker = `sbx-group-${process.pid}-${Date.now()}`;
    const config = parseServerConfig({
      command: process.execPath,
      args: [probePath, `--marker=${marker}`],
      read_only_paths: [fixturesDir],
    });
    const launch = await createSandboxWrapper({ dataDir: data.dataDir, projectRoot })(
      { command: config.command!, args: config.args!, env: { PATH: "/usr/bin:/bin" } },
      { userId: "alice", serverId: "group-kill", serverName: "probe", config },
    );
    // As the engine's transport does: its own process group, killed as a whole on close.
    const child = spawn(launch.command, launch.args, {
      env: launch.env as NodeJS.ProcessEnv,
      cwd: launch.cwd,
      detached: true,
      stdio: ["pipe", "pipe", "ignore"],
    });
    const firstLine = new Promise<string>((resolve) => child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString())));
    child.stdin!.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`,
    );
    expect(await firstLine).toContain('"result"');
    expect((await waitForNoMarker(marker, 0)).length).toBeGreaterThanOrEqual(3); // bwrap, its init, the inner bwrap, the server
    process.kill(-child.pid!, "SIGKILL");
    expect(await waitForNoMarker(marker)).toEqual([]);
    expect(await waitForNoProcesses(sandboxUid("alice", "group-kill"))).toEqual([]);
  });
});
