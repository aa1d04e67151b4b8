/**
 * The app's start of telemetry (docs/telemetry.md): the OpenTelemetry SDK when an OTLP endpoint is
 * set, and then the database's statements as spans (the app's SQLite connection, instrumented from
 * outside the data layer). Without an endpoint nothing is loaded or opened.
 */
import { getDb } from "../../db/client";
import { startTelemetry } from "../telemetry/sdk";
import { traceSqliteClient } from "../telemetry/sqlite-spans";

/** Start telemetry once per process; resolves to whether spans are exported. */
export async function startAppTelemetry(): Promise<boolean> {
  if (!(await startTelemetry())) return false;
  // drizzle keeps the driver's connection as `$client` (its type leaves it out of `Db`).
  traceSqliteClient((getDb() as unknown as { $client: { prepare(sql: string): unknown } }).$client);
  return true;
}
