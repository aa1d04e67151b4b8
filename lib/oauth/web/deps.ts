/**
 * Everything the web flow needs from its surroundings, as one value: the store, the URL policy,
 * the two guarded fetches and the app's public URLs. Tests build it over a temp SQLite file.
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import type { ServerDefinition } from "../../mcp/config";
import { SwitchboardOAuthProvider, type AuthorizationHandler } from "../shared/provider";
import type { OAuthStore } from "../shared/store";
import type { OAuthUrlPolicy } from "../shared/url-policy";

/** The web flow's collaborators. */
export interface OAuthDeps {
  store: OAuthStore;
  policy: OAuthUrlPolicy;
  /** For metadata, registration, token and revocation endpoints: SSRF guard plus the https rule. */
  oauthFetch: FetchLike;
  /** For the MCP server itself (the challenge probe): SSRF guard, http allowed like the transport. */
  serverFetch: FetchLike;
  /** The app's `/api/oauth/callback` URL (stable: registrations name it). */
  redirectUrl: string;
  /** The app's Client ID Metadata Document URL, when the app is served over https. */
  clientMetadataUrl?: string;
  /** How long a started authorization may take. Default 10 minutes. */
  stateTtlMs?: number;
  /** Time source. Default Date.now. */
  now?: () => number;
}

/** Extra per-use options of providerFor. */
export interface ProviderUse {
  onAuthorize?: AuthorizationHandler;
  codeVerifier?: string;
  ignoreStoredTokens?: boolean;
  registerWithoutScope?: boolean;
}

/**
 * The provider for (user, server): pre-registered client and fallback scope from the server's
 * `oauth` config, credentials under the user's own key (docs/security.md#oauth).
 */
export function providerFor(deps: OAuthDeps, userId: string, server: ServerDefinition, use: ProviderUse = {}): SwitchboardOAuthProvider {
  const oauth = server.config.oauth;
  return new SwitchboardOAuthProvider({
    key: { userId, serverId: server.id },
    serverUrl: server.config.url!,
    store: deps.store,
    redirectUrl: deps.redirectUrl,
    clientMetadataUrl: deps.clientMetadataUrl,
    // The redirect goes to the app's own web server, also when that runs on localhost, where the SDK
    // would guess "native" from the loopback redirect URI (RFC 8252).
    applicationType: "web",
    preRegistered: oauth?.client_id ? { clientId: oauth.client_id, clientSecret: oauth.client_secret } : undefined,
    scope: oauth?.scope,
    fetch: deps.oauthFetch,
    policy: deps.policy,
    now: deps.now,
    ...use,
  });
}
