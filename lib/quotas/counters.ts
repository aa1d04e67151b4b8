/**
 * The in-process state behind the quotas: slots held per user (calls, turns) and a sliding
 * one-minute window of requests per user. One process serves the instance, so memory is the truth.
 */

/** Slots per key with a limit; `acquire` returns the release function or null when full. */
export class SlotCounter {
  private readonly held = new Map<string, number>();

  /** Take a slot for `key` when fewer than `limit` are held. */
  acquire(key: string, limit: number): (() => void) | null {
    const current = this.held.get(key) ?? 0;
    if (current >= limit) return null;
    this.held.set(key, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left <= 0) this.held.delete(key);
      else this.held.set(key, left);
    };
  }
}

/**
 * Requests per key within the last minute; `hit` answers the seconds to wait, or 0 when allowed.
 * Each key keeps its hits oldest first and drops expired ones from the front, so a hit costs the
 * same however many requests the minute holds (a busy user makes thousands).
 */
export class MinuteWindow {
  private readonly hits = new Map<string, { times: number[]; head: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Count one request for `key` unless `limit` were already made within the last 60 s. */
  hit(key: string, limit: number): number {
    const now = this.now();
    let window = this.hits.get(key);
    if (!window) {
      window = { times: [], head: 0 };
      this.hits.set(key, window);
    }
    const { times } = window;
    while (window.head < times.length && now - times[window.head] >= 60_000) window.head++;
    // Drop the expired front once it is at least half the array: amortised O(1) per hit.
    if (window.head > 0 && window.head * 2 >= times.length) {
      times.splice(0, window.head);
      window.head = 0;
    }
    if (times.length - window.head >= limit) return Math.max(1, Math.ceil((times[window.head] + 60_000 - now) / 1000));
    times.push(now);
    return 0;
  }
}
