/**
 * The operator's metrics (docs/telemetry.md#metrics), kept in one prom-client registry of the app's
 * own: `GET /api/metrics` renders it, and the OTLP metric reader (lib/telemetry/sdk.ts) mirrors the
 * same series. Labels are closed sets (method, status, outcome, provider) or names the operator
 * configured (the model id, redacted and capped); never a user's text, an argument or a URL.
 */
import { Counter, Gauge, Registry } from "prom-client";
import { redact } from "../redact";

/** What the open-connection gauges read when scraped (the runtime registers the engine pool's counts). */
export interface LiveFigures {
  connections: number;
  sandboxes: number;
}

/** How a tool call ended, as the metrics and spans name it. */
export type ToolCallOutcome = "ok" | "tool_error" | "protocol_error" | "timeout" | "refused";

interface Instruments {
  registry: Registry;
  requests: Counter<"method" | "status">;
  toolCalls: Counter<"outcome" | "transport">;
  modelCalls: Counter<"provider" | "model" | "outcome">;
  tokens: Counter<"provider" | "model" | "type">;
  quotaRefusals: Counter<"code">;
  connections: Gauge;
  sandboxes: Gauge;
  live?: () => LiveFigures;
}

const slot = globalThis as { __switchboardMetrics?: Instruments };

/** The process's metric registry and instruments, made on first use (one per process, across reloads). */
function instruments(): Instruments {
  if (slot.__switchboardMetrics) return slot.__switchboardMetrics;
  const registry = new Registry();
  const made: Instruments = {
    registry,
    requests: new Counter({
      name: "switchboard_http_requests_total",
      help: "API requests answered, by method and status.",
      labelNames: ["method", "status"],
      registers: [registry],
    }),
    toolCalls: new Counter({
      name: "switchboard_mcp_tool_calls_total",
      help: "MCP tool calls, by outcome and transport.",
      labelNames: ["outcome", "transport"],
      registers: [registry],
    }),
    modelCalls: new Counter({
      name: "switchboard_model_calls_total",
      help: "Model requests, by provider, model and outcome.",
      labelNames: ["provider", "model", "outcome"],
      registers: [registry],
    }),
    tokens: new Counter({
      name: "switchboard_model_tokens_total",
      help: "Model tokens as the provider reported them, by type (input, output).",
      labelNames: ["provider", "model", "type"],
      registers: [registry],
    }),
    quotaRefusals: new Counter({
      name: "switchboard_quota_refusals_total",
      help: "Requests refused by a quota or budget, by error code.",
      labelNames: ["code"],
      registers: [registry],
    }),
    connections: new Gauge({
      name: "switchboard_mcp_open_connections",
      help: "MCP connections open or opening.",
      registers: [registry],
      collect() {
        this.set(made.live?.().connections ?? 0);
      },
    }),
    sandboxes: new Gauge({
      name: "switchboard_sandboxes",
      help: "Sandboxed stdio server processes open or opening.",
      registers: [registry],
      collect() {
        this.set(made.live?.().sandboxes ?? 0);
      },
    }),
  };
  slot.__switchboardMetrics = made;
  return made;
}

/** The registry `GET /api/metrics` renders and the OTLP reader mirrors. */
export function metricsRegistry(): Registry {
  return instruments().registry;
}

/** Where the open-connection and sandbox gauges read their figures (the runtime's engine pool). */
export function observeLiveFigures(source: () => LiveFigures): void {
  instruments().live = source;
}

/** One API request answered. */
export function countRequest(method: string, status: number): void {
  instruments().requests.inc({ method: method.toUpperCase(), status: String(status) });
}

/** One MCP tool call ended. */
export function countToolCall(outcome: ToolCallOutcome, transport: "stdio" | "http"): void {
  instruments().toolCalls.inc({ outcome, transport });
}

/** A model id as a label: redacted (an id is operator text) and capped, so no value grows the series without bound. */
export function modelLabel(model: string): string {
  return redact(model).slice(0, 80);
}

/** One model request ended, with the tokens the provider reported (missing counts add nothing). */
export function countModelCall(call: { provider: string; model: string; ok: boolean; inputTokens?: number; outputTokens?: number }): void {
  const { modelCalls, tokens } = instruments();
  const labels = { provider: call.provider, model: modelLabel(call.model) };
  modelCalls.inc({ ...labels, outcome: call.ok ? "ok" : "error" });
  if (call.inputTokens) tokens.inc({ ...labels, type: "input" }, call.inputTokens);
  if (call.outputTokens) tokens.inc({ ...labels, type: "output" }, call.outputTokens);
}

/** One request refused by a quota or a budget (`code` from docs/errors.md). */
export function countQuotaRefusal(code: string): void {
  instruments().quotaRefusals.inc({ code });
}
