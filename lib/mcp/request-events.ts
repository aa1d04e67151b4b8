/**
 * The `onRequestEnd` events of the pool (docs/usage.md): what one tool call, resource read or prompt
 * get did, classified by outcome and measured in bytes. Built only when the host set the hook, so
 * a pool without it pays nothing.
 */
import type { ServerDefinition } from "./config";
import { type ErrorCode, isEngineError } from "./errors";
import type { RequestEndEvent, ToolCallOutcome } from "./types";

/** UTF-8 size of a value's JSON (0 for undefined). */
export function jsonBytes(value: unknown): number {
  if (value === undefined) return 0;
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? "");
  } catch {
    // A value JSON cannot hold (a cycle) was never sent as JSON either.
    return 0;
  }
}

/** The outcome class of an engine failure code (none: the request itself succeeded). */
export function outcomeOfCode(code: ErrorCode | undefined, toolError = false): RequestEndEvent["outcome"] {
  if (code === undefined) return toolError ? "tool_error" : "ok";
  if (code === "call_timeout") return "timeout";
  if (code === "quota_exceeded") return "refused";
  return "protocol_error";
}

/** The event of a tool call (or wrapper) from its outcome. */
export function toolCallEvent(
  userId: string,
  server: ServerDefinition,
  kind: RequestEndEvent["kind"],
  name: string,
  input: unknown,
  outcome: ToolCallOutcome,
): RequestEndEvent {
  return {
    userId,
    serverId: server.id,
    serverName: server.name,
    kind,
    name,
    durationMs: outcome.durationMs,
    outcome: outcomeOfCode(outcome.errorCode, outcome.isError),
    bytesIn: jsonBytes(input),
    bytesOut: jsonBytes(outcome.content),
  };
}

/** The event of a request that threw (`error`) or answered (`result`). */
export function requestEvent(
  userId: string,
  server: ServerDefinition,
  kind: RequestEndEvent["kind"],
  name: string,
  input: unknown,
  durationMs: number,
  answer: { result: unknown } | { error: unknown },
): RequestEndEvent {
  const failed = "error" in answer;
  return {
    userId,
    serverId: server.id,
    serverName: server.name,
    kind,
    name,
    durationMs,
    outcome: failed ? outcomeOfCode(isEngineError(answer.error) ? answer.error.code : "server_error") : "ok",
    bytesIn: jsonBytes(input),
    bytesOut: failed ? 0 : jsonBytes(answer.result),
  };
}
