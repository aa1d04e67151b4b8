/**
 * Who reaps a host's idle sandbox control groups (lib/mcp/sandbox/cgroups.ts `reapIdleGroups`,
 * run before a sandbox launch). Control groups belong to the host, not to the cluster: replicas on
 * one host see the same groups, replicas on two hosts see none of each other's. So the reaper runs
 * under a lease per host, `sandbox-cgroup-reaper:<hostname>` (docs/architecture.md#leases): the
 * replica holding it reaps before each of its launches and keeps it by doing so; the others on that
 * host skip the scan. When the holder stops launching (or dies) the lease runs out and the next
 * launch of another replica on the host takes it over. Two reapers at once would do no harm (the
 * kernel refuses to remove a busy group, and a group claimed by a launch is skipped as fresh); the
 * lease spares the other replicas the scan of every group of the host on each launch.
 */
import os from "node:os";
import type { Db } from "../../db/client";
import { takeLease } from "../../db/queries/leases";
import { replicaId } from "../cluster/replicas";
import { redact } from "../redact";
import { describeDatabaseFailure } from "../../db/unavailable";

/**
 * How long the reaper lease lasts after the holder's last launch. A group is reaped only once idle
 * this long (lib/mcp/sandbox/cgroups.ts), so a reaper taking over no sooner loses nothing; the
 * scan itself takes milliseconds.
 */
export const REAPER_LEASE_MS = 60_000;

/** The reaper lease of host `host`. */
export function reaperLeaseName(host: string = os.hostname()): string {
  return `sandbox-cgroup-reaper:${host}`;
}

/**
 * Whether `owner` (default: this replica) is the reaper of `host` (default: this host) now: it takes
 * or renews the host's lease. A database that cannot be asked does not stop a launch: the launch
 * reaps (harmless, as above) and says why in the log.
 */
export async function mayReapOnThisHost(
  db: Db,
  owner: string = replicaId(),
  host: string = os.hostname(),
  now: Date = new Date(),
): Promise<boolean> {
  try {
    return await takeLease(db, reaperLeaseName(host), owner, REAPER_LEASE_MS, now);
  } catch (error) {
    console.warn(
      "[switchboard] the control-group reaper lease could not be asked; reaping anyway:",
      redact(describeDatabaseFailure(error)),
    );
    return true;
  }
}
