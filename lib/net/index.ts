/**
 * lib/net: the SSRF guard for every server-side request (docs/security.md#ssrf-guard). Import from here; the
 * files behind it are implementation detail.
 */
export { parseIpLiteral, type IpAddress } from "./ip-literal";
export {
  classifyAddress,
  parseAllowedHosts,
  isHostAllowListed,
  isAddressAllowListed,
  isLocalhostName,
  normalizeHostname,
  EMPTY_ALLOW_LIST,
  type AddressVerdict,
  type AllowList,
  type AllowedNetwork,
  type BlockCategory,
} from "./address-policy";
export { checkTarget, systemResolver, type CheckedTarget, type HttpPolicy, type Resolver, type ResolvedAddress } from "./target-check";
export { createNodeRequester, type NodeRequester, type NodeRequestInit, type NodeResponseHead } from "./node-request";
export { createGuardedFetch, type FetchLike, type GuardedFetch, type GuardedFetchOptions } from "./guarded-fetch";
export { assertHttpsUnlessLoopback, assertSafeDisplayUrl, isLoopbackUrl, isSafeLinkUrl, type HttpsRuleOptions } from "./url-safety";
export { ALLOWED_HOSTS_ENV, allowedHostsFromEnv, guardedFetchFromEnv } from "./from-env";
export {
  AllowListError,
  BlockedRequestError,
  NetError,
  UnsafeUrlError,
  displayUrl,
  type NetErrorCode,
} from "./errors";
