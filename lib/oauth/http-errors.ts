/**
 * The OAuth routes' error boundary: OAuthFlowError → 400 with its fixed text, a refused or failed
 * request (lib/net) → 502 naming the host, anything else → the app's generic `errorResponse`.
 */
import { errorResponse } from "../errors";
import { NetError } from "../net";
import { redact } from "../redact";
import { OAuthFlowError } from "./errors";

/** Turn a thrown value from the OAuth flow into a JSON response `{code, message}`. */
export function oauthErrorResponse(error: unknown): Response {
  if (error instanceof OAuthFlowError) return Response.json({ code: error.code, message: error.message }, { status: 400 });
  if (error instanceof NetError) return Response.json({ code: "upstream", message: redact(error.message) }, { status: 502 });
  return errorResponse(error);
}

/** Wrap an OAuth route handler with oauthErrorResponse. */
export function oauthRoute<Args extends unknown[]>(handler: (...args: Args) => Promise<Response>) {
  return async (...args: Args): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      return oauthErrorResponse(error);
    }
  };
}
