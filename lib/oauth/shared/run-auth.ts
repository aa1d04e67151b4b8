/**
 * The SDK's `auth()` with one narrow allowance for servers of the 2025-03-26 revision, shared by the
 * browser flow and the headless one. Those servers publish no protected-resource metadata; their
 * authorization server metadata sits at the MCP server's own origin and often names an issuer with a
 * path (`https://host/oauth`), which the RFC 8414 §3.3 echo check refuses. The check is skipped only
 * when both the expected issuer (the origin itself, i.e. no metadata pointed elsewhere) and the issuer
 * received are on the MCP server's origin: that metadata carries no more trust than the server does,
 * so an authorization server on another origin can never be substituted this way.
 */
import { auth, IssuerMismatchError, type AuthOptions, type AuthResult, type OAuthClientProvider } from "@modelcontextprotocol/client";

/** `auth()`, retried once without the metadata issuer echo check in the legacy same-origin case. */
export async function runAuth(provider: OAuthClientProvider, options: AuthOptions): Promise<AuthResult> {
  try {
    return await auth(provider, options);
  } catch (error) {
    if (!isLegacySameOriginIssuer(error, options.serverUrl)) throw error;
    return await auth(provider, { ...options, skipIssuerMetadataValidation: true });
  }
}

/** Whether `error` is the metadata echo mismatch of a 2025-03-26 server serving its own AS metadata. */
export function isLegacySameOriginIssuer(error: unknown, serverUrl: string | URL): boolean {
  if (!(error instanceof IssuerMismatchError) || error.kind !== "metadata" || !error.expected || !error.received) return false;
  const origin = new URL(serverUrl).origin;
  const expected = new URL(error.expected);
  const received = new URL(error.received);
  return expected.origin === origin && (expected.pathname === "/" || expected.pathname === "") && received.origin === origin;
}
