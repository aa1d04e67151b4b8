/**
 * An MCP tool call as a span (`tools/call <tool>`, the MCP and GenAI `execute_tool` conventions)
 * and a metric, made around the engine's call by its callers (the chat's tools, the hand call),
 * never inside the engine. Arguments and results go on the span only while an administrator has
 * content capture on (lib/use-cases/telemetry-settings.ts), redacted like every log line.
 */
import type { Context } from "@opentelemetry/api";
import { contentCaptureOn } from "./state";
import { countToolCall, type ToolCallOutcome } from "./metrics";
import { redact } from "../redact";
import { endSpan, runIn, SpanKind, startSpan, contextWith } from "./spans";

/** What the span says about a call, before it runs. */
export interface ToolCallFacts {
  /** The tool's name on its server. */
  toolName: string;
  transport: "stdio" | "http";
  /** The parent (the model call that asked for it); default the active context. */
  parent?: Context;
  /** Read only with content capture on, and redacted with `secrets` (the server's own secret values). */
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
  try {
    const result = await runIn(span ? contextWith(span, facts.parent) : facts.parent, call);
    const outcome = toolCallOutcome(result);
    if (span && contentCaptureOn()) {
      span.setAttribute("gen_ai.tool.call.arguments", captured(facts.arguments, facts.secrets));
      span.setAttribute("gen_ai.tool.call.result", captured(result.content, facts.secrets));
    }
    countToolCall(outcome, facts.transport);
    endSpan(span, undefined, outcome === "ok" ? undefined : (result.errorCode ?? outcome));
    return result;
  } catch (error) {
    countToolCall("protocol_error", facts.transport);
    endSpan(span, error);
    throw error;
  }
}

// Captured content: redacted (the server's secret values, credential shapes) and capped, as logs keep it.
function captured(value: unknown, secrets?: () => string[]): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  return redact(text, secrets?.() ?? []).slice(0, 4096);
}
