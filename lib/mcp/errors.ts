/**
 * The engine's one error family. Callers dispatch on `code`, never on message text; messages are
 * redacted when the error is built, so they are safe to show to users, the model and logs.
 */
import { brandError, isBrandedInstance } from "../error-brand";
import { redactForDisplay } from "../redact";

/** Every way the engine can fail, each with its own troubleshooting hint (docs/errors.md). */
export type ErrorCode =
  | "config"
  | "command_not_found"
  | "package_not_found"
  | "connect_timeout"
  | "unreachable"
  | "transport_unavailable"
  | "needs_authorization"
  | "disabled"
  | "launch_refused"
  | "not_found"
  | "not_connected"
  | "call_timeout"
  | "cancelled"
  | "message_too_large"
  | "limit_exceeded"
  | "stream_broken"
  | "quota_exceeded"
  | "connection_closed"
  | "session_expired"
  | "reconnecting"
  | "invalid_arguments"
  | "server_error";

/** An engine failure with a stable `code` and a redacted, specific message. */
export class EngineError extends Error {
  readonly code: ErrorCode;
  /** The brand `instanceof` checks, which holds across the app's bundles (lib/error-brand.ts). */
  static readonly brand: string = "switchboard.EngineError";
  static [Symbol.hasInstance](value: unknown): value is EngineError {
    return isBrandedInstance(this, value);
  }
  constructor(code: ErrorCode, message: string, options: { secrets?: Iterable<string>; cause?: unknown } = {}) {
    super(redactForDisplay(message, options.secrets ?? [], 4000), { cause: options.cause });
    brandError(this, new.target);
    this.name = "EngineError";
    this.code = code;
  }
}

/** Whether `error` is an EngineError, optionally with one of `codes`. */
export function isEngineError(error: unknown, ...codes: ErrorCode[]): error is EngineError {
  return error instanceof EngineError && (codes.length === 0 || codes.includes(error.code));
}

/** JSON-RPC error code the stdio transport uses for a response over `maxMessageBytes`. */
export const MESSAGE_TOO_LARGE_RPC_CODE = -32099;

/** JSON-RPC error code the engine's limits answer a request with (over a cap). */
export const LIMIT_EXCEEDED_RPC_CODE = -32098;

/** JSON-RPC error code for a request whose response stream broke or ended without an answer. */
export const STREAM_BROKEN_RPC_CODE = -32097;
