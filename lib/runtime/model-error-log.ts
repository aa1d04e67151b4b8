/**
 * One log line per kind of model failure per interval. A server's sampling request can make the
 * model fail at will (an unknown tool, a refused prompt), and the AI SDK's default is to print the
 * whole stack for each; a hostile server would then fill the log and slow the process.
 */
import { LogThrottle } from "../mcp/log-throttle";
import { redact } from "../redact";

const throttle = new LogThrottle();

/** The kind a failure is throttled by: its class name and, for provider errors, the HTTP status. */
export function modelErrorKind(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === "number" ? `${error.name}:${status}` : error.name;
}

/**
 * Log `error` as one redacted line (never a stack) unless a line of its kind was logged within the
 * interval; the next line of that kind says how many were held back. Returns whether it logged.
 */
export function logModelError(context: string, error: unknown, log: (line: string) => void = console.warn, gate = throttle): boolean {
  const kind = modelErrorKind(error);
  const { log: now, held } = gate.take(`${context}:${kind}`);
  if (!now) return false;
  const message = error instanceof Error ? error.message.split("\n", 1)[0] : String(error);
  const more = held ? ` (${held} more of this kind since the last line)` : "";
  log(`[switchboard] ${context} failed: ${kind}: ${redact(message).slice(0, 500)}${more}`);
  return true;
}
