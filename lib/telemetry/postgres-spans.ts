/**
 * Database queries on Postgres as client spans, as `sqlite-spans.ts` makes them on SQLite: each
 * statement a pooled connection runs is a span named for its operation and table (`SELECT
 * messages`), with `db.system.name` `postgresql`, `db.operation.name` and `db.collection.name`. The
 * SQL text and its values are not kept. Installed from outside the data layer on the pool's
 * `acquire` (every checkout, the pool's own `query` included, so each connection is wrapped once,
 * the idle ones too), and only when tracing is on. The change listener's own connection is not
 * the pool's, so its `LISTEN` makes no span.
 */
import { endSpan, SpanKind, startSpan } from "./spans";
import { statementSummary } from "./sqlite-spans";
import { tracingOn } from "./state";

type Query = (...args: unknown[]) => unknown;

interface PostgresClient {
  query: Query;
}

/** What the tracer needs of a `pg.Pool`: its checkout event. */
export interface PostgresPool {
  on(event: "acquire", listener: (client: PostgresClient) => void): unknown;
}

const traced = new WeakSet<object>();

/** The statement's text (given as text or `{ text }`), or null for what is not a statement (a cursor). */
function statementText(args: unknown[]): string | null {
  const first = args[0];
  if (typeof first === "string") return first;
  if (first && typeof first === "object" && typeof (first as { submit?: unknown }).submit !== "function") {
    const text = (first as { text?: unknown }).text;
    return typeof text === "string" ? text : null;
  }
  return null;
}

// pg-pool's own `query` runs the statement on a checked-out connection with a callback, drizzle's
// transactions with a promise: both end the span.
function traceClient(client: PostgresClient): void {
  if (traced.has(client)) return;
  traced.add(client);
  const query = client.query;
  client.query = function tracedQuery(this: unknown, ...args: unknown[]) {
    const text = statementText(args);
    if (text === null) return query.apply(this, args);
    const { operation, table } = statementSummary(text);
    const span = startSpan(table ? `${operation} ${table}` : operation, {
      kind: SpanKind.CLIENT,
      attributes: { "db.system.name": "postgresql", "db.operation.name": operation, ...(table ? { "db.collection.name": table } : {}) },
    });
    const callback = args.at(-1);
    if (typeof callback === "function") {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        endSpan(span, error ?? undefined);
        callback(error, result);
      };
      return query.apply(this, args);
    }
    try {
      return (query.apply(this, args) as Promise<unknown>).then(
        (result) => {
          endSpan(span);
          return result;
        },
        (error: unknown) => {
          endSpan(span, error);
          throw error;
        },
      );
    } catch (error) {
      endSpan(span, error);
      throw error;
    }
  };
}

/** Make every statement `pool`'s connections run from now on report a span (nothing when tracing is off). */
export function tracePostgresPool(pool: PostgresPool): void {
  if (!tracingOn() || traced.has(pool)) return;
  traced.add(pool);
  pool.on("acquire", traceClient);
}
