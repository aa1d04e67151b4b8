/**
 * OpenID Connect discovery through the SSRF guard (docs/security.md#ssrf-guard): the issuer's
 * `/.well-known/openid-configuration` is fetched with lib/net, every endpoint it names is checked
 * against the same address policy (`SWITCHBOARD_ALLOWED_HOSTS`) and https rule as the MCP OAuth
 * flow (`SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH`), and next-auth is then given the checked endpoints.
 * openid-client's own requests (token, JWKS) connect only to addresses the guard accepts
 * (`guardedLookup`), so a name that later resolves elsewhere is refused too.
 */
import type { LookupAddress } from "node:dns";
import { lookup } from "node:dns";
import {
  allowedHostsFromEnv,
  checkTarget,
  classifyAddress,
  guardedFetchFromEnv,
  isAddressAllowListed,
  isHostAllowListed,
  parseIpLiteral,
  systemResolver,
} from "../../net";
import { urlPolicyFromEnv } from "../../oauth/shared/url-policy";
import { singleton } from "../../singleton";

/** The endpoints next-auth needs, each checked. */
export interface SsoEndpoints {
  issuer: string;
  authorization: string;
  token: string;
  userinfo?: string;
  jwks: string;
}

const CACHE_MS = 10 * 60_000;
const cache = () => singleton("sso.discovery", () => new Map<string, { at: number; endpoints: SsoEndpoints }>());

const httpRule = () => (urlPolicyFromEnv().allowLoopbackHttp ? ("loopback" as const) : ("never" as const));

/** Check one URL under the guard's policy; throws a lib/net error naming why. */
export async function assertIssuerUrl(url: string): Promise<URL> {
  const parsed = new URL(url);
  await checkTarget(parsed, { allowedHosts: allowedHostsFromEnv(), allowHttp: httpRule(), resolver: systemResolver });
  return parsed;
}

/** The issuer's checked endpoints (cached 10 minutes); throws when discovery fails or names a refused endpoint. */
export async function discoverEndpoints(issuer: string, now = Date.now()): Promise<SsoEndpoints> {
  const known = cache().get(issuer);
  if (known && now - known.at < CACHE_MS) return known.endpoints;
  const base = issuer.replace(/\/+$/, "");
  const fetcher = guardedFetchFromEnv({ allowHttp: httpRule() });
  let doc: Record<string, unknown>;
  try {
    const response = await fetcher(`${base}/.well-known/openid-configuration`, { headers: { accept: "application/json" } });
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    doc = (await response.json()) as Record<string, unknown>;
  } finally {
    await fetcher.close();
  }
  // OpenID Connect Discovery 1.0 §4.3: the document's issuer must be the one asked for.
  if (typeof doc.issuer !== "string" || doc.issuer.replace(/\/+$/, "") !== base) throw new Error("discovery names another issuer");
  const endpoint = async (key: string, required: boolean) => {
    const value = doc[key];
    if (typeof value !== "string") {
      if (required) throw new Error(`discovery has no ${key}`);
      return undefined;
    }
    return (await assertIssuerUrl(value)).href;
  };
  const endpoints: SsoEndpoints = {
    issuer: doc.issuer,
    authorization: (await endpoint("authorization_endpoint", true)) as string,
    token: (await endpoint("token_endpoint", true)) as string,
    userinfo: await endpoint("userinfo_endpoint", false),
    jwks: (await endpoint("jwks_uri", true)) as string,
  };
  cache().set(issuer, { at: now, endpoints });
  return endpoints;
}

/** Forget cached discovery (a provider was edited). */
export function forgetDiscovery(issuer?: string): void {
  if (issuer) cache().delete(issuer);
  else cache().clear();
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` for openid-client's connections that answers only addresses the SSRF policy
 * accepts: the connection goes to an address that was checked, with no second resolution.
 */
export function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  lookup(hostname, { all: true, verbatim: true }, (error, results) => {
    if (error) return callback(error, []);
    const allowedHosts = allowedHostsFromEnv();
    const hostAllowed = isHostAllowListed(allowedHosts, hostname);
    const accepted = results.filter((entry) => {
      const address = parseIpLiteral(entry.address);
      return !!address && (hostAllowed || isAddressAllowListed(allowedHosts, address) || !classifyAddress(address).blocked);
    });
    if (!accepted.length) {
      const refused = Object.assign(new Error(`${hostname} resolves only to addresses the SSRF guard refuses`), { code: "ENOTFOUND" });
      return callback(refused, []);
    }
    if (options.all) return callback(null, accepted);
    callback(null, accepted[0].address, accepted[0].family);
  });
}
