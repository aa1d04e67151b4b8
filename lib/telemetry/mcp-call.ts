/**
 * An MCP tool call as a span (`tools/call <tool>`, the MCP and GenAI `execute_tool` conventions)
 * and a metric, made around the engine's call by its callers (the chat's tools, the hand call),
 * never inside the engine. Neither arguments nor results go on the span: only the tool's name, the
 * transport and how the call ended.
 */
import type { Context } from "@opentelemetry/api";
import { countToolCall, type ToolCallOutcome } from "./metrics";
import { endSpan, runIn, SpanKind, startSpan, contextWith } from "./spans";

/** What the span says about a call, before it runs. */
export interface ToolCallFacts {
  /** The tool's name on its server. */
  toolName: string;
  transport: "stdio" | "http";
  /** The parent (the model call that asked for it); default the active context. */
  parent?: Context;
}

/** The engine's answer, as much of it as the span and the metric read. */
export interface ToolCallResult {
  isError: boolean;
  errorCode?: string;
}

/** How a call ended: the tool's own error, an engine failure by kind, or success. */
export function toolCallOutcome(result: ToolCallResult): ToolCallOutcome {
  if (!result.errorCode) return result.isError ? "tool_error" : "ok";
  if (result.errorCode.includes("timeout")) return "timeout";
  if (result.errorCode === "quota_exceeded" || result.errorCode === "launch_refused" || result.errorCode === "disabled") return "refused";
  return "protocol_error";
}

/** Run `call` inside its span (the `traceparent` sent to an HTTP server descends from it) and count it. */
export async function tracedToolCall<T extends ToolCallResult>(facts: ToolCallFacts, call: () => Promise<T>): Promise<T> {
  const span = startSpan(`tools/call ${facts.toolName}`, {
    kind: SpanKind.CLIENT,
    parent: facts.parent,
    attributes: {
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": facts.toolName,
      "network.transport": facts.transport === "stdio" ? "pipe" : "tcp",
    },
  });
  try {
    const result = await runIn(span ? contextWith(span, facts.parent) : facts.parent, call);
    const outcome = toolCallOutcome(result);
    countToolCall(outcome, facts.transport);
    endSpan(span, undefined, outcome === "ok" ? undefined : (result.errorCode ?? outcome));
    return result;
  } catch (error) {
    countToolCall("protocol_error", facts.transport);
    endSpan(span, error);
    throw error;
  }
}
