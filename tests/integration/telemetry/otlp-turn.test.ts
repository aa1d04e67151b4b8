/**
 * Telemetry end to end (docs/telemetry.md): with an OTLP endpoint set, one chat turn behind the
 * route wrapper exports HTTP → turn → model call → MCP tool call spans with the GenAI and MCP
 * attributes and the metrics to a receiver inside the test, MCP requests over HTTP carry `traceparent` (header and
 * `_meta`), and a canary secret put in arguments, results, headers and env is in no span and no
 * metric. `GET /api/metrics` is 404 without its token set, 401 without the right token, and with it
 * parses as Prometheus text counting the calls made. Both OTLP encodings are checked.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { route } from "@/lib/http";
import { McpPool } from "@/lib/mcp";
import { defaultEngineFetch } from "@/lib/mcp/default-fetch";
import { flushTelemetry, shutdownTelemetry, startTelemetry } from "@/lib/telemetry/sdk";
import { startAppTelemetry } from "@/lib/runtime/telemetry";
import { tracedMcpFetch } from "@/lib/telemetry/mcp-fetch";
import { otlpSettings } from "@/lib/telemetry/settings";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../../helpers/otlp-receiver";
import { parsePrometheusText, sumOf } from "../../helpers/prometheus-text";
import { EVERYTHING, freePort, startHttpServer, stopProcess } from "../mcp/helpers";
import { newUserWithChat, runTurn, say, useAgentEnvironment } from "../agent/helpers";

// The metrics use case is marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const env = useAgentEnvironment();
const CANARY = "CANARY-telemetry-7f3a9c51e2";
const METRICS_TOKEN = "metrics-token-for-the-test";
const SAVED = [
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_BSP_SCHEDULE_DELAY",
  "OTEL_METRIC_EXPORT_INTERVAL",
  "SWITCHBOARD_METRICS_TOKEN",
  "CANARY_TELEMETRY_ENV",
];
const saved = Object.fromEntries(SAVED.map((k) => [k, process.env[k]]));
let receiver: OtlpReceiver;
let everything: ChildProcess;
let tap: http.Server;
let tapUrl = "";
let pool: McpPool;
/** Every MCP request the HTTP server was sent: its traceparent header and JSON body. */
const sent: { traceparent?: string; body: string }[] = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
  process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
  process.env.OTEL_METRIC_EXPORT_INTERVAL = "600000";
  // In the app's own environment too: nothing may copy the environment into a span.
  process.env.CANARY_TELEMETRY_ENV = CANARY;
  // The app's start: the SDK, and statement spans on whichever database this run uses.
  expect(await startAppTelemetry()).toBe(true);
  const port = await freePort();
  everything = await startHttpServer([EVERYTHING, "streamableHttp"], { PORT: String(port) }, `http://127.0.0.1:${port}/mcp`);
  // A pass-through in front of the real server that keeps what each request carried.
  tap = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method === "POST") sent.push({ traceparent: req.headers.traceparent as string | undefined, body: body.toString("utf8") });
      const upstream = http.request({ host: "127.0.0.1", port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => tap.listen(0, "127.0.0.1", resolve));
  tapUrl = `http://127.0.0.1:${(tap.address() as AddressInfo).port}/mcp`;
  // The app's wiring (lib/runtime/engine.ts): the engine's fetch wrapped from outside the engine.
  pool = new McpPool({ fetch: tracedMcpFetch(defaultEngineFetch()) });
});

