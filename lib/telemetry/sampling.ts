/**
 * A server's sampling request as a span (docs/telemetry.md#traces): `sampling/createMessage`, a
 * SERVER span (the client serves the server's request, MCP semantic conventions), parent of the
 * `chat <model>` span of the model call it makes. The request arrives on the server's stream, outside
 * any request of ours, so its trace is the one the server names in `params._meta.traceparent`
 * (SEP-414), else a new one: never whichever call happened to open the connection.
 */
import { type Context, propagation, ROOT_CONTEXT } from "@opentelemetry/api";
import type { ModelCallParent } from "./model-call";
import { contextWith, endSpan, SpanKind, startSpan } from "./spans";

/** The trace a server named in the request's `_meta`, else a new root. */
function parentOf(meta: unknown): Context {
  if (!meta || typeof meta !== "object") return ROOT_CONTEXT;
  const { traceparent, tracestate } = meta as Record<string, unknown>;
  if (typeof traceparent !== "string") return ROOT_CONTEXT;
  const carrier: Record<string, string> = { traceparent, ...(typeof tracestate === "string" ? { tracestate } : {}) };
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** Run one sampling request inside its span; `work` gets the parent its model calls hang under. */
export async function tracedSampling<T>(meta: unknown, work: (parent: ModelCallParent) => Promise<T>): Promise<T> {
  const outer = parentOf(meta);
  const span = startSpan("sampling/createMessage", {
    kind: SpanKind.SERVER,
    parent: outer,
    attributes: { "mcp.method.name": "sampling/createMessage" },
  });
  const own = span ? contextWith(span, outer) : undefined;
  try {
    const result = await work({ context: () => own });
    endSpan(span);
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}
