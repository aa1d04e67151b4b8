/**
 * The web app's OAuth wiring: the database store under the instance key, guarded fetches from the
 * environment, the redirect URI of the origin a flow started from (lib/security/public-url.ts), and the pool's
 * provider factory (background use: never starts an authorization by itself).
 */
import "server-only";
import { getDb } from "../../db/client";
import { instanceKey } from "../../db/key-check";
import type { AuthProviderFactory } from "../mcp/types";
import { guardedFetchFromEnv } from "../net";
import { withResponseCap } from "../net/capped-response";
import { oauthTimeoutMs, withTimeout } from "../net/fetch-timeout";
import { configuredPublicOrigin, fallbackOrigin } from "../security/public-url";
import { providerFor, type OAuthDeps } from "../oauth/web/deps";
import { depsForOrigin, type OriginFreeDeps } from "../oauth/web/redirect";
export { oauthRequestOrigin } from "../oauth/web/redirect";
import { createDbStore } from "../oauth/web/db-store";
import { urlPolicyFromEnv } from "../oauth/shared/url-policy";

let cached: OriginFreeDeps | undefined;

/**
 * The app's public base URL without a trailing slash when no request is at hand: the configured
 * public URL, else `http://localhost:$PORT` (lib/security/public-url.ts has the rule).
 */
export function publicBaseUrl(): string {
  return configuredPublicOrigin() ?? fallbackOrigin();
}

/**
 * The OAuth collaborators for a flow whose browser is on `origin` (default: the public base URL).
 * Store, policy and fetches are process-wide (created on first use, after the database is open);
 * the redirect URI follows the origin so that Connect from 127.0.0.1 comes back to 127.0.0.1.
 */
export function appOAuthDeps(origin: string = publicBaseUrl()): OAuthDeps {
  if (!cached) {
    const policy = urlPolicyFromEnv();
    cached = {
      // The refresh lease outlasts the bounded refresh: its token request, plus the reads around it.
      store: createDbStore(getDb(), instanceKey(), 2 * oauthTimeoutMs() + 10_000),
      policy,
      // Every OAuth exchange has a time limit: metadata that never answers must not hang the request.
      // And a byte cap on every answer: metadata or a token response of megabytes is refused.
      oauthFetch: withResponseCap(
        withTimeout(guardedFetchFromEnv({ allowHttp: policy.allowLoopbackHttp ? "loopback" : "never" }), oauthTimeoutMs()),
      ),
      serverFetch: withTimeout(guardedFetchFromEnv(), oauthTimeoutMs()),
    };
  }
  return depsForOrigin(cached, origin);
}

/** The pool's `authProvider`: every remote server gets one, so a 401 becomes needs_authorization. */
export function appAuthProviderFactory(): AuthProviderFactory {
  return (userId, server) => (server.config.url ? providerFor(appOAuthDeps(), userId, server) : undefined);
}
