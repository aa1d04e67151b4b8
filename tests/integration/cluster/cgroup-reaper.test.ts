/**
 * The sandbox control-group reaper runs once per host (lib/runtime/cgroup-reaper.ts): two replicas
 * of one host launching at once reap once; a replica on another host reaps its own host; a reaper
 * that died (its lease ran out) is taken over. Against a fake cgroup root (the groups' effects are
 * counted there) and one real database, on either lane (`SWITCHBOARD_TEST_DB=postgres`).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { reapIdleGroups } from "@/lib/mcp/sandbox/cgroups";
import { mayReapOnThisHost, REAPER_LEASE_MS } from "@/lib/runtime/cgroup-reaper";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let dir = "";
let root = "";

beforeAll(() => {
  dir = useTempDataDir();
});
afterAll(() => {
  removeTempDataDir(dir);
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  rmSync(root, { recursive: true, force: true });
  root = mkdtempSync(path.join(os.tmpdir(), "cgroup-root-"));
  writeFileSync(path.join(root, "cgroup.controllers"), "");
});

/** An empty sandbox group idle for ten minutes (the reaper's prey). */
function idleGroup(name: string): string {
  const group = path.join(root, "switchboard", name);
  mkdirSync(group, { recursive: true });
  const old = new Date(Date.now() - 10 * 60_000);
  utimesSync(group, old, old);
  return group;
}

/** One launch's reap as the app runs it: only when `owner` is its host's reaper. Returns what it removed, or null. */
async function launchReap(owner: string, host: string, now: Date): Promise<string[] | null> {
  if (!(await mayReapOnThisHost(getDb(), owner, host, now))) return null;
  return reapIdleGroups(root);
}

describe("the control-group reaper, once per host", () => {
  it("two replicas of one host launching at once: one reaps, the other skips", async () => {
    const groups = [idleGroup("sandbox-1"), idleGroup("sandbox-2")];
    const now = new Date();
    const runs = await Promise.all([launchReap("replica-a", "host-1", now), launchReap("replica-b", "host-1", now)]);
    expect(runs.filter((run) => run !== null)).toHaveLength(1);
    expect(runs.find((run) => run !== null)?.sort()).toEqual(groups);
    // The holder keeps the lease by reaping on each of its launches; the other still skips.
    const holder = runs[0] !== null ? "replica-a" : "replica-b";
    const other = holder === "replica-a" ? "replica-b" : "replica-a";
    const later = new Date(now.getTime() + REAPER_LEASE_MS / 2);
    expect(await mayReapOnThisHost(getDb(), holder, "host-1", later)).toBe(true);
    expect(await mayReapOnThisHost(getDb(), other, "host-1", new Date(later.getTime() + REAPER_LEASE_MS / 2 + 1))).toBe(false);
  });

  it("a replica on another host reaps its own host while the first host's reaper holds its lease", async () => {
    const now = new Date();
    expect(await mayReapOnThisHost(getDb(), "replica-c", "host-2", now)).toBe(true);
    expect(await mayReapOnThisHost(getDb(), "replica-d", "host-3", now)).toBe(true);
    expect(await mayReapOnThisHost(getDb(), "replica-e", "host-3", now)).toBe(false);
  });

  it("a reaper that died is taken over once its lease ran out", async () => {
    const now = new Date();
    expect(await launchReap("replica-dead", "host-4", now)).toEqual([]);
    // It dies (launches no more); a group goes idle meanwhile.
    const group = idleGroup("sandbox-3");
    expect(await launchReap("replica-alive", "host-4", new Date(now.getTime() + REAPER_LEASE_MS - 1))).toBeNull();
    expect(existsSync(group)).toBe(true);
    expect(await launchReap("replica-alive", "host-4", new Date(now.getTime() + REAPER_LEASE_MS + 1))).toEqual([group]);
    expect(existsSync(group)).toBe(false);
  });
});
