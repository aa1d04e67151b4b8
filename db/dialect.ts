/**
 * Which database this process runs on: Postgres when `DATABASE_URL` is a `postgres://` or
 * `postgresql://` URL, else SQLite in the data directory (any other scheme is refused by getDb).
 */
import { databaseUrlSetting } from "../lib/env";

/** The two databases Switchboard runs on. */
export type Dialect = "sqlite" | "postgres";

/** Whether a URL names Postgres (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The dialect the settings choose now. */
export function databaseDialect(): Dialect {
  const url = databaseUrlSetting();
  return url !== undefined && isPostgresUrl(url) ? "postgres" : "sqlite";
}
