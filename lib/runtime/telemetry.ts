/**
 * The app's start of telemetry (docs/telemetry.md): the OpenTelemetry SDK when an OTLP endpoint is
 * set, then the database's statements as spans (the app's SQLite connection, instrumented from
 * outside the data layer) and the administrators' content-capture setting, followed on every
 * replica. Without an endpoint nothing is loaded or opened.
 */
import { type Db, getDb, postgresPoolOf, sqliteConnectionOf } from "../../db/client";
import { getInstanceMeta, setInstanceMeta } from "../../db/queries/instance-meta";
import { type Coordination, coordination } from "../cluster";
import { onShutdown } from "../shutdown";
import { startTelemetry } from "../telemetry/sdk";
import { traceSqliteClient } from "../telemetry/sqlite-spans";
import { tracePostgresPool } from "../telemetry/postgres-spans";
import { setContentCapture } from "../telemetry/state";

/** Where content capture is kept (`instance_meta`): "on" or "off". */
export const CONTENT_CAPTURE_KEY = "telemetry.capture_content";
/** Where a change is announced; the message only says "read it again", the database holds the value. */
const CONTENT_CAPTURE_CHANNEL = "telemetry.content-capture";
/**
 * How often a replica reads the setting again anyway (cluster mode): an announcement sent while its
 * subscription was down (Redis restarting) is lost, and this bounds how long it goes unseen.
 */
export const CONTENT_CAPTURE_REREAD_MS = 30_000;

/** Whether an administrator turned content capture on (off until one does). */
export async function storedContentCapture(db: Db): Promise<boolean> {
  return (await getInstanceMeta(db, CONTENT_CAPTURE_KEY)) === "on";
}

/**
 * Store the setting, apply it here at once and tell every replica to read it again. An announcement
 * that cannot be sent (Redis away) is logged, not thrown: the setting is stored, and the others
 * read it within `CONTENT_CAPTURE_REREAD_MS`.
 */
export async function storeContentCapture(db: Db, on: boolean, shared: Coordination = coordination()): Promise<void> {
  await setInstanceMeta(db, CONTENT_CAPTURE_KEY, on ? "on" : "off");
  setContentCapture(on);
  await shared.publish(CONTENT_CAPTURE_CHANNEL, "changed").catch((error: unknown) => {
    console.warn(`content capture was stored but not announced to the other replicas: ${String((error as Error)?.message ?? error)}`);
  });
}

/**
 * Apply the stored setting now and whenever it is announced as changed (and, in cluster mode, every
 * `rereadMs`). The hot path (lib/telemetry/mcp-call.ts) reads a process flag; only a change (and
 * the periodic read) costs a query. Answers the function that stops following.
 */
export async function followContentCapture(
  db: Db,
  shared: Coordination = coordination(),
  rereadMs = CONTENT_CAPTURE_REREAD_MS,
): Promise<() => Promise<void>> {
  // Reads may finish out of order (a pool): only the latest one started is applied.
  let latest = 0;
  const reread = async () => {
    const mine = ++latest;
    // A failed read keeps the value in force; the next announcement or round reads again.
    const on = await storedContentCapture(db).catch(() => null);
    if (on !== null && mine === latest) setContentCapture(on);
  };
  // One subscription, asked for again after a failure (Redis away at start-up).
  let subscription: Promise<(() => Promise<void>) | null> | null = null;
  const subscribe = () => {
    subscription ??= shared
      .subscribe(CONTENT_CAPTURE_CHANNEL, () => void reread())
      .catch(() => {
        subscription = null;
        return null;
      });
    return subscription;
  };
  // Subscribed before the first read, so no change falls between them; but a Redis that cannot be
  // reached does not hold up the start: the subscription then goes on in the background.
  let waited: NodeJS.Timeout | undefined;
  await Promise.race([subscribe(), new Promise((resolve) => (waited = setTimeout(resolve, 2_000)))]);
  clearTimeout(waited);
  await reread();
  const timer = shared.clustered
    ? setInterval(() => {
        void subscribe().then(reread);
      }, rereadMs)
    : null;
  timer?.unref();
  return async () => {
    if (timer) clearInterval(timer);
    // Not awaited while still connecting: a shutdown must not wait for a Redis that is away.
    void subscription?.then((unsubscribe) => unsubscribe?.().catch(() => {}));
  };
}

/** Start telemetry once per process; resolves to whether spans are exported. */
export async function startAppTelemetry(): Promise<boolean> {
  if (!(await startTelemetry())) return false;
  const db = getDb();
  // A span per statement, wrapped from outside the data layer: SQLite's connection, or each of the
  // Postgres pool's connections as it is checked out.
  const connection = sqliteConnectionOf(db);
  if (connection) traceSqliteClient(connection);
  const pool = postgresPoolOf(db);
  if (pool) tracePostgresPool(pool);
  onShutdown("telemetry.contentCapture", await followContentCapture(db));
  return true;
}
