/**
 * Whether an error means the database cannot serve the request right now (docs/errors.md): it cannot
 * be reached (`database.unavailable`: the connection was refused, reset or timed out, the server is
 * shutting down or restarting, or has no connection slot left), or the request's transaction kept
 * losing to concurrent ones (`database.busy`). The HTTP boundary answers both with 503 and
 * Retry-After instead of a 500; the same request succeeds once the database is back (the pool
 * reconnects by itself). The driver's codes are a database detail, so they are read here, in db/.
 */

// Node's socket errors on the way to the server.
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

// Postgres SQLSTATEs: class 08 (connection exception), 57P01–57P03 (shutting down, crashed, starting
// up), 53300 (too many connections).
const POSTGRES_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

// node-postgres says these in words (no code): the server closed the socket, the pool timed out
// waiting for a connection, a client broke earlier. The start-up check's own line (db/client.ts).
const MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable|^cannot reach Postgres/;

/**
 * How the audit and usage batches wait while the database is out of reach: at most this many
 * entries or rows are kept (past it they are reported lost), and a batch put back is tried again
 * after this long.
 */
export const WHILE_AWAY = { maxWaiting: 100_000, retryMs: 2_000 } as const;

/**
 * What `error` (or an error it wraps, as drizzle's query errors do) says about the database:
 * `unavailable` (out of reach), `busy` (a transaction kept losing to concurrent ones past its retries:
 * Postgres serialization failures and deadlocks, SQLite locked past its busy timeout), else null.
 */
export function databaseFailure(error: unknown): "unavailable" | "busy" | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") {
      if (SOCKET_CODES.has(code) || POSTGRES_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return "unavailable";
      if (code === "40001" || code === "40P01" || code === "SQLITE_BUSY") return "busy";
    }
    if (MESSAGES.test(current.message)) return "unavailable";
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * One line for the operator's log about a database failure: the statement that failed (drizzle's
 * "Failed query: …" line, without the parameters on the lines after it: they can hold a user's data
 * or a password hash) and the driver's own code and message, e.g. `40001 could not serialize access…`.
 */
export function describeDatabaseFailure(error: unknown): string {
  const outer = error instanceof Error ? error.message.split("\n")[0] : String(error);
  let current: unknown = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return `${outer} (${code}: ${current.message.split("\n")[0]})`;
    current = current.cause;
  }
  return outer;
}
