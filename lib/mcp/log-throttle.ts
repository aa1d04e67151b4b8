/**
 * Rate limits for log lines a server can cause at will (garbage on stdout, a stack per failing
 * request): the first line of a kind is logged, then at most one per interval, carrying how many
 * were held back, so a hostile server cannot fill the log or slow the process with it.
 */

/** Default interval between two lines of one kind. */
export const LOG_INTERVAL_MS = 60_000;

/** At most one line per key per interval; keys are forgotten once their interval passed. */
export class LogThrottle {
  private readonly last = new Map<string, { at: number; held: number }>();

  constructor(
    private readonly intervalMs = LOG_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether to log a line of `key` now; when yes, `held` is how many were held back since the last. */
  take(key: string): { log: boolean; held: number } {
    const now = this.now();
    const entry = this.last.get(key);
    if (entry && now - entry.at < this.intervalMs) {
      entry.held++;
      return { log: false, held: entry.held };
    }
    if (this.last.size >= 1000) this.forgetOld(now);
    this.last.set(key, { at: now, held: 0 });
    return { log: true, held: entry?.held ?? 0 };
  }

  private forgetOld(now: number): void {
    for (const [key, entry] of this.last) if (now - entry.at >= this.intervalMs) this.last.delete(key);
    // Still full (a thousand kinds within one interval): start over rather than grow.
    if (this.last.size >= 1000) this.last.clear();
  }
}
