/**
 * Token revocation (RFC 7009) on Disconnect, where the AS advertises `revocation_endpoint`.
 * Best effort by design: a failed revocation is logged (redacted) and the tokens are forgotten anyway.
 */
import type { OAuthDiscoveryState } from "@modelcontextprotocol/client";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/client";
import type { ServerDefinition } from "../../mcp/config";
import { redact } from "../../redact";
import type { OAuthDeps } from "./deps";
import type { CredentialKey } from "../shared/store";
import { assertOAuthUrl } from "../shared/url-policy";

/** Revoke the refresh and access tokens of `key`; true when the AS accepted at least one. */
export async function revokeTokens(deps: OAuthDeps, key: CredentialKey, server: ServerDefinition): Promise<boolean> {
  const stored = await readJson<{ tokens: OAuthTokens }>(deps, key, "tokens");
  const discovery = (await readJson<{ state: OAuthDiscoveryState }>(deps, key, "discovery"))?.state;
  const endpoint = (discovery?.authorizationServerMetadata as { revocation_endpoint?: string } | undefined)?.revocation_endpoint;
  if (!stored || !endpoint) return false;
  const client = server.config.oauth?.client_id
    ? { client_id: server.config.oauth.client_id, client_secret: server.config.oauth.client_secret }
    : await readJson<OAuthClientInformationMixed>(deps, key, "client");
  if (!client) return false;
  let revoked = false;
  const tokens: Array<[string, string]> = [];
  if (stored.tokens.refresh_token) tokens.push([stored.tokens.refresh_token, "refresh_token"]);
  tokens.push([stored.tokens.access_token, "access_token"]);
  for (const [token, hint] of tokens) {
    try {
      const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
      const body = new URLSearchParams({ token, token_type_hint: hint });
      if (client.client_secret) {
        headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString("base64")}`;
      } else {
        body.set("client_id", client.client_id);
      }
      const response = await deps.oauthFetch(assertOAuthUrl(endpoint, deps.policy), { method: "POST", headers, body });
      await response.body?.cancel();
      revoked ||= response.ok;
    } catch (error) {
      console.warn("[switchboard] token revocation failed:", redact(error instanceof Error ? error.message : String(error)));
    }
  }
  return revoked;
}

async function readJson<T>(deps: OAuthDeps, key: CredentialKey, kind: "tokens" | "discovery" | "client"): Promise<T | undefined> {
  const text = await deps.store.get(key, kind);
  return text === undefined ? undefined : (JSON.parse(text) as T);
}
