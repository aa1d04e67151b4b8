/**
 * Statement spans on Postgres (lib/telemetry/postgres-spans.ts) on a real server and a real
 * `pg.Pool`: the pool's own queries (a callback inside pg-pool) and a transaction's (promises on a
 * checked-out connection) each make a span named for the operation and table, with no SQL value;
 * a failing statement's span carries `error.type`.
 */
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracePostgresPool } from "@/lib/telemetry/postgres-spans";
import { setTracingOn } from "@/lib/telemetry/state";
import { startPostgres, type TestPostgres } from "../../helpers/postgres";

describe("Postgres statement spans", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let server: TestPostgres;
  let pool: pg.Pool;

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    setTracingOn(true);
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: await server.createDatabase("spans"), max: 2 });
    // A connection checked out before the tracer was installed is wrapped at its next checkout.
    await pool.query("create table notes (id serial primary key, body text)");
    tracePostgresPool(pool);
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await server?.stop();
    setTracingOn(false);
    trace.disable();
    await provider.shutdown();
  });

  it("makes a span per statement of the pool and of a transaction, without the values", async () => {
    exporter.reset();
    await pool.query('insert into "notes" (body) values ($1)', ["CANARY-pg-value"]);
    const client = await pool.connect();
    try {
      await client.query("begin");
      await client.query({ text: 'select "body" from "notes" where "body" = $1', values: ["CANARY-pg-value"] });
      await client.query("commit");
    } finally {
      client.release();
    }
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(["INSERT notes", "BEGIN", "SELECT notes", "COMMIT"]);
    expect(spans[0].attributes).toEqual({ "db.system.name": "postgresql", "db.operation.name": "INSERT", "db.collection.name": "notes" });
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain("CANARY");
  });

  it("marks a failing statement's span with its error type", async () => {
    exporter.reset();
    await expect(pool.query('select * from "missing_table"')).rejects.toThrow();
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe("SELECT missing_table");
    expect(span.attributes["error.type"]).toBeTruthy();
  });
});
