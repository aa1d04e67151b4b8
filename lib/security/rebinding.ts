/**
 * DNS-rebinding protection for the MCP gateway (`/mcp/…`, docs/web-hardening.md, docs/gateway.md#what-a-request-goes-through):
 * a page on evil.example whose name was made to resolve to this machine reaches the app with
 * `Host: evil.example`. The gateway answers only requests addressed to the app itself: a loopback
 * name, or the host of the public origin (`SWITCHBOARD_PUBLIC_URL`; in development, the request's
 * own). The bearer token is the gateway's real credential; this refusal keeps a rebinding page from
 * even reaching the handshake, as the MCP transport rules ask of every server.
 */
import type { CsrfRefusal } from "./csrf";
import { isLoopbackHostname } from "./public-url";

/** Whether a path is the gateway's (`/mcp/<workspace>[/<server>]`). */
export function isGatewayPath(pathname: string): boolean {
  return pathname === "/mcp" || pathname.startsWith("/mcp/");
}

function hostnameOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** The refusal of a gateway request addressed to another name than the app's, or null. */
export function rebindingRefusal(request: { pathname: string; headers: Headers; publicOrigin: string }): CsrfRefusal | null {
  if (!isGatewayPath(request.pathname)) return null;
  const host = request.headers.get("host");
  // Every browser sends Host; a request without one is not a page's.
  if (host === null) return null;
  const hostname = hostnameOf(host);
  if (hostname !== null && (isLoopbackHostname(hostname) || hostname === new URL(request.publicOrigin).hostname.toLowerCase())) return null;
  return {
    status: 403,
    code: "auth.forbidden",
    message:
      "This request was addressed to another host name than this app's: the MCP endpoints answer only at the public URL " +
      "(SWITCHBOARD_PUBLIC_URL) or a loopback address (DNS-rebinding protection).",
  };
}
