/**
 * Trace context for MCP requests sent over stdio (docs/telemetry.md#trace-context-to-mcp-servers):
 * the W3C `traceparent` / `tracestate` of the active span, as the `params._meta` keys SEP-414
 * gives distributed tracing. The engine asks for it as each request is sent (`requestMeta`).
 */
import { context, propagation } from "@opentelemetry/api";
import { tracingOn } from "./state";

/** `{traceparent, tracestate?}` of the active span, or undefined with tracing off or no span active. */
export function traceMeta(): Record<string, string> | undefined {
  if (!tracingOn()) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}
