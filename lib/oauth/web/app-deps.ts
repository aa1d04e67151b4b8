/**
 * The web app's OAuth wiring: SQLite store under the instance key, guarded fetches from the
 * environment, public URLs from `SWITCHBOARD_PUBLIC_URL` (else `NEXTAUTH_URL`), and the pool's
 * provider factory (background use: never starts an authorization by itself).
 */
import "server-only";
import { getDb } from "../../../db/client";
import { instanceKey } from "../../../db/key-check";
import type { AuthProviderFactory } from "../../mcp/types";
import { guardedFetchFromEnv } from "../../net";
import { oauthTimeoutMs, withTimeout } from "../../net/fetch-timeout";
import { configuredPublicOrigin, fallbackOrigin } from "../../security/public-url";
import { CALLBACK_PATH, CLIENT_METADATA_PATH } from "./client-metadata";
import { providerFor, type OAuthDeps } from "./deps";
import { createSqliteStore } from "./sqlite-store";
import { urlPolicyFromEnv } from "../shared/url-policy";

let cached: OAuthDeps | undefined;

/**
 * The app's public base URL without a trailing slash: the configured public URL, else
 * `http://localhost:$PORT` (one process-wide redirect URI; lib/security/public-url.ts has the rule).
 */
export function publicBaseUrl(): string {
  return configuredPublicOrigin() ?? fallbackOrigin();
}

/** The process-wide OAuth collaborators (created on first use, after the database is open). */
export function appOAuthDeps(): OAuthDeps {
  if (!cached) {
    const policy = urlPolicyFromEnv();
    const base = publicBaseUrl();
    cached = {
      store: createSqliteStore(getDb(), instanceKey()),
      policy,
      // Every OAuth exchange has a time limit: metadata that never answers must not hang the request.
      oauthFetch: withTimeout(guardedFetchFromEnv({ allowHttp: policy.allowLoopbackHttp ? "loopback" : "never" }), oauthTimeoutMs()),
      serverFetch: withTimeout(guardedFetchFromEnv(), oauthTimeoutMs()),
      redirectUrl: `${base}${CALLBACK_PATH}`,
      // SEP-991 needs an https document URL; over plain http the SDK registers dynamically instead.
      clientMetadataUrl: base.startsWith("https://") ? `${base}${CLIENT_METADATA_PATH}` : undefined,
    };
  }
  return cached;
}

/** The pool's `authProvider`: every remote server gets one, so a 401 becomes needs_authorization. */
export function appAuthProviderFactory(): AuthProviderFactory {
  return (userId, server) => (server.config.url ? providerFor(appOAuthDeps(), userId, server) : undefined);
}
