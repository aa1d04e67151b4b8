/**
 * Scheme rules for URLs the app shows, links to or sends users to (docs/security.md#ssrf-guard): links are http(s)
 * only, and OAuth authorization and metadata URLs are https (http only for loopback, if allowed).
 */
import { classifyAddress, isLocalhostName } from "./address-policy";
import { UnsafeUrlError, displayUrl } from "./errors";
import { parseIpLiteral } from "./ip-literal";
import { isSafeLinkUrl, parseAbsoluteUrl } from "./safe-link";

export { isSafeLinkUrl };

/** Return the parsed URL when it is safe to show or link; throws UnsafeUrlError "unsafe_url" otherwise. */
export function assertSafeDisplayUrl(url: string | URL): URL {
  const parsed = parseAbsoluteUrl(url);
  if (!parsed) throw new UnsafeUrlError("unsafe_url", "not an absolute URL");
  if (!isSafeLinkUrl(parsed)) {
    throw new UnsafeUrlError("unsafe_url", `scheme ${parsed.protocol} is not allowed (only http and https)`);
  }
  return parsed;
}

/** Options for assertHttpsUnlessLoopback. */
export interface HttpsRuleOptions {
  /** Allow http:// when the host is loopback (localhost, 127/8, ::1). Default false. */
  allowLoopbackHttp?: boolean;
}

/** True when the URL's host is this machine by name or by literal address (no DNS). */
export function isLoopbackUrl(url: URL): boolean {
  if (isLocalhostName(url.hostname)) return true;
  const literal = parseIpLiteral(url.hostname);
  if (!literal) return false;
  const verdict = classifyAddress(literal);
  return verdict.blocked && verdict.category === "loopback";
}

/**
 * For OAuth authorization and metadata URLs: return the parsed URL when it is https, or http to
 * a loopback host when `allowLoopbackHttp`; throws UnsafeUrlError "insecure_url" otherwise.
 */
export function assertHttpsUnlessLoopback(url: string | URL, options: HttpsRuleOptions = {}): URL {
  const parsed = assertSafeDisplayUrl(url);
  if (parsed.protocol === "https:") return parsed;
  if (options.allowLoopbackHttp && isLoopbackUrl(parsed)) return parsed;
  const rule = options.allowLoopbackHttp ? "https is required (http only for loopback)" : "https is required";
  throw new UnsafeUrlError("insecure_url", `refused ${displayUrl(parsed)}: ${rule}`);
}
