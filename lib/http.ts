/**
 * The HTTP boundary helpers every route uses: one wrapper that turns thrown errors into JSON (the one
 * place each error family becomes a `{code, message, field?}` response, codes in docs/errors.md), and
 * a JSON body reader that stops reading past its size cap (413) and reports malformed input as a 400.
 */
import { databaseFailure, describeDatabaseFailure } from "../db/unavailable";
import { SecretKeyError } from "./crypto";
import { maxBodyBytesSetting } from "./env";
import { AppError, ERROR_STATUS, type ErrorBody, type ErrorCode } from "./errors";
import { ConfigError } from "./mcp/config";
import { EngineError } from "./mcp/errors";
import { zodErrorLine } from "./mcp/issue-line";
import { NetError } from "./net/errors";
import { readCapped } from "./net/read-capped";
import { OAuthFlowError } from "./oauth/shared/errors";
import { redact } from "./redact";
import { countQuotaRefusal } from "./telemetry/metrics";
import { tracedRequest } from "./telemetry/request-span";
import type { z } from "zod";

/** Wrap a route handler so any thrown error becomes a `{code, message, field?}` response. */
export function route<Args extends unknown[]>(handler: (...args: Args) => Promise<Response>) {
  return async (...args: Args): Promise<Response> => {
    const answer = async () => {
      try {
        return await handler(...args);
      } catch (error) {
        return errorResponse(error);
      }
    };
    // Each request is a server span (when tracing is on) and counted (docs/telemetry.md).
    const request = args[0] instanceof Request ? args[0] : undefined;
    return request ? tracedRequest({ method: request.method, url: request.url, headers: request.headers }, answer) : answer();
  };
}

/** Default cap on a JSON request body (`SWITCHBOARD_MAX_BODY_BYTES`, default 1 MB). */
export function maxBodyBytes(): number {
  const value = Number(maxBodyBytesSetting());
  return Number.isFinite(value) && value > 0 ? value : 1_000_000;
}

/** The 413 a body over `maxBytes` gets, wherever it is read (here, or by the direct lane, lib/lane). */
export function bodyTooLarge(maxBytes: number): AppError {
  return new AppError("request.too_large", `The request body is larger than ${maxBytes} bytes.`);
}

/**
 * Read a request body as text, counting bytes as they arrive: past `maxBytes` reading stops and a
 * 413 is thrown, so an oversized body is never buffered whole (a lying Content-Length is refused first).
 */
export async function readBodyText(request: Request, maxBytes = maxBodyBytes()): Promise<string> {
  const tooLarge = () => bodyTooLarge(maxBytes);
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  if (!request.body) return "";
  return (await readCapped(request.body, maxBytes, tooLarge)).toString("utf8");
}

/** Capped stream reading lives in lib/net (outbound answers use it too); routes and icons import it from here. */
export { readCapped };

/** Read a JSON body (at most `maxBytes`, else 413), or throw a 400. Call it after the session check. */
export async function readJson(request: Request, maxBytes = maxBodyBytes()): Promise<unknown> {
  return jsonOf(await readBodyText(request, maxBytes));
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("request.invalid_json", "The request body is not valid JSON.");
  }
}

/** The `id` route parameter (Next 16 passes params as a promise). */
export async function idParam(context: { params: Promise<{ id: string }> }): Promise<string> {
  return (await context.params).id;
}

/** Turn any thrown value into a JSON Response `{code, message, field?}`. Unknown errors become 500. */
export function errorResponse(error: unknown): Response {
  const body = errorBody(error);
  // A throttled or over-quota answer says when to come back (429 + Retry-After).
  // An engine quota refusal carries no figure of its own: a short wait is right.
  if (ERROR_STATUS[body.code] === 429) countQuotaRefusal(body.code);
  const retryAfter =
    error instanceof AppError
      ? error.retryAfterSeconds
      : error instanceof EngineError && error.code === "quota_exceeded"
        ? 30
        : body.code === "database.unavailable" || body.code === "database.busy"
          ? DATABASE_RETRY_SECONDS
          : undefined;
  const headers = retryAfter === undefined ? undefined : { "retry-after": String(Math.max(1, Math.ceil(retryAfter))) };
  return Response.json(body, { status: ERROR_STATUS[body.code], headers });
}

/** How soon a client may try again when the database was out of reach (a restart takes seconds). */
const DATABASE_RETRY_SECONDS = 5;

/** The response body for a thrown value: each family's code gets its family's namespace. */
export function errorBody(error: unknown): ErrorBody {
  if (error instanceof AppError) return { code: error.code, message: error.message, field: error.field };
  if (error instanceof ConfigError) return { code: "server.invalid_config", message: error.message, field: error.field };
  // Engine messages are redacted where they are built; the code tells the UI which hint to show.
  if (error instanceof EngineError) return { code: `engine.${error.code}` satisfies ErrorCode, message: error.message };
  // Fixed, user-safe texts per code (never a library message or a query value).
  if (error instanceof OAuthFlowError) return { code: `oauth.${error.code}` satisfies ErrorCode, message: error.message };
  if (error instanceof NetError) return { code: `net.${error.code}` satisfies ErrorCode, message: redact(error.message) };
  if (error instanceof SecretKeyError) return { code: "instance.secret_key", message: error.message };
  // Try again later: the database is out of reach, or the transaction kept losing to others. Logged
  // for the operator (redacted: a driver message may name the host and user). A commit cut off
  // midway may have happened, so the message does not promise that nothing was saved.
  const failure = databaseFailure(error);
  if (failure) {
    console.error(`[switchboard] database ${failure}:`, redact(describeDatabaseFailure(error)));
    return failure === "unavailable"
      ? { code: "database.unavailable", message: "The database cannot be reached right now. Try again in a few seconds." }
      : { code: "database.busy", message: "The database is busy with conflicting changes. Try again in a few seconds." };
  }
  // Log the cause for the operator, redacted: library messages can carry tokens or URLs with passwords.
  // A validation failure is logged as one line naming its field, never as a multi-line issue dump.
  const issues = zodErrorLine(error);
  const text = issues ? `ZodError: ${issues}` : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.error("[switchboard] unhandled error:", redact(text));
  return { code: "internal.error", message: "Something went wrong on the server." };
}

/** Read a JSON body and validate it with `schema`; the first problem is a 400 naming its field. */
export async function parseJson<T>(request: Request, schema: z.ZodType<T>, maxBytes?: number): Promise<T> {
  return validate(schema, await readJson(request, maxBytes));
}

/** A body already read as text, parsed and validated as `parseJson` does (the same 400s). */
export function parseJsonText<T>(text: string, schema: z.ZodType<T>): T {
  return validate(schema, jsonOf(text));
}

/** Validate the query string with `schema` (each parameter as a string). */
export function parseQuery<T>(request: Request, schema: z.ZodType<T>): T {
  return validate(schema, Object.fromEntries(new URL(request.url).searchParams));
}

/** A named route parameter (Next 16 passes params as a promise). */
export async function param<K extends string>(context: { params: Promise<Record<K, string>> }, name: K): Promise<string> {
  return (await context.params)[name];
}

function validate<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.join(".") || undefined;
  throw new AppError("request.invalid", field ? `${field}: ${issue.message}` : issue.message, field);
}
