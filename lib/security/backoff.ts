/**
 * Exponential backoff per key (an account, a client address), in memory: the app is one process.
 * After `free` attempts within the window each further attempt doubles the wait. Pure apart from
 * the clock, which tests replace.
 */

/** Options of a `Backoff`. */
export interface BackoffOptions {
  /** Attempts allowed before any wait. */
  free: number;
  /** First wait once the free attempts are used. */
  baseMs: number;
  /** Longest wait. */
  maxMs: number;
  /** Attempts older than this (since the last one) are forgotten. */
  windowMs: number;
  /** Most keys remembered; the oldest is dropped first. Default 10 000. */
  maxKeys?: number;
  /** The clock. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  count: number;
  last: number;
  blockedUntil: number;
}

/** Counts attempts per key and says how long a key must wait. */
export class Backoff {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(private readonly options: BackoffOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Milliseconds the key must still wait (0 = may try now). */
  retryAfterMs(key: string): number {
    const entry = this.live(key);
    return entry ? Math.max(0, entry.blockedUntil - this.now()) : 0;
  }

  /** Count one attempt against the key (counted before the outcome is known, so a burst can't slip through). */
  record(key: string): void {
    const now = this.now();
    const entry = this.live(key) ?? { count: 0, last: now, blockedUntil: 0 };
    entry.count += 1;
    entry.last = now;
    const over = entry.count - this.options.free;
    if (over >= 0) entry.blockedUntil = now + Math.min(this.options.maxMs, this.options.baseMs * 2 ** Math.min(over, 30));
    this.entries.delete(key);
    this.entries.set(key, entry);
    const oldest = this.entries.keys().next();
    if (this.entries.size > (this.options.maxKeys ?? 10_000) && !oldest.done) this.entries.delete(oldest.value);
  }

  /** Take back one counted attempt (it turned out to be a success); a key back under `free` waits no more. */
  forgive(key: string): void {
    const entry = this.live(key);
    if (!entry) return;
    entry.count = Math.max(0, entry.count - 1);
    if (entry.count < this.options.free) entry.blockedUntil = 0;
  }

  /** Forget the key (a successful sign-in clears its account's count). */
  reset(key: string): void {
    this.entries.delete(key);
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.last > this.options.windowMs && entry.blockedUntil <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
