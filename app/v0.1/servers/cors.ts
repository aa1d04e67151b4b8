/**
 * CORS for the catalog served as a registry (docs/catalog.md#serving-the-catalog): any origin may
 * read it, never with the user's cookies (no `Allow-Credentials`), so another site cannot read a
 * signed-in user's private catalog; a client from another origin sends its own credentials.
 */
export const REGISTRY_CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, accept",
  "access-control-max-age": "600",
} as const;

/** A response with the registry's CORS headers added (and `WWW-Authenticate: Bearer` on a 401). */
export function withCors(response: Response): Response {
  for (const [name, value] of Object.entries(REGISTRY_CORS)) response.headers.set(name, value);
  // RFC 6750 §3: a refused or missing credential names the scheme a client should send.
  if (response.status === 401) response.headers.set("www-authenticate", 'Bearer realm="switchboard"');
  return response;
}

/** The answer to a CORS preflight. */
export function preflight(): Response {
  return new Response(null, { status: 204, headers: REGISTRY_CORS });
}
