/**
 * URL rules of the OAuth flow (docs/security.md#oauth): metadata, registration, token and authorization URLs
 * are https, or http to a loopback host when the instance allows it; the AS must offer PKCE S256.
 */
import type { OAuthDiscoveryState } from "@modelcontextprotocol/client";
import { allowHttpLoopbackOAuthSetting } from "../../env";
import { assertHttpsUnlessLoopback, UnsafeUrlError } from "../../net";
import { OAuthFlowError } from "./errors";

/** The environment switch that allows plain-http OAuth endpoints on loopback hosts (tests, local dev). */
export const ALLOW_HTTP_LOOPBACK_ENV = "SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH";

/** How strict the https rule is. */
export interface OAuthUrlPolicy {
  /** http:// allowed for localhost / 127.0.0.0/8 / ::1. Default false. */
  allowLoopbackHttp: boolean;
}

/** The policy from `SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH` (1/true/yes allows loopback http). */
export function urlPolicyFromEnv(): OAuthUrlPolicy {
  return { allowLoopbackHttp: /^(1|true|yes)$/i.test(allowHttpLoopbackOAuthSetting() ?? "") };
}

/** Parse `url` under the https rule; throws OAuthFlowError "insecure_url" otherwise. */
export function assertOAuthUrl(url: string | URL, policy: OAuthUrlPolicy): URL {
  try {
    return assertHttpsUnlessLoopback(url, { allowLoopbackHttp: policy.allowLoopbackHttp });
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw new OAuthFlowError("insecure_url", error.message);
    throw error;
  }
}

/**
 * Check what discovery found before any secret is sent: every endpoint under the https rule, the
 * authorization and token endpoints on one origin, and PKCE S256 advertised (MCP 2025-11-25
 * "Authorization": refuse when it is absent).
 */
export function assertDiscoveryState(state: OAuthDiscoveryState, policy: OAuthUrlPolicy): void {
  assertOAuthUrl(state.authorizationServerUrl, policy);
  if (state.resourceMetadataUrl) assertOAuthUrl(state.resourceMetadataUrl, policy);
  const metadata = state.authorizationServerMetadata;
  if (!metadata) return; // 2025-03-26 fallback: /authorize, /token under the server URL just checked
  for (const endpoint of [
    metadata.authorization_endpoint,
    metadata.token_endpoint,
    metadata.registration_endpoint,
    (metadata as { revocation_endpoint?: string }).revocation_endpoint,
  ]) {
    if (endpoint) assertOAuthUrl(endpoint, policy);
  }
  // The code is issued on one origin and redeemed on another: a mix-up waiting to happen. Refused.
  if (new URL(metadata.authorization_endpoint).origin !== new URL(metadata.token_endpoint).origin) {
    throw new OAuthFlowError("endpoint_origin_mismatch");
  }
  if (!metadata.code_challenge_methods_supported?.includes("S256")) throw new OAuthFlowError("pkce_unsupported");
}
