/**
 * How long usage rows are kept (`SWITCHBOARD_USAGE_RETENTION_DAYS`, default 400): rows older are
 * pruned a minute after the first recording and then every six hours; the daily sums stay, so the
 * pages still show totals for older days (docs/usage.md#retention).
 */
import type { Db } from "../../db/client";
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

/** Start pruning `db` in the background (once per handle; the timers never keep the process alive). */
export function scheduleRetention(db: Db): void {
  if (scheduled.has(db)) return;
  scheduled.add(db);
  const run = async () => {
    try {
      await applyUsageRetention(db);
    } catch (error) {
      // A closed handle (tests, shutdown) or a busy database: the next round tries again.
      console.warn("[switchboard] usage retention did not run:", redact(String(error)));
    }
  };
  setTimeout(run, 60_000).unref();
  setInterval(run, PRUNE_EVERY_MS).unref();
}
