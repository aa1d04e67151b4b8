/**
 * The one place every request passes before any route or page: the gateway's DNS-rebinding rule
 * and the cross-site request rule (lib/security/rebinding.ts, csrf.ts), the security headers with a per-request CSP nonce, the public origin
 * next-auth builds its redirects from, and workspace-scoped API paths (`/api/w/<slug>/…`,
 * lib/workspaces/api-path.ts) served by their route. Sessions are checked by each route itself
 * (lib/auth/session.ts).
 */
import { type NextRequest, NextResponse } from "next/server";
import { SANDBOX_PATH } from "./lib/apps/sandbox-page";
import { applySecurityHeaders } from "./lib/security/headers";
import { requestPolicy } from "./lib/security/request-policy";
import { splitWorkspacePath, withPathWorkspace } from "./lib/workspaces/api-path";

/** Refuse cross-site writes, set security headers, and pin the forwarded host to the public origin. */
export function proxy(request: NextRequest): NextResponse {
  const { refusal, publicOrigin, https, nonce, csp } = requestPolicy({
    method: request.method,
    pathname: request.nextUrl.pathname,
    headers: request.headers,
  });
  if (refusal) {
    const response = NextResponse.json({ code: refusal.code, message: refusal.message }, { status: refusal.status });
    applySecurityHeaders(response.headers, { csp, https });
    return response;
  }

  const requestHeaders = new Headers(request.headers);
  // Next finds the nonce in the request's CSP header and puts it on its own scripts.
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  // next-auth takes its origin from these (AUTH_TRUST_HOST): whatever the client sent is replaced,
  // so redirects and sign-out return to the public origin, never to a host the client made up.
  const url = new URL(publicOrigin);
  requestHeaders.set("x-forwarded-host", url.host);
  requestHeaders.set("x-forwarded-proto", url.protocol.slice(0, -1));

  // `/api/w/<slug>/<route>` is `/api/<route>` told the path's workspace; a client's own copy of that
  // header is dropped on every request, so only the path can name it.
  const scoped = splitWorkspacePath(request.nextUrl.pathname);
  withPathWorkspace(requestHeaders, scoped?.slug ?? null);
  let response: NextResponse;
  if (scoped) {
    const target = request.nextUrl.clone();
    target.pathname = scoped.pathname;
    response = NextResponse.rewrite(target, { request: { headers: requestHeaders } });
  } else {
    response = NextResponse.next({ request: { headers: requestHeaders } });
  }
  applySecurityHeaders(response.headers, { csp, https });
  // An MCP App's frame carries its own sandboxing CSP and may be framed by the app (docs/mcp-apps.md).
  if (request.nextUrl.pathname === SANDBOX_PATH) {
    response.headers.delete("Content-Security-Policy");
    response.headers.delete("X-Frame-Options");
  }
  return response;
}

/** Where the proxy runs: every path but Next's hashed build assets. */
export const config = {
  // Everything but Next's immutable build assets (hashed files that carry no user data).
  matcher: ["/((?!_next/static|_next/image).*)"],
};
