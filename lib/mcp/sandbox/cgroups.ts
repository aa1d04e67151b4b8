/**
 * Limits for a sandbox's whole process tree (not per process): memory, process count and CPU in
 * one control group per (user, server), on cgroup v2 where the host delegates it and on the v1
 * controllers otherwise. What could not be set up is reported, never silently skipped: the launch
 * prints it to the server's stderr, which the status shows.
 */
import { access, mkdir, readdir, rmdir, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";

/** Whole-sandbox limits; `null` leaves one unlimited. */
export interface GroupLimits {
  /** Memory of all processes together (tmpfs pages they write count too). */
  memoryBytes: number | null;
  /** Processes and threads together. */
  processes: number | null;
  /** CPUs' worth of time per period (1 = one core). */
  cpus: number | null;
}

/** Where a launch joins its control group, and what is enforced. */
export interface GroupPlacement {
  /** `cgroup.procs` files the launch writes its pid into (one per v1 controller, one on v2). */
  procsFiles: string[];
  /** Sentences about limits that are not enforced on this host (empty when all are). */
  notEnforced: string[];
  /** The kernel's counters of the group's limits (lib/mcp/sandbox/exit-cause.ts reads them). */
  counters?: GroupCounters;
}

/** Files whose counters go up when a limit of the group acts (each with the line to read). */
export interface GroupCounters {
  /** OOM kills: `oom_kill N` in memory.oom_control (v1) or memory.events (v2). */
  memoryKills?: string;
  /** Forks refused at the process limit: `max N` in pids.events. */
  processLimitHits?: string;
}

const CPU_PERIOD_US = 100_000;

/**
 * Create (or reuse) the control group `name` under `root` with `limits`; idle groups of other
 * sandboxes are removed first when `mayReap` says this process is the host's reaper (default: always;
 * the app asks its per-host lease, lib/runtime/cgroup-reaper.ts).
 */
export async function prepareGroup(
  name: string,
  limits: GroupLimits,
  root = "/sys/fs/cgroup",
  mayReap: () => Promise<boolean> = async () => true,
): Promise<GroupPlacement> {
  if (await mayReap()) await reapIdleGroups(root, { keep: name });
  if (await exists(path.join(root, "cgroup.controllers"))) return prepareV2(name, limits, root);
  return prepareV1(name, limits, root);
}

/** How long a group may sit empty before a launch removes it: a launch between mkdir and joining is never that slow. */
const IDLE_GROUP_MS = 60_000;

/**
 * Create the group directory, or claim an existing one: its mtime is what tells the reaper it is
 * in use, and a group reused by a later start of the same sandbox keeps the mtime of its creation
 * (writing its files does not change it), so another launch's reaper could remove it between this
 * start preparing it and joining it (the join then fails).
 */
async function claimGroupDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const now = new Date();
  // Not a limit: where the file system refuses, only that narrow race stays open.
  await utimes(dir, now, now).catch(() => undefined);
}

/**
 * Remove the sandbox groups under `root` that no process uses any more (one per identity would
 * otherwise pile up for good). A group is only removed when older than `olderThanMs`, so a launch
 * that has created its group but not joined it yet keeps it; the kernel refuses (EBUSY) to remove a
 * group that still holds a process, which is what makes this safe. Returns the groups removed.
 */
export async function reapIdleGroups(root: string, options: { keep?: string; olderThanMs?: number } = {}): Promise<string[]> {
  const parents = (await exists(path.join(root, "cgroup.controllers")))
    ? [path.join(root, "switchboard")]
    : ["memory", "pids", "cpu", "cpuacct"].map((controller) => path.join(root, controller, "switchboard"));
  const cutoff = Date.now() - (options.olderThanMs ?? IDLE_GROUP_MS);
  const removed: string[] = [];
  for (const parent of parents) {
    const names = await readdir(parent).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.startsWith("sandbox-") || name === options.keep) continue;
      const dir = path.join(parent, name);
      const info = await stat(dir).catch(() => null);
      if (!info?.isDirectory() || info.mtimeMs > cutoff) continue;
      // Busy (a process is still in it) or already gone: both leave nothing to do.
      if (
        await rmdir(dir).then(
          () => true,
          () => false,
        )
      )
        removed.push(dir);
    }
  }
  return removed;
}

