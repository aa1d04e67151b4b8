/**
 * Whole-sandbox control groups on both layouts, against fake cgroup roots in a temp directory:
 * cgroup v2 (one unified tree, detected by `cgroup.controllers`) and the v1 controllers.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { prepareGroup, reapIdleGroups } from "@/lib/mcp/sandbox/cgroups";

const LIMITS = { memoryBytes: 256 * 1024 * 1024, processes: 64, cpus: 0.5 };
let root = "";

function fakeRoot(entries: string[]): string {
  root = mkdtempSync(path.join(os.tmpdir(), "cgroup-root-"));
  for (const entry of entries) {
    if (entry.endsWith("/")) mkdirSync(path.join(root, entry), { recursive: true });
    else writeFileSync(path.join(root, entry), "");
  }
  return root;
}

const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), "utf8");

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("prepareGroup", () => {
  it("on cgroup v2 writes memory.max, pids.max and cpu.max in one group and enables the controllers above it", async () => {
    fakeRoot(["cgroup.controllers"]);
    const placement = await prepareGroup("sandbox-7", LIMITS, root);
    expect(placement).toEqual({
      procsFiles: [path.join(root, "switchboard/sandbox-7/cgroup.procs")],
      notEnforced: [],
      // Where the kernel counts what the limits did (lib/mcp/sandbox/exit-cause.ts).
      counters: {
        memoryKills: path.join(root, "switchboard/sandbox-7/memory.events"),
        processLimitHits: path.join(root, "switchboard/sandbox-7/pids.events"),
      },
    });
    expect(read("switchboard/sandbox-7/memory.max")).toBe(String(LIMITS.memoryBytes));
    expect(read("switchboard/sandbox-7/memory.swap.max")).toBe("0");
    expect(read("switchboard/sandbox-7/pids.max")).toBe("64");
    expect(read("switchboard/sandbox-7/cpu.max")).toBe("50000 100000");
  });

  it("on cgroup v1 writes each controller's own group, and joins cpuacct to measure CPU time", async () => {
    fakeRoot(["memory/", "pids/", "cpu/", "cpuacct/"]);
    const placement = await prepareGroup("sandbox-7", LIMITS, root);
    expect(placement.notEnforced).toEqual([]);
    expect(placement.procsFiles.map((file) => path.relative(root, file))).toEqual([
      "memory/switchboard/sandbox-7/cgroup.procs",
      "pids/switchboard/sandbox-7/cgroup.procs",
      "cpu/switchboard/sandbox-7/cgroup.procs",
      "cpuacct/switchboard/sandbox-7/cgroup.procs",
    ]);
    expect(read("memory/switchboard/sandbox-7/memory.limit_in_bytes")).toBe(String(LIMITS.memoryBytes));
    expect(read("pids/switchboard/sandbox-7/pids.max")).toBe("64");
    expect(read("cpu/switchboard/sandbox-7/cpu.cfs_quota_us")).toBe("50000");
    expect(read("cpu/switchboard/sandbox-7/cpu.cfs_period_us")).toBe("100000");
    expect(placement.counters).toEqual({
      memoryKills: path.join(root, "memory/switchboard/sandbox-7/memory.oom_control"),
      processLimitHits: path.join(root, "pids/switchboard/sandbox-7/pids.events"),
    });
  });

  it("says plainly which limits it could not set up", async () => {
    fakeRoot(["memory/"]); // no pids or cpu controller on this host
    const placement = await prepareGroup("sandbox-7", LIMITS, root);
    expect(placement.procsFiles).toEqual([path.join(root, "memory/switchboard/sandbox-7/cgroup.procs")]);
    expect(placement.notEnforced).toEqual([
      expect.stringMatching(/^process count limit for the whole sandbox not enforced/),
      expect.stringMatching(/^CPU limit for the whole sandbox not enforced/),
    ]);
  });
});

describe("reapIdleGroups", () => {
  it("removes old empty sandbox groups and leaves busy, fresh and kept ones (a real cgroupfs refuses to remove a busy group)", async () => {
    // In a plain directory a group with a file in it cannot be removed either: it stands for a busy one.
    fakeRoot([
      "memory/switchboard/sandbox-idle/",
      "memory/switchboard/sandbox-busy/",
      "memory/switchboard/sandbox-busy/cgroup.procs",
      "memory/switchboard/sandbox-fresh/",
      "memory/switchboard/sandbox-keep/",
      "memory/switchboard/other/",
    ]);
    const old = new Date(Date.now() - 10 * 60_000);
    for (const name of ["sandbox-idle", "sandbox-busy", "sandbox-keep", "other"])
      utimesSync(path.join(root, "memory/switchboard", name), old, old);

    const removed = await reapIdleGroups(root, { keep: "sandbox-keep", olderThanMs: 60_000 });

    expect(removed).toEqual([path.join(root, "memory/switchboard/sandbox-idle")]);
    for (const name of ["sandbox-busy", "sandbox-fresh", "sandbox-keep", "other"]) {
      expect(existsSync(path.join(root, "memory/switchboard", name))).toBe(true);
    }
  });

  it("a group reused by a new start counts as fresh, so another launch's reaper leaves it until the start has joined it", async () => {
    // An earlier start of the same sandbox made the group and its files long ago (a cgroupfs keeps
    // the directory's mtime when its files are written, as a plain directory does for existing files).
    fakeRoot([
      "memory/switchboard/sandbox-7/",
      "memory/switchboard/sandbox-7/memory.limit_in_bytes",
      "pids/switchboard/sandbox-7/",
      "pids/switchboard/sandbox-7/pids.max",
      "cpu/switchboard/sandbox-7/",
      "cpu/switchboard/sandbox-7/cpu.cfs_period_us",
      "cpu/switchboard/sandbox-7/cpu.cfs_quota_us",
    ]);
    const old = new Date(Date.now() - 10 * 60_000);
    for (const controller of ["memory", "pids", "cpu"]) utimesSync(path.join(root, controller, "switchboard/sandbox-7"), old, old);

    await prepareGroup("sandbox-7", LIMITS, root);

    for (const controller of ["memory", "pids", "cpu"]) {
      expect(statSync(path.join(root, controller, "switchboard/sandbox-7")).mtimeMs, controller).toBeGreaterThan(Date.now() - 60_000);
    }
  });

  it("runs before a launch prepares its own group", async () => {
    fakeRoot(["cgroup.controllers", "switchboard/sandbox-gone/"]);
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(path.join(root, "switchboard/sandbox-gone"), old, old);
    await prepareGroup("sandbox-7", LIMITS, root);
    expect(existsSync(path.join(root, "switchboard/sandbox-gone"))).toBe(false);
    expect(existsSync(path.join(root, "switchboard/sandbox-7"))).toBe(true);
  });

  it("is skipped when the process is not the host's reaper (another replica on the host holds the lease)", async () => {
    fakeRoot(["cgroup.controllers", "switchboard/sandbox-gone/"]);
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(path.join(root, "switchboard/sandbox-gone"), old, old);
    await prepareGroup("sandbox-7", LIMITS, root, async () => false);
    expect(existsSync(path.join(root, "switchboard/sandbox-gone"))).toBe(true);
    expect(existsSync(path.join(root, "switchboard/sandbox-7"))).toBe(true);
    await prepareGroup("sandbox-8", LIMITS, root, async () => true);
    expect(existsSync(path.join(root, "switchboard/sandbox-gone"))).toBe(false);
  });
});
