/**
 * An MCP tool call as a span (`tools/call <tool>`, the MCP and GenAI `execute_tool` conventions)
 * and a metric, made around the engine's call by its callers (the chat's tools, the hand call),
 * never inside the engine. Arguments and results go on the span only with content capture on,
 * redacted like every log line.
 */
import type { Context } from "@opentelemetry/api";
import { redact } from "../redact";
import { countToolCall, type ToolCallOutcome } from "./metrics";
import { endSpan, runIn, SpanKind, startSpan, contextWith } from "./spans";
import { contentCaptureOn } from "./state";

/** What the span says about a call, before it runs. */
export interface ToolCallFacts {
  /** The tool's name on its server. */
  toolName: string;
  transport: "stdio" | "http";
  /** The parent (the model call that asked for it); default the active context. */
  parent?: Context;
  /** Only used with content capture on; redacted with `secrets` (the server's own secret values, asked for only then). */
  arguments?: unknown;
  secrets?: () => string[];
}

/** The engine's answer, as much of it as the span and the metric read. */
export interface ToolCallResult {
  isError: boolean;
  errorCode?: string;
  content?: unknown;
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
  if (span && contentCaptureOn() && facts.arguments !== undefined)
    span.setAttribute("gen_ai.tool.call.arguments", captured(facts.arguments, facts.secrets));
  try {
    const result = await runIn(span ? contextWith(span, facts.parent) : facts.parent, call);
    const outcome = toolCallOutcome(result);
    countToolCall(outcome, facts.transport);
    if (span && contentCaptureOn() && result.content !== undefined)
      span.setAttribute("gen_ai.tool.call.result", captured(result.content, facts.secrets));
    endSpan(span, undefined, outcome === "ok" ? undefined : (result.errorCode ?? outcome));
    return result;
  } catch (error) {
    countToolCall("protocol_error", facts.transport);
    endSpan(span, error);
    throw error;
  }
}

// Captured content: redacted (known secrets, credential shapes) and capped, as the logs keep it.
function captured(value: unknown, secrets?: () => string[]): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  return redact(text, secrets?.() ?? []).slice(0, 4096);
}
