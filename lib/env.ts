/**
 * The instance's environment settings, read in one place. Every variable here is documented in
 * the README's Configuration table.
 */
import path from "node:path";

/** Directory for the database, generated keys and sandbox homes (`SWITCHBOARD_DATA_DIR`, default `./data`). */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.SWITCHBOARD_DATA_DIR || "./data");
}

/** Whether self-registration is open (`SWITCHBOARD_REGISTRATION=closed` closes it). */
export function registrationOpen(): boolean {
  return (process.env.SWITCHBOARD_REGISTRATION ?? "open").toLowerCase() !== "closed";
}

/** The app's own version, reported by /api/health. */
export const APP_VERSION = "0.1.0";
