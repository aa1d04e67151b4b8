/**
 * The cross-site request rule, applied to every request in one place (proxy.ts): a state-changing
 * request must come from the app's own origin, and a JSON route only takes `application/json`.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// next-auth's own endpoints take form posts (urlencoded); every other /api route is JSON.
const NEXTAUTH_ACTIONS = new Set(["signin", "signout", "callback", "session", "csrf", "providers", "_log", "error", "verify-request"]);

/** The parts of a request the rule looks at. */
export interface CsrfRequest {
  method: string;
  pathname: string;
  headers: Headers;
  /** The app's public origin for this request (lib/security/public-url.ts). */
  publicOrigin: string;
}

/** Why a request is refused: 403 (another origin) or 415 (not JSON). */
export interface CsrfRefusal {
  status: 403 | 415;
  code: "auth.forbidden" | "request.unsupported_media_type";
  message: string;
}

/** Whether a path is one of next-auth's own endpoints (form posts, not JSON). */
export function isNextAuthPath(pathname: string): boolean {
  const match = /^\/api\/auth\/([^/]+)/.exec(pathname);
  return !!match && NEXTAUTH_ACTIONS.has(match[1]);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Where a browser says the request came from, or null when it is not a browser request at all. */
function requestSource(headers: Headers): { sameOrigin: (origin: string) => boolean } | null {
  const origin = headers.get("origin");
  if (origin) return { sameOrigin: (own) => origin === own };
  const site = headers.get("sec-fetch-site");
  // "none" is a navigation the user started themselves (address bar, bookmark).
  if (site) return { sameOrigin: () => site === "same-origin" || site === "none" };
  const referer = headers.get("referer");
  if (referer) return { sameOrigin: (own) => originOf(referer) === own };
  return null;
}

/** Whether a request is for the MCP gateway and carries a bearer token (the gateway's only credential). */
export function isBearerGatewayRequest(request: Pick<CsrfRequest, "pathname" | "headers">): boolean {
  return request.pathname.startsWith("/mcp/") && /^Bearer\s+\S/i.test(request.headers.get("authorization") ?? "");
}

/** The refusal for a request, or null when it may go ahead. */
export function csrfRefusal(request: CsrfRequest): CsrfRefusal | null {
  const method = request.method.toUpperCase();
  if (SAFE_METHODS.has(method)) return null;
  // The MCP gateway (`/mcp/…`, docs/gateway.md) takes a personal access token as a bearer header
  // and never reads a cookie (requireToken), so a cross-site page has no ambient credential to borrow
  // there; MCP clients running in a browser send an Origin of their own.
  if (isBearerGatewayRequest(request)) return null;
  const source = requestSource(request.headers);
  // No Origin, no Sec-Fetch-Site and no Referer: not a browser (the command line, the bench, scripts).
  // Cross-site forgery needs a victim's browser, and browsers send Origin on every cross-origin
  // POST/PUT/PATCH/DELETE (and Sec-Fetch-Site on all of them), so such a request carries no
  // ambient credentials an attacker could borrow.
  if (source && !source.sameOrigin(request.publicOrigin)) {
    return { status: 403, code: "auth.forbidden", message: "Cross-origin request refused: it must come from this app's own pages." };
  }
  if (request.pathname.startsWith("/api/") && !isNextAuthPath(request.pathname)) {
    const type = request.headers.get("content-type");
    // A bodiless request has no type; any body must be JSON (a text/plain form is the classic forgery).
    if (type && type.split(";")[0].trim().toLowerCase() !== "application/json") {
      return { status: 415, code: "request.unsupported_media_type", message: "Send the body as application/json." };
    }
  }
  return null;
}