async function prepareV2(name: string, limits: GroupLimits, root: string): Promise<GroupPlacement> {
  const parent = path.join(root, "switchboard");
  const dir = path.join(parent, name);
  const notEnforced: string[] = [];
  try {
    await claimGroupDir(dir);
    // Controllers must be enabled on every level above the group they limit.
    for (const level of [root, parent]) {
      for (const controller of ["memory", "pids", "cpu"]) {
        await writeFile(path.join(level, "cgroup.subtree_control"), `+${controller}`).catch(() => undefined);
      }
    }
    const settings: Array<[string, string | null, string]> = [
      ["memory.max", limits.memoryBytes === null ? null : String(limits.memoryBytes), "memory"],
      ["memory.swap.max", limits.memoryBytes === null ? null : "0", "swap"],
      ["pids.max", limits.processes === null ? null : String(limits.processes), "process count"],
      ["cpu.max", limits.cpus === null ? null : `${Math.round(limits.cpus * CPU_PERIOD_US)} ${CPU_PERIOD_US}`, "CPU"],
    ];
    for (const [file, value, what] of settings) {
      if (value === null) continue;
      await writeFile(path.join(dir, file), value).catch((error: NodeJS.ErrnoException) => {
        if (what !== "swap") notEnforced.push(`${what} limit not enforced (cgroup v2 ${file}: ${error.code ?? error.message})`);
      });
    }
    const counters = { memoryKills: path.join(dir, "memory.events"), processLimitHits: path.join(dir, "pids.events") };
    return { procsFiles: [path.join(dir, "cgroup.procs")], notEnforced, counters };
  } catch (error) {
    return {
      procsFiles: [],
      notEnforced: [`whole-sandbox limits not enforced (cannot create ${dir}: ${(error as NodeJS.ErrnoException).code})`],
    };
  }
}

async function prepareV1(name: string, limits: GroupLimits, root: string): Promise<GroupPlacement> {
  const wanted: Array<{ controller: string; what: string; files: Array<[string, string]> }> = [];
  if (limits.memoryBytes !== null) {
    wanted.push({ controller: "memory", what: "memory", files: [["memory.limit_in_bytes", String(limits.memoryBytes)]] });
  }
  if (limits.processes !== null)
    wanted.push({ controller: "pids", what: "process count", files: [["pids.max", String(limits.processes)]] });
  if (limits.cpus !== null) {
    const quota = String(Math.round(limits.cpus * CPU_PERIOD_US));
    wanted.push({
      controller: "cpu",
      what: "CPU",
      files: [
        ["cpu.cfs_period_us", String(CPU_PERIOD_US)],
        ["cpu.cfs_quota_us", quota],
      ],
    });
  }
  const placement: GroupPlacement = { procsFiles: [], notEnforced: [] };
  // v1 counts CPU time in its own controller (cpuacct.usage): joined for the status and the
  // throttling measurement, not a limit, so where it is missing only the figure is.
  if (limits.cpus !== null && (await exists(path.join(root, "cpuacct"))) && !(await exists(path.join(root, "cpu", "cpuacct.usage")))) {
    wanted.push({ controller: "cpuacct", what: "CPU accounting", files: [] });
  }
  for (const { controller, what, files } of wanted) {
    const dir = path.join(root, controller, "switchboard", name);
    // An unmounted controller must not be "set up" as plain files in whatever holds the root.
    if (!(await exists(path.join(root, controller)))) {
      placement.notEnforced.push(`${what} limit for the whole sandbox not enforced (cgroup v1 ${controller}: controller not mounted)`);
      continue;
    }
    try {
      await claimGroupDir(dir);
      for (const [file, value] of files) await writeFile(path.join(dir, file), value);
      placement.procsFiles.push(path.join(dir, "cgroup.procs"));
      placement.counters ??= {};
      if (controller === "memory") placement.counters.memoryKills = path.join(dir, "memory.oom_control");
      if (controller === "pids") placement.counters.processLimitHits = path.join(dir, "pids.events");
    } catch (error) {
      placement.notEnforced.push(
        `${what} limit for the whole sandbox not enforced (cgroup v1 ${controller}: ${(error as NodeJS.ErrnoException).code ?? "unavailable"})`,
      );
    }
  }
  return placement;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
