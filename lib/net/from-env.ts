/**
 * The process-wide allow-list from `SWITCHBOARD_ALLOWED_HOSTS`, read once: changing it needs a
 * restart, so a request can never observe a half-updated policy.
 */
import { allowedHostsSetting } from "../env";
import { parseAllowedHosts, type AllowList } from "./address-policy";
import { createGuardedFetch, type GuardedFetch, type GuardedFetchOptions } from "./guarded-fetch";

/** The environment variable holding comma-separated allowed hosts and CIDRs. */
export const ALLOWED_HOSTS_ENV = "SWITCHBOARD_ALLOWED_HOSTS";

let cached: AllowList | undefined;

/** The allow-list from the environment, parsed on first use; throws AllowListError on a bad entry. */
export function allowedHostsFromEnv(): AllowList {
  cached ??= parseAllowedHosts(allowedHostsSetting());
  return cached;
}

/**
 * A guarded fetch using the environment's allow-list. Call sites say their http rule
 * explicitly (`allowHttp`); the default is "always", which suits MCP server URLs only.
 */
export function guardedFetchFromEnv(options: Omit<GuardedFetchOptions, "allowedHosts"> = {}): GuardedFetch {
  return createGuardedFetch({ ...options, allowedHosts: allowedHostsFromEnv() });
}
