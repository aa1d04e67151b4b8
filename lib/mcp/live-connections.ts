/**
 * The pool's open and opening connections in order of last use (docs/limits.md#the-connection-ceiling).
 * The counts the admission hook decides on are kept as connections open and close, and the least
 * recently used idle one is found from the front: neither a call nor a connect scans the pool.
 */
import type { LiveCounts } from "./types";

/** What the set needs to know of a pool entry. */
export interface LiveEntry {
  readonly userId: string;
  /** Open or being opened (counted by the connection quotas). */
  isLive(): boolean;
  /** Closing it now would cut nothing (no call in flight, no subscription). */
  isIdle(): boolean;
}

/** Live entries, least recently used first, with their counts per user and of sandboxes. */
export class LiveConnections<E extends LiveEntry> {
  // A Set keeps insertion order: deleting and adding again moves an entry to the back in O(1).
  private readonly order = new Set<E>();
  // The sandboxed ones alone, in the same order: making room for a sandbox never walks past HTTP entries.
  private readonly sandboxOrder = new Set<E>();
  private readonly perUser = new Map<string, number>();
  /** Entries looked at by `oldestIdle` since the set was made (tests count the pool's work with it). */
  visited = 0;

  /** `sandboxed` says which entries count as sandboxed processes. */
  constructor(private readonly sandboxed: (entry: E) => boolean) {}

  /** Record whether `entry` is live now; the pool calls it on every state change of an entry (idempotent). */
  track(entry: E): void {
    const live = entry.isLive();
    if (live === this.order.has(entry)) return;
    const sandboxed = this.sandboxed(entry);
    if (live) {
      this.order.add(entry);
      if (sandboxed) this.sandboxOrder.add(entry);
    } else {
      this.order.delete(entry);
      this.sandboxOrder.delete(entry);
    }
    const mine = (this.perUser.get(entry.userId) ?? 0) + (live ? 1 : -1);
    if (mine > 0) this.perUser.set(entry.userId, mine);
    else this.perUser.delete(entry.userId);
  }

  /** `entry` was just used: it goes to the back of the eviction order. */
  touch(entry: E): void {
    if (this.order.delete(entry)) this.order.add(entry);
    if (this.sandboxOrder.delete(entry)) this.sandboxOrder.add(entry);
  }

  /** How many connections are live in all. */
  get size(): number {
    return this.order.size;
  }

  /** How many of them are sandboxed processes. */
  get sandboxes(): number {
    return this.sandboxOrder.size;
  }

  /** The counts the admission hook decides on, for a connection `userId` is about to open. */
  counts(userId: string): LiveCounts {
    return { user: this.perUser.get(userId) ?? 0, total: this.order.size, sandboxes: this.sandboxOrder.size };
  }

  /**
   * The least recently used live entry (of the sandboxed ones only with `sandboxed`) that is idle
   * and `eligible`, or null. Busy entries are passed over where they stand: the walk is long only
   * when nearly every connection is busy.
   */
  oldestIdle(eligible: (entry: E) => boolean = () => true, sandboxed = false): E | null {
    for (const entry of sandboxed ? this.sandboxOrder : this.order) {
      this.visited++;
      if (entry.isIdle() && eligible(entry)) return entry;
    }
    return null;
  }
}
