/**
 * What the replicas of one instance share besides the database: counters for quotas and throttles,
 * short-lived values (a sign-in waiting for its second factor), and messages between replicas (live
 * events, Stop, an answer for the replica holding a connection). One interface, two implementations:
 * this process alone (`in-process.ts`, single-node mode, the behaviour before cluster mode) and Redis
 * (`redis.ts`, when `REDIS_URL` is set). docs/deployment.md#cluster-mode says what Redis holds.
 */

/** A slot taken with `takeSlot`: held until released (kept alive while held; lost with its holder). */
export interface Slot {
  release(): void;
}

/** What counting one hit of a sliding window answered. */
export interface WindowHit {
  wait: number;
  count: number;
}

/** A counter and when it last went up (`tally`), for throttles with backoff. */
export interface Tally {
  count: number;
  /** Epoch milliseconds of the last increment. */
  at: number;
}

/** A message handler; it gets the message text as published. */
export type MessageHandler = (message: string) => void;

/** The shared state and messaging of an instance's replicas. */
export interface Coordination {
  /** True with Redis (several replicas may run); false in single-node mode. */
  readonly clustered: boolean;
  /**
   * Whether the shared state is reachable as far as this process knows now (false while Redis's
   * connection is down): what is decided without waiting for an answer is decided only then.
   */
  readonly available: boolean;
  /**
   * Take one of `limit` slots of `key` (calls, turns, streams running at once), or null when all are
   * held. A slot whose holder died frees itself within `holdMs`; a live holder keeps it.
   */
  takeSlot(key: string, limit: number, holdMs: number): Promise<Slot | null>;
  /**
   * Count one hit of `key` unless `limit` were counted within the last `windowMs`: `wait` is 0 when
   * counted, otherwise the milliseconds until the oldest hit leaves the window; `count` the hits in
   * the window now (this one included when counted).
   */
  hitWindow(key: string, limit: number, windowMs: number): Promise<WindowHit>;
  /** Add one to `key`'s tally, stamping `at`; forgotten `ttlMs` after its last increment. */
  tally(key: string, at: number, ttlMs: number): Promise<Tally>;
  /** Take one back from `key`'s tally (never below 0), keeping its stamp. */
  untally(key: string): Promise<void>;
  /** `key`'s tally, or null when it has none. */
  readTally(key: string): Promise<Tally | null>;
  /** Set `key` to `value` for `ttlMs`. */
  put(key: string, value: string, ttlMs: number): Promise<void>;
  /** `key`'s value, or null when unset or expired. */
  get(key: string): Promise<string | null>;
  /** `key`'s value, removed in the same step (one taker wins), or null. */
  take(key: string): Promise<string | null>;
  /** Remove `key` (a value, a tally or a list). */
  drop(key: string): Promise<void>;
  /**
   * Append `entry` to the list `key` (created empty), which is forgotten `ttlMs` after its last
   * append; answers the entry's position, counting from 0.
   */
  append(key: string, entry: string, ttlMs: number): Promise<number>;
  /** The entries of the list `key` from position `from` on, or null when there is no such list. */
  range(key: string, from: number): Promise<string[] | null>;
  /** Keep the list or value `key` only `ttlMs` more (a finished turn lingers briefly). */
  expire(key: string, ttlMs: number): Promise<void>;
  /** Send `message` to every subscriber of `channel` on every replica, this one included. */
  publish(channel: string, message: string): Promise<void>;
  /** Receive `channel`'s messages until the returned function runs. */
  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>>;
  /** Close connections (the process is stopping). */
  close(): Promise<void>;
}
