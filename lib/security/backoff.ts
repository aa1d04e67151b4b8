/**
 * Exponential backoff per key (an account, a client address). After `free` attempts within the
 * window each further attempt doubles the wait. The count and the time of the last attempt live in
 * the coordination (lib/cluster): with `REDIS_URL` in Redis, so attempts on every replica count
 * together; without it in this process's memory. The wait is derived from those two, with the
 * clock tests replace.
 */
import { type Coordination, coordination, type Tally } from "../cluster";

/** Options of a `Backoff`. */
export interface BackoffOptions {
  /** Names this backoff's keys in the coordination (`backoff:<name>:<key>`), apart from other backoffs'. */
  name: string;
  /** Attempts allowed before any wait. */
  free: number;
  /** First wait once the free attempts are used. */
  baseMs: number;
  /** Longest wait. */
  maxMs: number;
  /** Attempts older than this (since the last one) are forgotten. */
  windowMs: number;
  /**
   * Most keys remembered in single-node mode; the one least recently attempted is dropped first.
   * Default 10 000. Redis bounds its keys by their time to live instead: there, dropping one key
   * for another would let a flood of made-up addresses wipe an account's count.
   */
  maxKeys?: number;
  /** The clock. Default `Date.now`. */
  now?: () => number;
  /** Where the counts live, asked at each use. Default: the process's coordination. */
  coordination?: () => Coordination;
}

/** Counts attempts per key and says how long a key must wait. */
export class Backoff {
  /** The name its keys carry (`BackoffOptions.name`). */
  readonly name: string;
  private readonly now: () => number;
  private readonly store: () => Coordination;
  // Single-node mode only: keys in order of their last attempt, for `maxKeys`.
  private readonly recent = new Set<string>();

  constructor(private readonly options: BackoffOptions) {
    this.name = options.name;
    this.now = options.now ?? Date.now;
    this.store = options.coordination ?? coordination;
  }

  /** Milliseconds the key must still wait (0 = may try now). */
  async retryAfterMs(key: string): Promise<number> {
    const tally = await this.live(key);
    return tally ? Math.max(0, this.blockedUntil(tally) - this.now()) : 0;
  }

  /** Count one attempt against the key (counted before the outcome is known, so a burst can't slip through). */
  async record(key: string): Promise<void> {
    const store = this.store();
    await this.live(key); // forgets a count whose window passed, so this attempt starts afresh
    // Kept as long as it can matter: the window after the last attempt, or the longest wait.
    await store.tally(this.keyOf(key), this.now(), Math.max(this.options.windowMs, this.options.maxMs) + 1);
    if (store.clustered) return;
    this.recent.delete(key);
    this.recent.add(key);
    const oldest = this.recent.keys().next();
    if (this.recent.size > (this.options.maxKeys ?? 10_000) && !oldest.done) {
      this.recent.delete(oldest.value);
      await store.drop(this.keyOf(oldest.value));
    }
  }

  /** Take back one counted attempt (it turned out to be a success); a key back under `free` waits no more. */
  async forgive(key: string): Promise<void> {
    await this.store().untally(this.keyOf(key));
  }

  /** Forget the key (a successful sign-in clears its account's count). */
  async reset(key: string): Promise<void> {
    this.recent.delete(key);
    await this.store().drop(this.keyOf(key));
  }

  /** When a key with this tally may try again: its last attempt plus the wait its count has earned. */
  private blockedUntil({ count, at }: Tally): number {
    const over = count - this.options.free;
    return over >= 0 ? at + Math.min(this.options.maxMs, this.options.baseMs * 2 ** Math.min(over, 30)) : 0;
  }

  /** The key's tally, or null once its window passed and it waits no more (then it is dropped). */
  private async live(key: string): Promise<Tally | null> {
    const tally = await this.store().readTally(this.keyOf(key));
    if (!tally) return null;
    const now = this.now();
    if (now - tally.at > this.options.windowMs && this.blockedUntil(tally) <= now) {
      await this.reset(key);
      return null;
    }
    return tally;
  }

  private keyOf(key: string): string {
    return `backoff:${this.options.name}:${key}`;
  }
}
