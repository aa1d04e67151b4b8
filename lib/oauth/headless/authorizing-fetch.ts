/**
 * A fetch for an MCP transport that handles OAuth itself, headlessly: it adds the bearer token
 * (to the MCP server's origin only), and on 401 or 403 `insufficient_scope` runs the SDK's `auth()`
 * — discovery, registration, PKCE, exchange — then retries. Step-up is bounded (≤ 3 authorizations).
 */
import { extractWWWAuthenticateParams, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { runAuth } from "../shared/run-auth";
import { unionScopes } from "../shared/scopes";
import type { FetchLike } from "@modelcontextprotocol/client";
import { OAuthFlowError } from "../shared/errors";

/** Options of createAuthorizingFetch. */
export interface AuthorizingFetchOptions {
  /** fetch for the MCP server (SSRF-guarded). */
  fetch: FetchLike;
  /** fetch for OAuth metadata, registration and token endpoints (SSRF-guarded, https rule). */
  oauthFetch: FetchLike;
  provider: OAuthClientProvider;
  serverUrl: string;
  /** Returns the code (and RFC 9207 `iss`) the interactive step obtained (headless: from the redirect). */
  takeResponse: () => { code: string; iss?: string };
  /** Most authorizations per fetch instance. Default 3, so a server cannot loop the user through sign-ins (docs/security.md#oauth). */
  maxAuthorizations?: number;
}

/** Wrap `fetch` so requests to `serverUrl` carry the provider's token and authorize on demand. */
export function createAuthorizingFetch(options: AuthorizingFetchOptions): FetchLike {
  const origin = new URL(options.serverUrl).origin;
  const max = options.maxAuthorizations ?? 3;
  let authorizations = 0;
  // What the last authorization asked for: a step-up asks for it again plus the challenge (SEP-2350).
  let requested: string | undefined;

  async function authorize(scope: string | undefined, resourceMetadataUrl: URL | undefined): Promise<void> {
    requested = scope;
    const base = { serverUrl: options.serverUrl, scope, resourceMetadataUrl, fetchFn: options.oauthFetch };
    const result = await runAuth(options.provider, base);
    if (result === "REDIRECT") {
      authorizations++;
      const { code, iss } = options.takeResponse();
      await runAuth(options.provider, { ...base, authorizationCode: code, iss });
    }
  }

  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    // A token for this server is never sent anywhere else (docs/security.md#oauth).
    if (url.origin !== origin) return options.fetch(input, init);
    for (let attempt = 0; ; attempt++) {
      const headers = new Headers(init?.headers);
      const tokens = await options.provider.tokens();
      if (tokens) headers.set("authorization", `Bearer ${tokens.access_token}`);
      const response = await options.fetch(input, { ...init, headers });
      const challenge = response.status === 401 || response.status === 403 ? extractWWWAuthenticateParams(response) : undefined;
      const stepUp = response.status === 403 && challenge?.error === "insufficient_scope";
      if (response.status !== 401 && !stepUp) return response;
      if (authorizations >= max || attempt > max * 2) {
        await response.body?.cancel();
        throw new OAuthFlowError("step_up_limit");
      }
      await response.body?.cancel();
      // More scope needs a new authorization, not a refresh of the narrower token.
      if (stepUp) await options.provider.invalidateCredentials?.("tokens");
      // A 401 to a token that worked may mean the server moved to another authorization server:
      // discover again rather than trust what was found before (the registration follows the issuer).
      else if (tokens) await options.provider.invalidateCredentials?.("discovery");
      await authorize(stepUp ? unionScopes(requested, challenge?.scope) : challenge?.scope, challenge?.resourceMetadataUrl);
    }
  };
}
