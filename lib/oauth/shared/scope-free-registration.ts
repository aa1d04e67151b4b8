/**
 * Dynamic client registration without a `scope` (docs/oauth-step-up.md). The SDK registers with the
 * scope of the first authorization, and an authorization server may treat that as the most the
 * client can ever ask for, refusing a later step-up with `invalid_scope`. RFC 7591 §2 makes `scope`
 * optional; the scope still travels in every authorization request, where the user consents to it.
 */
import { registerClient, resolveClientMetadata, type OAuthClientProvider, type OAuthDiscoveryState } from "@modelcontextprotocol/client";
import type { FetchLike, OAuthClientInformationMixed } from "@modelcontextprotocol/client";

/**
 * Register `provider`'s client at the discovered authorization server without a scope, stamped with
 * the issuer the SDK expects. Undefined (the SDK decides) when nothing was discovered or the
 * authorization server takes the provider's Client ID Metadata Document instead.
 */
export async function registerWithoutScope(
  provider: OAuthClientProvider,
  discovery: OAuthDiscoveryState | undefined,
  fetch: FetchLike,
  issuer: string | undefined,
): Promise<OAuthClientInformationMixed | undefined> {
  if (!discovery) return undefined;
  const metadata = discovery.authorizationServerMetadata;
  if (metadata?.client_id_metadata_document_supported === true && provider.clientMetadataUrl) return undefined;
  const { scope: _scope, ...clientMetadata } = resolveClientMetadata(provider);
  const registered = await registerClient(discovery.authorizationServerUrl, { metadata, clientMetadata, fetchFn: fetch });
  return { ...registered, issuer: issuer ?? metadata?.issuer ?? String(discovery.authorizationServerUrl) };
}
