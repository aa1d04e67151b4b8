/**
 * The HTTP boundary helpers every route uses: one wrapper that turns thrown errors into JSON, and
 * a JSON body reader that reports malformed input as a 400.
 */
import type { z } from "zod";
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

/** Read a JSON body (at most `maxBytes`), or throw a 400. */
export async function readJson(request: Request, maxBytes = 1_000_000): Promise<unknown> {
  const text = await request.text();
  if (text.length > maxBytes) throw new AppError("bad_request", `The request body is larger than ${maxBytes} bytes.`);
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

/** Read a JSON body and validate it with `schema`; the first problem is a 400 naming its field. */
export async function parseJson<T>(request: Request, schema: z.ZodType<T>, maxBytes?: number): Promise<T> {
  return validate(schema, await readJson(request, maxBytes));
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
  throw new AppError("bad_request", field ? `${field}: ${issue.message}` : issue.message, field);
}
