/**
 * What this replica last heard from the coordination about each user's request window, so that a
 * request far below the per-minute limit need not wait for its count (lib/quotas/index.ts,
 * docs/limits.md#across-replicas). In cluster mode the count is a round trip to Redis on every API
 * request; far below the limit its answer cannot refuse anything, so waiting for it only adds
 * latency. Every request is still counted, so the shared count stays exact; only the decision for
 * requests under half the limit is taken here, and near the limit every request waits for its count
 * again, so the one past the limit is refused exactly.
 */

/** How long an answer speaks for the window: past it the next request waits for its count again. */
export const ECHO_FRESH_MS = 1_000;

/** The echoes kept at most: one per user active within the last second, bounded against floods. */
const MAX_ECHOES = 10_000;

interface Echo {
  /** Hits in the window in the latest answer heard (by the order the hits were sent). */
  count: number;
  /** When that answer was heard (`now()`). */
  heardAt: number;
  /** The send number of that answer's hit, so a late answer never replaces a newer one. */
  heardSeq: number;
  /** Hits sent and not answered yet: counted as if each had been, so a burst cannot overshoot. */
  inFlight: number;
  sentSeq: number;
}

/** The echoes of one coordination's request windows, by window key. */
export class WindowEcho {
  private readonly echoes = new Map<string, Echo>();

  /** `now`: a monotonic clock in milliseconds (a test's fake clock). */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * Whether a new hit of `key` is surely admitted: the latest answer is fresh and, with every hit
   * still unanswered and this one, the window holds at most half of `limit`.
   */
  farBelow(key: string, limit: number): boolean {
    const echo = this.echoes.get(key);
    if (!echo || this.now() - echo.heardAt > ECHO_FRESH_MS) return false;
    return (echo.count + echo.inFlight + 1) * 2 <= limit;
  }

  /** A hit of `key` is being sent; returns its send number for `heard`. */
  sent(key: string): number {
    let echo = this.echoes.get(key);
    if (!echo) {
      if (this.echoes.size >= MAX_ECHOES) this.echoes.delete(this.echoes.keys().next().value as string);
      echo = { count: 0, heardAt: Number.NEGATIVE_INFINITY, heardSeq: 0, inFlight: 0, sentSeq: 0 };
      this.echoes.set(key, echo);
    }
    echo.inFlight++;
    return ++echo.sentSeq;
  }

  /** The hit numbered `seq` was answered with `count` hits in the window. */
  heard(key: string, seq: number, count: number): void {
    const echo = this.echoes.get(key);
    if (!echo || seq < echo.heardSeq) return;
    echo.count = count;
    echo.heardSeq = seq;
    echo.heardAt = this.now();
  }

  /** The hit sent earlier has its answer (or failed): it is no longer in flight. */
  settled(key: string): void {
    const echo = this.echoes.get(key);
    if (echo && echo.inFlight > 0) echo.inFlight--;
  }
}
