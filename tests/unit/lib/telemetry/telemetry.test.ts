/**
 * lib/telemetry without a collector: the settings the `OTEL_*` variables give, nothing made when
 * tracing is off (no span, the engine's fetch untouched), and with an in-memory exporter the
 * database spans of a real SQLite connection, the direct lane's request span and the tool-call
 * outcomes the metrics count.
 */
import Database from "better-sqlite3";
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolCallOutcome } from "@/lib/telemetry/mcp-call";
import { tracedMcpFetch } from "@/lib/telemetry/mcp-fetch";
import { tracedStatus } from "@/lib/telemetry/request-span";
import { otlpSettings } from "@/lib/telemetry/settings";
import { startSpan } from "@/lib/telemetry/spans";
import { statementSummary, traceSqliteClient } from "@/lib/telemetry/sqlite-spans";
import { setTracingOn, tracingOn } from "@/lib/telemetry/state";

describe("otlpSettings", () => {
  it.each([
    [{}, null],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }, { traces: { protocol: "http/protobuf" }, metrics: { protocol: "http/protobuf" } }],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
      { traces: { protocol: "http/json" }, metrics: { protocol: "http/json" } },
    ],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" }, { traces: { protocol: "http/protobuf" }, metrics: null }],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_METRICS_EXPORTER: "none" },
      { traces: { protocol: "http/protobuf" }, metrics: null },
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" }, null],
  ])("%o → %o", (env, expected) => {
    expect(otlpSettings(env)).toEqual(expected);
  });
});

describe("with tracing off", () => {
  it("makes no span and hands the engine's fetch the request untouched", async () => {
    expect(tracingOn()).toBe(false);
    expect(startSpan("anything")).toBeUndefined();
    const seen: (RequestInit | undefined)[] = [];
    const inner = async (_url: string | URL, init?: RequestInit) => {
      seen.push(init);
      return new Response("{}");
    };
    const init = { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) };
    await tracedMcpFetch(inner)("http://server/mcp", init);
    expect(seen[0]).toBe(init);
  });
});

describe("with tracing on", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  beforeAll(() => {
    trace.setGlobalTracerProvider(provider);
    setTracingOn(true);
  });
  afterAll(async () => {
    setTracingOn(false);
    trace.disable();
    await provider.shutdown();
  });

  it("names a statement by operation and table", () => {
    expect(statementSummary('select "id" from "messages" where "chat_id" = ?')).toEqual({ operation: "SELECT", table: "messages" });
    expect(statementSummary('insert into "audit_log" ("id") values (?)')).toEqual({ operation: "INSERT", table: "audit_log" });
  });

  it("makes a span per statement run on a real SQLite connection, without the SQL's values", () => {
    exporter.reset();
    const sqlite = new Database(":memory:");
    traceSqliteClient(sqlite);
    sqlite.prepare("create table notes (id integer primary key, body text)").run();
    sqlite.prepare('insert into "notes" (body) values (?)').run("CANARY-sql-value");
    expect(sqlite.prepare("select body from notes").raw().all()).toEqual([["CANARY-sql-value"]]);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(["CREATE notes", "INSERT notes", "SELECT notes"]);
    expect(spans[1].attributes).toEqual({ "db.system.name": "sqlite", "db.operation.name": "INSERT", "db.collection.name": "notes" });
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain("CANARY");
  });

  it("gives the direct lane's requests a server span with their status", async () => {
    exporter.reset();
    expect(await tracedStatus({ method: "post", url: "/api/servers/s1/tools/call" }, async () => 502)).toBe(502);
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe("POST");
    expect(span.attributes).toMatchObject({
      "url.path": "/api/servers/s1/tools/call",
      "http.response.status_code": 502,
      "error.type": "502",
    });
  });
});

describe("toolCallOutcome", () => {
  it.each([
    [{ isError: false }, "ok"],
    [{ isError: true }, "tool_error"],
    [{ isError: true, errorCode: "call_timeout" }, "timeout"],
    [{ isError: true, errorCode: "quota_exceeded" }, "refused"],
    [{ isError: true, errorCode: "connection_closed" }, "protocol_error"],
  ])("%o is %s", (result, outcome) => {
    expect(toolCallOutcome(result)).toBe(outcome);
  });
});
