/**
 * Postgres's part of the change stamp (db/generation.ts): a counter that moves when any connection
 * commits a write to the tables the lookup caches read. Triggers created by the Postgres migration
 * `0012_change_notifications` send `NOTIFY switchboard_changes` for every statement writing those
 * tables; this module LISTENs on a connection of its own and counts what arrives.
 *
 * Why LISTEN/NOTIFY rather than a stamp table the triggers bump: reading a table is a query, and the
 * stamp is read synchronously for every cache a request passes (SQLite's `data_version` costs a
 * pragma, kept to one per 50 ms); a notification is pushed, so reading the counter is free and no
 * query is added to a request. Postgres delivers a notification only when its transaction commits
 * (never for a rollback), and folds repeats within one transaction. What it cannot promise is
 * delivery while the listening connection is down: the counter then reads as unknown (every read
 * gets a stamp of its own, so nothing is cached) until the connection is back, and moves once on
 * reconnecting, since anything may have changed in between.
 */
import pg from "pg";

/** The channel the migration's triggers notify. */
export const CHANGES_CHANNEL = "switchboard_changes";
/** Wait before listening again after the connection dropped (doubling up to RECONNECT_MAX_MS). */
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

// The listener of each Postgres pool, by the pool drizzle holds as `$client` (db/client.ts registers
// it; db/generation.ts reads it). On globalThis: the server bundles may hold several copies of this module.
const SLOT = Symbol.for("switchboard.db.postgresChanges");
const slots = globalThis as { [SLOT]?: WeakMap<object, PostgresChanges> };
slots[SLOT] ??= new WeakMap();
const byPool = slots[SLOT];

/** Count `changes` into the change stamp of the Postgres handle whose client is `pool`. */
export function registerChanges(pool: object, changes: PostgresChanges): void {
  byPool.set(pool, changes);
}

/** The listener registered for `pool`, if any. */
export function changesOf(pool: object): PostgresChanges | undefined {
  return byPool.get(pool);
}

/** A running listener; `version()` is null while it is not listening. */
export interface PostgresChanges {
  /** The number of change notifications (and reconnects) seen, or null while not listening. */
  version(): number | null;
  /** Resolves once listening (or rejects with the first connection failure); for tests and start-up. */
  listening(): Promise<void>;
  /** Stop listening and close the connection. */
  close(): Promise<void>;
}

/**
 * Listen for change notifications on a connection of its own (`config`: the pool's, without pool
 * options). Notifications of this process's own writes count as well: they arrive after the commit,
 * so they also retire what a read cached between a write's `bumpGeneration()` and its commit.
 */
export function listenForChanges(config: pg.ClientConfig): PostgresChanges {
  let count = 0;
  let live = false;
  let closed = false;
  let client: pg.Client | null = null;
  let delay = RECONNECT_MIN_MS;
  let timer: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const next = new pg.Client(config);
    client = next;
    const drop = () => {
      if (client !== next) return;
      client = null;
      live = false;
      next.end().catch(() => {});
      if (closed) return;
      timer = setTimeout(() => {
        timer = null;
        connect().catch(() => {});
      }, delay);
      timer.unref();
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    };
    // An error on an idle connection must not crash the process: it means "reconnect".
    next.on("error", drop);
    next.on("end", drop);
    next.on("notification", (message) => {
      if (message.channel === CHANGES_CHANNEL) count++;
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      drop();
      throw error;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    // The connection does not keep the process alive: the app's server does, a command need not.
    socketOf(next)?.unref?.();
    // Whatever was committed while nobody listened is unknown: count it as a change.
    count++;
    live = true;
    delay = RECONNECT_MIN_MS;
  };

  const first = connect();
  first.catch(() => {});
  return {
    version: () => (live ? count : null),
    listening: () => first,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = null;
      live = false;
      // Referenced again while it closes: waiting on an unreferenced socket alone would let the
      // process exit half-way through `close()`, and whatever its caller does next (the start's
      // last lines, scripts/preflight.ts) silently never ran.
      if (current) socketOf(current)?.ref?.();
      await current?.end().catch(() => {});
    },
  };
}

/** The client's socket (pg keeps it on its connection), to reference or unreference it. */
function socketOf(client: pg.Client): { ref?: () => void; unref?: () => void } | undefined {
  return (client as unknown as { connection?: { stream?: { ref?: () => void; unref?: () => void } } }).connection?.stream;
}
