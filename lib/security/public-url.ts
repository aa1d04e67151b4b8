/**
 * The app's public URL: `SWITCHBOARD_PUBLIC_URL` (or the older `NEXTAUTH_URL`) when set; otherwise
 * the address the request came to, but only when that is a loopback name or address (or in
 * development). A non-loopback Host header is never trusted on its own: a DNS-rebinding page would
 * otherwise pass for the app itself.
 */
import { type EnvBag, environment } from "../env";

/** The configured public origin (no path, no trailing slash), or null when none is set. */
export function configuredPublicOrigin(env: EnvBag = environment()): string | null {
  const raw = env.SWITCHBOARD_PUBLIC_URL || env.NEXTAUTH_URL;
  if (!raw) return null;
  // Every request asks; the answer changes only with the variable.
  if (raw !== lastConfigured.raw) lastConfigured = { raw, origin: originOfConfigured(raw) };
  return lastConfigured.origin;
}

let lastConfigured: { raw: string; origin: string | null } = { raw: "", origin: null };

function originOfConfigured(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

/** The origin used when nothing is configured and the request's host is not trusted. */
export function fallbackOrigin(env: EnvBag = environment()): string {
  return `http://localhost:${env.PORT || "3000"}`;
}

/** Whether a host name (no port; IPv6 in brackets or not) is loopback: localhost, 127/8, ::1. */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  return /^127(\.\d{1,3}){3}$/.test(host);
}

/** What the public origin is derived from for one request. */
export interface OriginRequest {
  /** The `Host` header. */
  host: string | null;
  /** The `X-Forwarded-Proto` header (set by `next start` from the socket when the client sent none). */
  forwardedProto?: string | null;
}

/** The public origin for a request under the rule above. */
export function publicOriginFor(request: OriginRequest, env: EnvBag = environment()): string {
  const configured = configuredPublicOrigin(env);
  if (configured) return configured;
  if (request.host) {
    try {
      const proto = request.forwardedProto === "https" ? "https" : "http";
      const url = new URL(`${proto}://${request.host}`);
      if (isLoopbackHostname(url.hostname) || env.NODE_ENV === "development") return url.origin;
    } catch {
      // A malformed Host header is not trusted: fall through to the fallback.
    }
  }
  return fallbackOrigin(env);
}

/** The public origin for an incoming request (its `Host` and `X-Forwarded-Proto` headers) under the rule above. */
export function requestPublicOrigin(request: { headers: Pick<Headers, "get"> }, env: EnvBag = environment()): string {
  return publicOriginFor({ host: request.headers.get("host"), forwardedProto: request.headers.get("x-forwarded-proto") }, env);
}

/** One line for the start-up log naming the public URL and where it comes from. */
export function describePublicUrl(env: EnvBag = environment()): string {
  const configured = configuredPublicOrigin(env);
  if (configured) {
    const source = env.SWITCHBOARD_PUBLIC_URL ? "SWITCHBOARD_PUBLIC_URL" : "NEXTAUTH_URL";
    return `public URL ${configured} (${source}); OAuth redirects go to ${configured}/api/oauth/callback`;
  }
  return (
    `public URL: the loopback address each request uses (localhost, 127.0.0.1, [::1]); OAuth redirects go to ` +
    `/api/oauth/callback on the address the Connect was started from (${fallbackOrigin(env)} otherwise). ` +
    `Set SWITCHBOARD_PUBLIC_URL to serve the app at any other address.`
  );
}
