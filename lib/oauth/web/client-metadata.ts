/**
 * The app's own Client ID Metadata Document (SEP-991), served at `/oauth/client-metadata.json`:
 * its URL is the client_id at authorization servers that support URL-based client ids.
 */
import type { OAuthClientMetadata } from "@modelcontextprotocol/client";

/** The path the document is served at. */
export const CLIENT_METADATA_PATH = "/oauth/client-metadata.json";
/** The callback path registered as the redirect URI. */
export const CALLBACK_PATH = "/api/oauth/callback";

/** The document for an app served at `baseUrl` (no trailing slash). */
export function clientMetadataDocument(baseUrl: string): OAuthClientMetadata & { client_id: string } {
  return {
    client_id: `${baseUrl}${CLIENT_METADATA_PATH}`,
    client_name: "Switchboard",
    client_uri: baseUrl,
    application_type: "web",
    redirect_uris: [`${baseUrl}${CALLBACK_PATH}`],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    // A metadata document cannot carry a secret: this client authenticates with PKCE only.
    token_endpoint_auth_method: "none",
  };
}
