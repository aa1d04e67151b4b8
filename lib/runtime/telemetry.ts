/**
 * The app's start of telemetry (docs/telemetry.md): the OpenTelemetry SDK when an OTLP endpoint is
 * set, then the database's statements as spans (the app's SQLite connection, instrumented from
 * outside the data layer) and the administrators' content-capture setting. Without an endpoint
 * nothing is loaded or opened.
 */
import { type Db, getDb, sqliteConnectionOf } from "../../db/client";
import { getInstanceMeta } from "../../db/queries/instance-meta";
import { startTelemetry } from "../telemetry/sdk";
import { traceSqliteClient } from "../telemetry/sqlite-spans";
import { setContentCapture } from "../telemetry/state";

/** Where content capture is kept (`instance_meta`): "on" or "off". */
export const CONTENT_CAPTURE_KEY = "telemetry.capture_content";

/** Whether an administrator turned content capture on (off until one does). */
export async function storedContentCapture(db: Db): Promise<boolean> {
  return (await getInstanceMeta(db, CONTENT_CAPTURE_KEY)) === "on";
}

/** Start telemetry once per process; resolves to whether spans are exported. */
export async function startAppTelemetry(): Promise<boolean> {
  if (!(await startTelemetry())) return false;
  const db = getDb();
  // A span per statement where the driver allows it from outside (SQLite; on Postgres there is no
  // such connection: binding its absent `prepare` threw and stopped the app's start-up there).
  const connection = sqliteConnectionOf(db);
  if (connection) traceSqliteClient(connection);
  setContentCapture(await storedContentCapture(db));
  return true;
}
