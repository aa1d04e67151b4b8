/**
 * Shapes a tool result two ways (docs/architecture.md#tools-the-model-sees): the full MCP `CallToolResult` for the UI and the
 * model's JSON, `{"result": ...}` or `{"error": "..."}`. What the model reads is always redacted
 * (docs/security.md#redaction); the UI content keeps a successful result as the server sent it
 * (the result view masks it until the user asks for the raw text), error texts redacted.
 */
import type { CallToolResult } from "@modelcontextprotocol/client";
import { redact, redactJson } from "../redact";
import type { EngineError } from "./errors";
import type { ToolCallOutcome } from "./types";

/** Joined text of the text items, or undefined when there are none. */
export function textOf(result: Pick<CallToolResult, "content">): string | undefined {
  const texts = (result.content ?? []).filter((item) => item.type === "text").map((item) => (item as { text: string }).text);
  return texts.length ? texts.join("\n") : undefined;
}

/**
 * The model's view: structuredContent if present, else the joined text, else the content array;
 * `isError` results become `{error}` with their text so the model can correct itself. Credentials
 * (the server's own secret values and known token shapes) are masked in all of it.
 */
export function forModel(result: CallToolResult, secrets: string[]): ToolCallOutcome["forModel"] {
  if (result.isError) {
    return { error: redact(textOf(result) ?? JSON.stringify(result.content ?? []), secrets) };
  }
  if (result.structuredContent !== undefined) return { result: redactJson(result.structuredContent, secrets) };
  const text = textOf(result);
  return { result: text !== undefined ? redact(text, secrets) : redactJson(result.content ?? [], secrets) };
}

/** A successful (or tool-reported error) outcome; isError text is redacted in `content` too. */
export function outcomeOf(result: CallToolResult, durationMs: number, secrets: string[]): ToolCallOutcome {
  const isError = result.isError === true;
  const content = isError ? redactContent(result, secrets) : result;
  return { forModel: forModel(result, secrets), content, isError, durationMs };
}

/** An outcome for a failure inside the engine (timeout, cancel, crash, too large...). */
export function errorOutcome(error: EngineError, durationMs: number): ToolCallOutcome {
  return {
    forModel: { error: error.message },
    content: { content: [{ type: "text", text: error.message }], isError: true },
    isError: true,
    durationMs,
    errorCode: error.code,
  };
}

/** Wrap a plain value (a wrapper tool's answer) as a tool result. */
export function valueResult(value: unknown): CallToolResult {
  const structured = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: structured };
}

function redactContent(result: CallToolResult, secrets: string[]): CallToolResult {
  return {
    ...result,
    content: (result.content ?? []).map((item) => (item.type === "text" ? { ...item, text: redact(item.text, secrets) } : item)),
  };
}
