/**
 * Cross-app access (SEP-990, enterprise-managed authorization): exchange the user's IdP ID token
 * for an ID-JAG at the IdP (RFC 8693), then present it to the MCP server's AS as a JWT bearer
 * grant (RFC 7523). Discovery is the SDK's; this module adds only the two grants it lacks.
 */
import { discoverOAuthServerInfo, type OAuthClientProvider } from "@modelcontextprotocol/client";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/client";
import type { FetchLike } from "@modelcontextprotocol/client";
import { OAuthFlowError } from "../shared/errors";
import { assertOAuthUrl, type OAuthUrlPolicy } from "../shared/url-policy";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** What the enterprise IdP gave the user, and the client registered at the MCP server's AS. */
export interface CrossAppCredentials {
  idpTokenEndpoint: string;
  idpClientId: string;
  idToken: string;
  clientId: string;
  clientSecret: string;
}

/** Get an ID-JAG for the MCP server at `serverUrl` and return a provider that redeems it. */
export async function crossAppProvider(
  serverUrl: string,
  credentials: CrossAppCredentials,
  fetch: FetchLike,
  policy: OAuthUrlPolicy,
): Promise<OAuthClientProvider> {
  const info = await discoverOAuthServerInfo(serverUrl, { fetchFn: fetch });
  const audience = info.authorizationServerMetadata?.issuer ?? String(info.authorizationServerUrl);
  const resource = info.resourceMetadata?.resource ?? serverUrl;
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE,
    requested_token_type: ID_JAG_TYPE,
    subject_token: credentials.idToken,
    subject_token_type: ID_TOKEN_TYPE,
    audience,
    resource,
    client_id: credentials.idpClientId,
  });
  const endpoint = assertOAuthUrl(credentials.idpTokenEndpoint, policy);
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body,
  });
  const answer = (await response.json().catch(() => ({}))) as { access_token?: unknown; issued_token_type?: unknown };
  if (!response.ok || typeof answer.access_token !== "string")
    throw new OAuthFlowError("exchange_failed", `IdP token exchange: HTTP ${response.status}`);
  return new JwtBearerProvider(answer.access_token, credentials.clientId, credentials.clientSecret);
}

/** A non-interactive provider whose token request is a JWT bearer grant with HTTP Basic client auth. */
class JwtBearerProvider implements OAuthClientProvider {
  private saved?: OAuthTokens;
  constructor(
    private readonly assertion: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}
  get redirectUrl(): undefined {
    return undefined;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "Switchboard", redirect_uris: [], grant_types: [JWT_BEARER] };
  }
  clientInformation(): OAuthClientInformationMixed {
    return { client_id: this.clientId, client_secret: this.clientSecret };
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(): void {
    throw new OAuthFlowError("no_redirect", "cross-app access never redirects");
  }
  saveCodeVerifier(): void {}
  codeVerifier(): string {
    throw new OAuthFlowError("no_redirect", "cross-app access has no PKCE verifier");
  }
  prepareTokenRequest(scope?: string): URLSearchParams {
    return new URLSearchParams({ grant_type: JWT_BEARER, assertion: this.assertion, ...(scope ? { scope } : {}) });
  }
  addClientAuthentication = (headers: Headers): void => {
    const basic = Buffer.from(`${encodeURIComponent(this.clientId)}:${encodeURIComponent(this.clientSecret)}`).toString("base64");
    headers.set("authorization", `Basic ${basic}`);
  };
}
