/**
 * How long usage rows are kept (`SWITCHBOARD_USAGE_RETENTION_DAYS`, default 400): rows older are
 * pruned a minute after the first recording and then every six hours; the daily sums stay, so the
 * pages still show totals for older days (docs/usage.md#retention). With several processes on one
 * database, one of them prunes per round: the round runs under a lease (db/queries/leases.ts).
 */
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/client";
import { takeLease } from "../../db/queries/leases";
import { pruneUsageRows } from "../../db/queries/usage-retention";
import { type EnvBag, environment } from "../env";
import { redact } from "../redact";

/** Days of usage rows kept; at least 1. */
export function usageRetentionDays(env: EnvBag = environment()): number {
  const value = Number(env.SWITCHBOARD_USAGE_RETENTION_DAYS);
  return Number.isInteger(value) && value >= 1 ? value : 400;
}

/** Prune the rows past the retention as of `now`; returns how many went. */
export async function applyUsageRetention(
  db: Db,
  now: Date = new Date(),
  env: EnvBag = environment(),
): Promise<{ model: number; mcp: number }> {
  return await pruneUsageRows(db, new Date(now.getTime() - usageRetentionDays(env) * 86_400_000));
}

const PRUNE_EVERY_MS = 6 * 3_600_000;
const scheduled = new WeakSet<Db>();
// The lease a pruning round holds: not given back, so other processes' rounds in the next half period skip.
const RETENTION_LEASE = "usage-retention";
const RETENTION_LEASE_MS = PRUNE_EVERY_MS / 2;
// This process, as a lease owner.
const leaseOwner = randomUUID();

/**
 * One pruning round, unless another process ran one within the last half period (it holds the
 * lease): then null. `owner` is the process asking (its lease owner id).
 */
export async function pruneUnderLease(
  db: Db,
  owner: string = leaseOwner,
  now: Date = new Date(),
  env: EnvBag = environment(),
): Promise<{ model: number; mcp: number } | null> {
  if (!(await takeLease(db, RETENTION_LEASE, owner, RETENTION_LEASE_MS, now))) return null;
  return applyUsageRetention(db, now, env);
}

/** Start pruning `db` in the background (once per handle; the timers never keep the process alive). */
export function scheduleRetention(db: Db): void {
  if (scheduled.has(db)) return;
  scheduled.add(db);
  const run = async () => {
    try {
      await pruneUnderLease(db);
    } catch (error) {
      // A closed handle (tests, shutdown) or a busy database: the next round tries again.
      console.warn("[switchboard] usage retention did not run:", redact(String(error)));
    }
  };
  setTimeout(run, 60_000).unref();
  setInterval(run, PRUNE_EVERY_MS).unref();
}
