/**
 * The engine's fetch with trace context (docs/telemetry.md#mcp-servers): each JSON-RPC request to
 * an MCP server over HTTP gets a client span (`mcp.method.name`, `mcp.session.id`, tool name) and
 * carries the W3C `traceparent` twice, as the `traceparent` header and in the request's
 * `params._meta` (SEP-414's `traceparent`/`tracestate` keys). It wraps the host's fetch and its
 * Node request lane from outside the engine; with tracing off both pass straight through.
 */
import { context, propagation, type Span } from "@opentelemetry/api";
import { endSpan, SpanKind, startSpan, contextWith } from "./spans";
import { tracingOn } from "./state";

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;
type Lane = ((url: URL, init: { method: string; headers: Headers; body?: string; signal?: AbortSignal }) => Promise<{ status: number }>) & {
  close(): void;
};

/** Wrap `inner` (and its `request` lane and `close`, when it has them) so MCP requests carry trace context. */
export function tracedMcpFetch<F extends Fetch>(inner: F): F {
  const extra = inner as unknown as { request?: Lane; close?: () => Promise<void> };
  const wrapped: Fetch = async (url, init) => {
    if (!tracingOn() || typeof init?.body !== "string") return inner(url, init);
    const headers = new Headers(init.headers);
    const exchange = startExchange(new URL(url), headers, init.body);
    if (!exchange) return inner(url, init);
    return finish(exchange.span, () => inner(url, { ...init, headers, body: exchange.body }));
  };
  const lane = extra.request;
  const tracedLane =
    lane &&
    Object.assign(
      async (url: URL, init: Parameters<Lane>[1]) => {
        if (!tracingOn() || typeof init.body !== "string") return lane(url, init);
        const exchange = startExchange(url, init.headers, init.body);
        if (!exchange) return lane(url, init);
        return finish(exchange.span, () => lane(url, { ...init, body: exchange.body }));
      },
      { close: () => lane.close() },
    );
  return Object.assign(
    wrapped,
    tracedLane ? { request: tracedLane } : {},
    extra.close ? { close: () => extra.close!() } : {},
  ) as unknown as F;
}

async function finish<R extends { status: number }>(span: Span | undefined, send: () => Promise<R>): Promise<R> {
  try {
    const answer = await send();
    // The span ends with the answer's head: a streamed (SSE) body is the tool call span's to time.
    span?.setAttribute("http.response.status_code", answer.status);
    endSpan(span, undefined, answer.status >= 400 ? String(answer.status) : undefined);
    return answer;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/**
 * For one JSON-RPC request: its span, the `traceparent` header set on `headers`, and the body with
 * `_meta.traceparent`. Null for anything else (notifications, responses, batches): sent as they are.
 */
function startExchange(url: URL, headers: Headers, body: string): { span: Span | undefined; body: string } | null {
  let message: { method?: unknown; id?: unknown; params?: Record<string, unknown> };
  try {
    message = JSON.parse(body);
  } catch {
    return null;
  }
  if (!message || typeof message !== "object" || Array.isArray(message) || typeof message.method !== "string" || message.id === undefined)
    return null;
  const method = message.method;
  const tool = method === "tools/call" && typeof message.params?.name === "string" ? message.params.name : undefined;
  const sessionId = headers.get("mcp-session-id");
  const span = startSpan(tool ? `${method} ${tool}` : method, {
    kind: SpanKind.CLIENT,
    attributes: {
      "mcp.method.name": method,
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "server.address": url.hostname,
      ...(url.port ? { "server.port": Number(url.port) } : {}),
      ...(typeof message.id === "string" || typeof message.id === "number" ? { "jsonrpc.request.id": String(message.id) } : {}),
      ...(sessionId ? { "mcp.session.id": sessionId } : {}),
      ...(headers.get("mcp-protocol-version") ? { "mcp.protocol.version": headers.get("mcp-protocol-version")! } : {}),
      ...(tool ? { "gen_ai.tool.name": tool, "gen_ai.operation.name": "execute_tool" } : {}),
    },
  });
  const carrier: Record<string, string> = {};
  propagation.inject(contextWith(span, context.active()), carrier);
  if (carrier.traceparent) headers.set("traceparent", carrier.traceparent);
  if (carrier.tracestate) headers.set("tracestate", carrier.tracestate);
  const params = message.params && typeof message.params === "object" ? message.params : {};
  const meta = params._meta && typeof params._meta === "object" ? (params._meta as Record<string, unknown>) : {};
  const withMeta = { ...message, params: { ...params, _meta: { ...meta, ...carrier } } };
  return { span, body: JSON.stringify(withMeta) };
}
