/**
 * Turns whatever the SDK, fetch or a child process threw into one `EngineError` with a specific,
 * redacted troubleshooting message (docs/errors.md). Called once, where the SDK is called.
 */
import { UnauthorizedError } from "@modelcontextprotocol/client";
import { SseError } from "@modelcontextprotocol/client";
import {
  ProtocolErrorCode as RpcCode,
  ProtocolError as McpError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from "@modelcontextprotocol/client";
import { totalTimeoutOf } from "./call-deadline";
import { EngineError, LIMIT_EXCEEDED_RPC_CODE, MESSAGE_TOO_LARGE_RPC_CODE, STREAM_BROKEN_RPC_CODE } from "./errors";
import { LaunchRefusedError } from "./launch";
import { flattenIssueDump } from "./issue-line";
import { BlockedRequestError } from "../net/errors";
import { blockedCause, blockedMessage } from "../net/blocked-message";

/** What the translator knows about where the error happened. */
export interface ErrorContext {
  serverName: string;
  phase: "connect" | "call" | "idle";
  secrets: string[];
  url?: string;
  /** Redacted stderr tail of a stdio child. */
  stderr?: string;
  /** How a stdio child exited, if it did. */
  exit?: { code: number | null; signal: string | null; cause?: string } | null;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The Streamable HTTP session id the failed request carried, if any. */
  sessionId?: string;
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);
const NPM_NOT_FOUND = /E404|404 Not Found|is not in this registry|could not determine executable to run|npm (?:ERR!|error) notarget/i;

/** Map any thrown value to an EngineError for `context`. */
export function translateError(error: unknown, context: ErrorContext): EngineError {
  if (error instanceof EngineError) return error;
  const opts = { secrets: context.secrets, cause: error };
  const name = `server "${context.serverName}"`;
  if (context.signal?.aborted || isAbort(error)) return new EngineError("cancelled", `${name}: cancelled`, opts);
  if (error instanceof LaunchRefusedError) return new EngineError("launch_refused", `${name}: ${error.message}`, opts);
  if (error instanceof UnauthorizedError || httpStatus(error) === 401) {
    return new EngineError("needs_authorization", `${name} needs authorization: connect it from the server settings to sign in`, opts);
  }
  // The SSRF guard refused the URL: the same sentence as Test connection, naming the allow-list.
  const blocked = blockedIn(error);
  if (blocked) return new EngineError("unreachable", `${name}: ${blockedMessage(blocked, "the address")}`, opts);
  const netCode = networkCode(error);
  if (netCode) {
    return new EngineError("unreachable", `${name}: cannot reach ${context.url ?? "the server"} (${describeNetCode(netCode)})`, opts);
  }
  if (error instanceof McpError) return translateRpcError(error, context);
  if (error instanceof SdkError && !(error instanceof SdkHttpError)) return translateSdkError(error, context);
  const status = httpStatus(error);
  if (status !== undefined) {
    // 404 is the spec's answer to an unknown session; real servers (the SDK's examples) answer 400
    // "No valid session ID provided" after a restart. Either way a new session may help (docs/limits.md).
    if (context.phase === "call" && (status === 404 || (status === 400 && context.sessionId))) {
      return new EngineError("session_expired", `${name}: session expired (HTTP ${status})`, opts);
    }
    // A gateway's 502–504 after the connect speaks for a server that went away behind it: a drop,
    // so the status does not read "connected" while every call fails this way.
    if (context.phase !== "connect" && status >= 502 && status <= 504) {
      return new EngineError(
        "unreachable",
        `${name}: ${context.url ?? "the server"} answered HTTP ${status}: the server behind it is not reachable`,
        opts,
      );
    }
    if (context.phase === "connect" && (status === 400 || status === 404 || status === 405)) {
      return new EngineError(
        "transport_unavailable",
        `${name}: ${context.url} speaks neither Streamable HTTP nor legacy HTTP+SSE (HTTP ${status}); check the URL path (often /mcp or /sse)`,
        opts,
      );
    }
    return new EngineError("server_error", `${name}: HTTP ${status}: ${flattenIssueDump((error as Error).message)}`, opts);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EngineError("server_error", `${name}: ${flattenIssueDump(message)}`, opts);
}

// A guard refusal in the cause chain, or (where a library kept only the text, as the SSE client
// does) in the message in the guard's own words: "blocked <url>: <reason>".
function blockedIn(error: unknown): BlockedRequestError | null {
  const found = blockedCause(error);
  if (found) return found;
  const text = /\bblocked (https?:\/\/\S+): (.+)$/.exec(error instanceof Error ? error.message : "");
  return text ? new BlockedRequestError(text[1], text[2]) : null;
}

function translateRpcError(error: McpError, context: ErrorContext): EngineError {
  const opts = { secrets: context.secrets, cause: error };
  const name = `server "${context.serverName}"`;
  switch (error.code) {
    case MESSAGE_TOO_LARGE_RPC_CODE:
      return new EngineError("message_too_large", `${name}: ${stripPrefix(error.message)}`, opts);
    case LIMIT_EXCEEDED_RPC_CODE:
      return new EngineError("limit_exceeded", `${name}: ${stripPrefix(error.message)}`, opts);
    case STREAM_BROKEN_RPC_CODE:
      return new EngineError("stream_broken", `${name}: ${stripPrefix(error.message)}`, opts);
    case RpcCode.UrlElicitationRequired:
      return new EngineError("server_error", `${name}: complete the URL elicitation the server asked for, then retry`, opts);
    default:
      return new EngineError("server_error", `${name}: ${flattenIssueDump(stripPrefix(error.message))}`, opts);
  }
}

/** Errors the SDK raises locally (never on the wire): timeouts and closed links among them. */
function translateSdkError(error: SdkError, context: ErrorContext): EngineError {
  const opts = { secrets: context.secrets, cause: error };
  const name = `server "${context.serverName}"`;
  switch (error.code) {
    case SdkErrorCode.RequestTimeout:
      if (context.phase === "connect") return connectTimeout(context);
      if (totalTimeoutOf(error) !== undefined) {
        return new EngineError(
          "call_timeout",
          `${name}: the tool call ran longer than \`max_total_timeout\` (${seconds(totalTimeoutOf(error))} s), its ceiling however much progress it reports; raise \`max_total_timeout\` if the tool is that slow`,
          opts,
        );
      }
      return new EngineError(
        "call_timeout",
        `${name}: the tool call timed out after ${seconds(context.timeoutMs)} s without progress; raise \`timeout\` if the tool is slow`,
        opts,
      );
    case SdkErrorCode.ConnectionClosed:
      return closedDuring(context, error);
    default:
      // "Invalid result for tools/list: [ …issues as JSON… ]": one line naming the field instead.
      return new EngineError("server_error", `${name}: ${flattenIssueDump(stripPrefix(error.message))}`, opts);
  }
}

/** The error for "no answer within connect_timeout", with the stderr tail when there is one. */
export function connectTimeout(context: ErrorContext): EngineError {
  const tail = context.stderr ? `\nstderr:\n${context.stderr}` : "";
  return new EngineError(
    "connect_timeout",
    `server "${context.serverName}" did not finish connecting within ${seconds(context.timeoutMs)} s; if it is slow to start, raise \`connect_timeout\` (seconds)${tail}`,
    { secrets: context.secrets },
  );
}

/** The error for a link that closed, naming the exit status and whether npx could not find the package. */
export function closedDuring(context: ErrorContext, cause?: unknown): EngineError {
  const opts = { secrets: context.secrets, cause };
  const name = `server "${context.serverName}"`;
  const stderr = context.stderr ?? "";
  if (context.phase === "connect" && NPM_NOT_FOUND.test(stderr)) {
    return new EngineError(
      "package_not_found",
      `${name}: the package was not found (check the package name and version in \`args\`)\nstderr:\n${stderr}`,
      opts,
    );
  }
  const limit = context.exit?.cause ? `: ${context.exit.cause}` : "";
  const exit = context.exit
    ? ` (process exited${context.exit.code !== null ? ` with code ${context.exit.code}` : ""}${context.exit.signal ? ` on ${context.exit.signal}` : ""}${limit})`
    : "";
  const when = { connect: "before it finished initializing", call: "during the call", idle: "unexpectedly" }[context.phase];
  const tail = stderr ? `\nstderr:\n${stderr}` : "";
  return new EngineError("connection_closed", `${name} closed the connection ${when}${exit}${tail}`, opts);
}

function httpStatus(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status;
  if (error instanceof SseError) return error.code;
  return undefined;
}

function networkCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
    const message = (current as { message?: unknown }).message;
    const inText = typeof message === "string" ? /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET)\b/.exec(message) : null;
    if (inText) return inText[1];
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describeNetCode(code: string): string {
  if (code === "ECONNREFUSED") return "connection refused: is the server running on that port?";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host name not found: check the URL";
  return code;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || (error as { code?: unknown }).code === "ABORT_ERR");
}

function stripPrefix(message: string): string {
  return message.replace(/^MCP error -?\d+:\s*/, "");
}

function seconds(ms: number | undefined): string {
  return ms === undefined ? "?" : String(Math.round(ms / 100) / 10);
}
