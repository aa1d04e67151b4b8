/**
 * Resolve-then-check for one request hop (docs/security.md#ssrf-guard): the URL's scheme, credentials and every
 * address its host resolves to are judged before any socket exists. The checked addresses are
 * returned so the connection can be pinned to them (no second resolution, no rebinding).
 */
import { lookup } from "node:dns/promises";
import {
  classifyAddress,
  isAddressAllowListed,
  isHostAllowListed,
  isLocalhostName,
  normalizeHostname,
  type AllowList,
} from "./address-policy";
import { BlockedRequestError, NetError, UnsafeUrlError, displayUrl } from "./errors";
import { parseIpLiteral, type IpAddress } from "./ip-literal";

/** One address a resolver returned. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name resolution as the guard sees it; injectable so tests never depend on real DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver: `dns.lookup` with all addresses, in the order the OS gives them. */
export const systemResolver: Resolver = async (hostname) => {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
};

/**
 * When plain http is acceptable: "always" (MCP server URLs may be http), "loopback" (only when
 * every checked address is loopback, e.g. a local authorization server in development), "never".
 */
export type HttpPolicy = "never" | "loopback" | "always";

/** What the check needs to know. */
export interface TargetCheckOptions {
  allowedHosts: AllowList;
  allowHttp: HttpPolicy;
  resolver: Resolver;
}

/** A hop that passed the policy: connect to exactly these addresses for `hostname`. */
export interface CheckedTarget {
  url: URL;
  /** Normalized host name (no brackets, no trailing dot). */
  hostname: string;
  addresses: IpAddress[];
}

/**
 * Check one URL. Throws BlockedRequestError (a refused destination), UnsafeUrlError (http
 * where https is required) or NetError "dns_failed". Never opens a socket.
 */
export async function checkTarget(url: URL, options: TargetCheckOptions): Promise<CheckedTarget> {
  const shown = displayUrl(url);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new BlockedRequestError(shown, `scheme ${url.protocol} is not allowed (only http and https)`);
  }
  // Credentials in URLs leak into logs and redirects; servers get credentials through headers.
  if (url.username || url.password) throw new BlockedRequestError(shown, "URLs must not carry credentials");

  const hostname = normalizeHostname(url.hostname);
  const literal = parseIpLiteral(hostname);
  const hostAllowed = !literal && isHostAllowListed(options.allowedHosts, hostname);
  // A localhost name is this machine whatever a resolver would claim (RFC 6761 §6.3): refuse it
  // without asking DNS; only naming it in the allow-list opens it.
  if (!hostAllowed && isLocalhostName(hostname)) throw new BlockedRequestError(shown, `${hostname} is loopback`);
  const addresses = literal ? [literal] : await resolve(hostname, shown, options.resolver);

  for (const address of addresses) {
    if (hostAllowed || isAddressAllowListed(options.allowedHosts, address)) continue;
    const subject = literal ? address.text : `${hostname} resolves to ${address.text}, which`;
    const verdict = classifyAddress(address);
    if (verdict.blocked) throw new BlockedRequestError(shown, `${subject} is ${verdict.reason}`);
  }

  if (url.protocol === "http:" && options.allowHttp !== "always") {
    const allLoopback = addresses.every((a) => {
      const verdict = classifyAddress(a);
      return verdict.blocked && verdict.category === "loopback";
    });
    if (options.allowHttp === "never" || !allLoopback) {
      const rule = options.allowHttp === "never" ? "https is required" : "https is required (http only for loopback)";
      throw new UnsafeUrlError("insecure_url", `refused ${shown}: ${rule}`);
    }
  }
  return { url, hostname, addresses };
}

async function resolve(hostname: string, shown: string, resolver: Resolver): Promise<IpAddress[]> {
  let results: ResolvedAddress[];
  try {
    results = await resolver(hostname);
  } catch (error) {
    throw new NetError("dns_failed", 502, `cannot resolve ${hostname} for ${shown}`, { cause: error });
  }
  if (results.length === 0) throw new NetError("dns_failed", 502, `${hostname} has no addresses (${shown})`);
  return results.map((r) => {
    const parsed = parseIpLiteral(r.address);
    // A resolver answer that is not an address cannot be pinned or judged: refuse it.
    if (!parsed) throw new BlockedRequestError(shown, `${hostname} resolved to a non-address "${r.address}"`);
    return parsed;
  });
}