afterAll(async () => {
  await pool?.closeAll();
  await shutdownTelemetry();
  await stopProcess(everything);
  await new Promise((r) => tap?.close(r));
  await receiver?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const scrape = (authorization?: string) =>
  metricsRoute(new Request("http://localhost/api/metrics", { headers: authorization ? { authorization } : {} }));

/** The spans received so far, waiting for `count` of those named `name`. */
async function spansNamed(name: string, count = 1): Promise<ReceivedSpan[]> {
  for (let i = 0; i < 100; i++) {
    await flushTelemetry();
    const found = receiver.spans.filter((s) => s.name === name);
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no span named ${name}; got ${receiver.spans.map((s) => s.name).join(", ")}`);
}

describe("telemetry of one chat turn", () => {
  it("exports HTTP → turn → model call → tool call spans with their attributes, and no secret", async () => {
    const { user, chat, servers } = await newUserWithChat({
      remote: { url: tapUrl, headers: { "X-Api-Key": CANARY } },
      local: { command: process.execPath, args: [EVERYTHING], env: { CANARY_TOKEN: CANARY } },
    });
    for (const [server, tool] of [
      [servers[0], "echo"],
      [servers[1], "get-env"],
    ] as const)
      await setToolPolicy(getDb(), user.id, { serverId: server.id, toolName: tool, policy: "allow" });
    const handler = route(async (_request: Request) => {
      await runTurn({
        pool,
        llm: env.llm,
        userId: user.id,
        workspaceId: user.workspaceId,
        chatId: chat.id,
        servers,
        request: say(`[[call:remote_echo {"message":"${CANARY}"}]] [[call:local_get-env]]`),
      });
      return Response.json({ ok: true });
    });
    const response = await handler(
      new Request("http://localhost/api/chat", {
        method: "POST",
        headers: { cookie: `session=${CANARY}`, authorization: `Bearer ${CANARY}` },
      }),
    );
    expect(response.status).toBe(200);

    const [turn] = await spansNamed("invoke_agent switchboard");
    const models = await spansNamed("chat scripted", 2);
    const tools = (await spansNamed("tools/call echo")).concat(await spansNamed("tools/call get-env"));
    const [request] = receiver.spans.filter((s) => s.name === "POST" && s.attributes["url.path"] === "/api/chat");
    // Parent/child: the request, the turn under it, the model calls under the turn, each tool call under the model call that asked for it.
    expect(request.kind).toBe(2);
    expect(request.attributes["http.response.status_code"]).toBe(200);
    expect(turn.parentSpanId).toBe(request.spanId);
    expect(turn.traceId).toBe(request.traceId);
    expect(turn.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.conversation.id": chat.id });
    for (const model of models) {
      expect(model.parentSpanId).toBe(turn.spanId);
      expect(model.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "scripted",
        "gen_ai.provider.name": "openai-compatible",
      });
      expect(model.attributes["gen_ai.usage.input_tokens"]).toEqual(expect.any(Number));
      expect(model.attributes["gen_ai.usage.output_tokens"]).toEqual(expect.any(Number));
    }
    const asking = models.find((m) => m.attributes["gen_ai.response.finish_reasons"]?.toString() === "tool-calls")!;
    // The turn's statements (the chat read, the messages saved) are client spans of this run's database, in the turn's trace.
    const system = process.env.SWITCHBOARD_TEST_DB === "postgres" ? "postgresql" : "sqlite";
    const statements = receiver.spans.filter((s) => s.attributes["db.system.name"] === system && s.traceId === turn.traceId);
    expect(statements.map((s) => s.name)).toEqual(expect.arrayContaining(["SELECT messages", "INSERT messages", "UPDATE chats"]));
    const byTool = (name: string, kind: number) => receiver.spans.filter((s) => s.name === `tools/call ${name}` && s.kind === kind);
    const [echo] = byTool("echo", 3).filter((s) => s.parentSpanId === asking.spanId);
    const [getEnv] = byTool("get-env", 3).filter((s) => s.parentSpanId === asking.spanId);
    expect(tools.length).toBeGreaterThanOrEqual(2);
    expect(echo.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "network.transport": "tcp" });
    expect(getEnv.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "get-env",
      "network.transport": "pipe",
    });
    // The HTTP request to the server: a client span under the tool call, with the session it used.
    const [wire] = byTool("echo", 3).filter((s) => s.parentSpanId === echo.spanId);
    expect(wire.attributes["mcp.session.id"]).toEqual(expect.any(String));
    expect(wire.attributes["jsonrpc.request.id"]).toBeDefined();

    // Trace context reached the server: the header and `_meta.traceparent` name the wire span.
    const call = sent.find((s) => JSON.parse(s.body).method === "tools/call");
    expect(call?.traceparent).toBe(`00-${wire.traceId}-${wire.spanId}-01`);
    expect(JSON.parse(call!.body).params._meta.traceparent).toBe(call?.traceparent);

    // The same metrics over OTLP (a flush exports them now): the tool calls of the turn, counted.
    await flushTelemetry();
    const otlpMetrics = receiver.bodies.filter((b) => b.path === "/v1/metrics").map((b) => JSON.parse(b.text));
    const toolCalls = otlpMetrics
      .flatMap((m) =>
        m.resourceMetrics.flatMap((r: { scopeMetrics: { metrics: { name: string }[] }[] }) => r.scopeMetrics.flatMap((s) => s.metrics)),
      )
      .filter((m: { name: string }) => m.name === "switchboard_mcp_tool_calls")
      .at(-1) as { sum: { dataPoints: { asDouble?: number; asInt?: number }[] } };
    expect(toolCalls.sum.dataPoints.reduce((n, p) => n + Number(p.asDouble ?? p.asInt ?? 0), 0)).toBe(2);

    // The canary was in the arguments, the results (echo, get-env), a header, the env and the request: in no span, no metric.
    expect(JSON.stringify(receiver.bodies)).not.toContain(CANARY);
    expect(JSON.stringify(receiver.bodies)).not.toContain("CANARY_TOKEN");

    // The Prometheus endpoint: 401 without the token, the calls counted with it, no canary.
    process.env.SWITCHBOARD_METRICS_TOKEN = METRICS_TOKEN;
    expect((await scrape()).status).toBe(401);
    expect((await scrape("Bearer wrong")).status).toBe(401);
    const scraped = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).not.toContain(CANARY);
    const families = parsePrometheusText(text);
    expect(families.get("switchboard_mcp_tool_calls_total")?.type).toBe("counter");
    expect(sumOf(families, "switchboard_mcp_tool_calls_total", { outcome: "ok" })).toBe(2);
    expect(sumOf(families, "switchboard_mcp_tool_calls_total", { outcome: "ok", transport: "stdio" })).toBe(1);
    expect(sumOf(families, "switchboard_model_calls_total", { provider: "openai-compatible", outcome: "ok" })).toBe(2);
    const inputTokens = models.reduce((n, m) => n + Number(m.attributes["gen_ai.usage.input_tokens"]), 0);
    expect(sumOf(families, "switchboard_model_tokens_total", { type: "input" })).toBe(inputTokens);
    expect(sumOf(families, "switchboard_http_requests_total", { method: "POST", status: "200" })).toBe(1);
    expect(families.get("switchboard_mcp_open_connections")?.type).toBe("gauge");
  }, 90_000);

  it("answers 404 when no metrics token is set", async () => {
    delete process.env.SWITCHBOARD_METRICS_TOKEN;
    const answer = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ code: "metrics.not_enabled" });
  });

  it("exports over http/protobuf as well", async () => {
    await shutdownTelemetry();
    receiver.spans.length = 0;
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/protobuf";
    expect(otlpSettings()?.traces?.protocol).toBe("http/protobuf");
    expect(await startTelemetry()).toBe(true);
    const handler = route(async (_request: Request) => Response.json({ ok: true }));
    await handler(new Request("http://localhost/api/probe", { headers: { authorization: `Bearer ${CANARY}` } }));
    const [span] = await spansNamed("GET");
    expect(receiver.bodies.filter((b) => b.path === "/v1/traces").at(-1)?.contentType).toBe("application/x-protobuf");
    expect(span.kind).toBe(2);
    expect(span.attributes).toMatchObject({ "http.request.method": "GET", "url.path": "/api/probe", "http.response.status_code": 200 });
    expect(receiver.bodies.map((b) => b.text).join("")).not.toContain(CANARY);
  });
});
