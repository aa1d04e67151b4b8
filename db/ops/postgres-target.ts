/**
 * Connecting the database commands to Postgres: the URL checked and shown without its password, and a
 * failure to connect turned into one line naming host, port and cause (never pg's stack).
 */
import pg from "pg";
import { DatabaseOpsError } from "./errors";

/** What the readers below query: a pool or one of its connections (inside a transaction). */
export type Queryable = Pick<pg.ClientBase, "query">;

/** Whether a URL names Postgres (kept in db/dialect.ts, which the schema reads at import without loading pg). */
export { isPostgresUrl } from "../dialect";

/** Host, port and database of a Postgres URL: what a report may show (no user, no password). */
export interface PostgresAddress {
  host: string;
  port: number;
  database: string;
}

/** Read host, port and database from a `postgres://` URL (the defaults libpq applies when absent). */
export function postgresAddress(url: string): PostgresAddress {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseOpsError("the Postgres URL is not a valid URL (postgres://user:password@host:5432/database)");
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || decodeURIComponent(parsed.username) || "postgres";
  return { host: parsed.hostname.replace(/^\[|\]$/g, "") || "localhost", port: Number(parsed.port || 5432), database };
}

/** `host:port/database` for reports. */
export function describeAddress(address: PostgresAddress): string {
  return `${address.host}:${address.port}/${address.database}`;
}

const CAUSES: Record<string, string> = {
  ECONNREFUSED: "connection refused (is Postgres running and listening there?)",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be resolved",
  ETIMEDOUT: "timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ECONNRESET: "the connection was reset",
  "28P01": "password authentication failed",
  "28000": "the server refused this user (pg_hba.conf)",
  "3D000": "the database does not exist",
};

/** The cause of a connection failure in a few words: a known code's wording, else the driver's first line. */
export function connectionCause(error: unknown): string {
  const e = error as { code?: string; message?: string; errors?: unknown[] };
  const inner = !e.code && Array.isArray(e.errors) && e.errors.length ? (e.errors[0] as typeof e) : e;
  const code = inner.code ?? e.code;
  if (code && CAUSES[code]) return CAUSES[code];
  const first = (inner.message || e.message || String(error)).split("\n")[0].trim();
  return /timeout/i.test(first) ? "timed out" : first || "unknown error";
}

/** A connected pool on `url` (one round trip proves it); an unreachable server is one DatabaseOpsError line. */
export async function connectPostgres(url: string): Promise<pg.Pool> {
  const address = postgresAddress(url);
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 10_000 });
  // An idle client whose server goes away must not crash the command with an unhandled 'error'.
  pool.on("error", () => {});
  try {
    await pool.query("select 1");
    return pool;
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseOpsError(
      `cannot reach Postgres at ${address.host}:${address.port} (database ${address.database}): ${connectionCause(error)}`,
    );
  }
}

/** The newest migration time drizzle recorded in `drizzle.__drizzle_migrations`, or null when it has none. */
export async function postgresLastMigration(pool: Queryable): Promise<number | null> {
  const { rows } = await pool.query<{ exists: boolean }>("select to_regclass('drizzle.__drizzle_migrations') is not null as exists");
  if (!rows[0].exists) return null;
  const last = await pool.query<{ created_at: string | null }>("select max(created_at) as created_at from drizzle.__drizzle_migrations");
  return last.rows[0].created_at === null ? null : Number(last.rows[0].created_at);
}

/** The key fingerprint a Postgres database records, or null (no row yet, or no table: unmigrated). */
export async function postgresKeyId(pool: Queryable, keyRow: string): Promise<string | null> {
  const { rows } = await pool.query<{ exists: boolean }>("select to_regclass('instance_meta') is not null as exists");
  if (!rows[0].exists) return null;
  const found = await pool.query<{ value: string }>("select value from instance_meta where key = $1", [keyRow]);
  return found.rows[0]?.value ?? null;
}
