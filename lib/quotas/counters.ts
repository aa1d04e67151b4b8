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

/** Requests per key within the last minute; `hit` answers the seconds to wait, or 0 when allowed. */
export class MinuteWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Count one request for `key` unless `limit` were already made within the last 60 s. */
  hit(key: string, limit: number): number {
    const now = this.now();
    const recent = (this.hits.get(key) ?? []).filter((t) => now - t < 60_000);
    if (recent.length >= limit) {
      this.hits.set(key, recent);
      return Math.max(1, Math.ceil((recent[0] + 60_000 - now) / 1000));
    }
    recent.push(now);
    this.hits.set(key, recent);
    return 0;
  }
}
