/**
 * A bounded map for hot-path lookups (sessions, workspace roles, server definitions) whose entries
 * count only while the database's change stamp (db/generation.ts) is the one they were read at:
 * any write to the rows behind them makes every entry stale at once, so a sign-out, a removed
 * member or an edited server is seen on the very next request. Keys must name the user the value
 * belongs to; the cache never shares an entry between keys.
 */

/** A least-recently-used map whose entries are valid for one change stamp. */
export class LookupCache<V> {
  private readonly entries = new Map<string, { value: V; stamp: string }>();
  private stamp: string | null = null;

  /** `max`: entries kept; the least recently used one goes first. */
  constructor(private readonly max: number) {}

  /** The value stored under `key` at `stamp`, or undefined (missing or read at another stamp). */
  get(key: string, stamp: string): V | undefined {
    this.follow(stamp);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.stamp !== stamp) return undefined;
    this.entries.set(key, entry); // most recently used last
    return entry.value;
  }

  /** Store `value` under `key`, read at `stamp`. */
  set(key: string, stamp: string, value: V): V {
    this.follow(stamp);
    this.entries.delete(key);
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, stamp });
    return value;
  }

  /** The cached value, or `load()`'s answer stored at `stamp` (null/undefined answers are not kept). */
  read<T extends V | null | undefined>(key: string, stamp: string, load: () => T): T {
    const hit = this.get(key, stamp);
    if (hit !== undefined) return hit as T;
    const value = load();
    if (value !== null && value !== undefined) this.set(key, stamp, value);
    return value;
  }

  /** `read` with an async loader: the stamp is the one taken before loading, as for `read`. */
  async readAsync<T extends V | null | undefined>(key: string, stamp: string, load: () => Promise<T>): Promise<T> {
    const hit = this.get(key, stamp);
    if (hit !== undefined) return hit as T;
    const value = await load();
    if (value !== null && value !== undefined) this.set(key, stamp, value);
    return value;
  }

  /** How many entries are held (tests, figures). */
  get size(): number {
    return this.entries.size;
  }

  // The stamp is one for the whole database: once it moves, every entry is stale. Dropping them
  // all at once returns their memory (and decrypted secrets) now, not whenever LRU gets to them.
  private follow(stamp: string): void {
    if (stamp === this.stamp) return;
    this.entries.clear();
    this.stamp = stamp;
  }

  /** Forget the entry under `key` (its next read loads it again). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forget everything. */
  clear(): void {
    this.entries.clear();
  }
}
