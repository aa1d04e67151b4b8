/**
 * The HTTP boundary helpers every route uses: one wrapper that turns thrown errors into JSON, and
 * a JSON body reader that stops reading past its size cap (413) and reports malformed input as a 400.
 */
import { AppError, errorResponse } from "./errors";

/** Wrap a route handler so any thrown error becomes a `{code, message, field?}` response. */
export function route<Args extends unknown[]>(handler: (...args: Args) => Promise<Response>) {
  return async (...args: Args): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** Default cap on a JSON request body (`SWITCHBOARD_MAX_BODY_BYTES`, default 1 MB). */
export function maxBodyBytes(): number {
  const value = Number(process.env.SWITCHBOARD_MAX_BODY_BYTES);
  return Number.isFinite(value) && value > 0 ? value : 1_000_000;
}

/**
 * Read a request body as text, counting bytes as they arrive: past `maxBytes` reading stops and a
 * 413 is thrown, so an oversized body is never buffered whole (a lying Content-Length is refused first).
 */
export async function readBodyText(request: Request, maxBytes = maxBodyBytes()): Promise<string> {
  const tooLarge = () => new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined); // the 413 is the answer; the rest is not read
      throw tooLarge();
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString("utf8");
}

/** Read a JSON body (at most `maxBytes`, else 413), or throw a 400. Call it after the session check. */
export async function readJson(request: Request, maxBytes = maxBodyBytes()): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
}

/** The `id` route parameter (Next 16 passes params as a promise). */
export async function idParam(context: { params: Promise<{ id: string }> }): Promise<string> {
  return (await context.params).id;
}
