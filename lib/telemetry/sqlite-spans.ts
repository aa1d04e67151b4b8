/**
 * Database queries as client spans (database semantic conventions): each statement the app's
 * SQLite connection runs is a span named for its operation and table (`SELECT messages`), with
 * `db.system.name`, `db.operation.name` and `db.collection.name`. The SQL text is not kept (a
 * hand-written query could inline a value); the values never are. Installed from outside the data
 * layer on the connection's `prepare`, and only when tracing is on.
 */
import { endSpan, SpanKind, startSpan } from "./spans";
import { tracingOn } from "./state";

type Statement = Record<string, unknown>;
interface SqliteClient {
  prepare(sql: string): unknown;
}

const RUNS = ["run", "get", "all", "iterate"] as const;
const traced = new WeakSet<object>();

/** The operation and table a statement names (`INSERT`, `messages`); the table is omitted when not plain. */
export function statementSummary(sql: string): { operation: string; table?: string } {
  const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "QUERY";
  const table = /\b(?:from|into|update|table)\s+["`]?([A-Za-z_][A-Za-z0-9_]*)["`]?/i.exec(sql)?.[1];
  return { operation, table };
}

/** Make every statement `client` prepares from now on report a span per run (nothing when tracing is off). */
export function traceSqliteClient(client: SqliteClient): void {
  if (!tracingOn() || traced.has(client)) return;
  traced.add(client);
  const prepare = client.prepare.bind(client);
  client.prepare = (sql: string) => {
    const statement = prepare(sql) as Statement;
    const { operation, table } = statementSummary(sql);
    for (const name of RUNS) {
      const run = statement[name];
      if (typeof run !== "function") continue;
      // An own property over the prototype's: `raw()`/`pluck()` return the statement itself, so they keep it.
      statement[name] = (...args: unknown[]) => {
        const span = startSpan(table ? `${operation} ${table}` : operation, {
          kind: SpanKind.CLIENT,
          attributes: { "db.system.name": "sqlite", "db.operation.name": operation, ...(table ? { "db.collection.name": table } : {}) },
        });
        try {
          const result = run.apply(statement, args);
          endSpan(span);
          return result;
        } catch (error) {
          endSpan(span, error);
          throw error;
        }
      };
    }
    return statement;
  };
}
