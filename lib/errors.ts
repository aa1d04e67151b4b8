/**
 * One error family for the HTTP boundary: typed errors with a code and a status, turned into a
 * JSON response in one place (`errorResponse`). Bodies never carry a stack or a raw library message.
 */
import { ConfigError } from "./mcp/config";
import { SecretKeyError } from "./crypto";
import { redact } from "./redact";
import { NetError } from "./net/errors";
import { OAuthFlowError } from "./oauth/errors";
import { EngineError, type ErrorCode as EngineErrorCode } from "./mcp/errors";

/** Error codes the API can answer with, and their HTTP status. */
export const ERROR_STATUS = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  bad_request: 400,
  invalid_config: 400,
  weak_password: 400,
  registration_closed: 403,
  payload_too_large: 413,
  unsupported_media_type: 415,
  quota_exceeded: 429,
  secret_key: 500,
  upstream: 502,
  internal: 500,
} as const;

/** A code from ERROR_STATUS. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error that is safe to show: its message is written for the user and holds no secret. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field?: string;
  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.field = field;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** Turn any thrown value into a JSON Response `{code, message, field?}`. Unknown errors become 500. */
export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) {
    return Response.json(
      { code: error.code, message: error.message, field: error.field },
      { status: error.status, headers: retryAfter(error) },
    );
  }
  if (error instanceof ConfigError) {
    return Response.json({ code: "invalid_config", message: error.message, field: error.field }, { status: 400 });
  }
  if (error instanceof EngineError) {
    // Engine messages are redacted where they are built; the code tells the UI which hint to show.
    return Response.json({ code: error.code, message: error.message }, { status: engineStatus(error.code), headers: retryAfter(error) });
  }
  if (error instanceof OAuthFlowError) {
    // Fixed, user-safe texts per code (never a library message or a query value).
    return Response.json({ code: error.code, message: error.message }, { status: 400 });
  }
  if (error instanceof NetError) {
    return Response.json({ code: error.code, message: redact(error.message) }, { status: error.status });
  }
  if (error instanceof SecretKeyError) {
    return Response.json({ code: "secret_key", message: error.message }, { status: 500 });
  }
  // Log the cause for the operator, redacted: library messages can carry tokens or URLs with passwords.
  console.error("[switchboard] unhandled error:", redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error)));
  return Response.json({ code: "internal", message: "Something went wrong on the server." }, { status: 500 });
}

/** `Retry-After` for errors that carry one (quotas, docs/limits.md). */
function retryAfter(error: Error): Record<string, string> | undefined {
  const seconds = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  if (typeof seconds === "number") return { "Retry-After": String(seconds) };
  // An engine quota refusal recorded in a status has no figure of its own: a short wait is right.
  return error instanceof EngineError && error.code === "quota_exceeded" ? { "Retry-After": "30" } : undefined;
}

/** The HTTP status an engine failure answers with. */
function engineStatus(code: EngineErrorCode): number {
  switch (code) {
    case "config":
    case "invalid_arguments":
      return 400;
    case "not_found":
      return 404;
    case "needs_authorization":
    case "disabled":
      return 409;
    case "launch_refused":
      return 503;
    case "quota_exceeded":
      return 429;
    case "call_timeout":
    case "connect_timeout":
      return 504;
    default:
      return 502;
  }
}
