/**
 * The SDK's `auth()` with one narrow allowance for servers of the 2025-03-26 revision, shared by the
 * browser flow and the headless one. Those servers publish no protected-resource metadata; their
 * authorization server metadata sits at the MCP server's own origin and may name an issuer with a
 * path (`https://host/oauth`), which the RFC 8414 §3.3 echo check refuses. The check is skipped only
 * for exactly that shape: no protected-resource metadata anywhere (no challenge pointing at one, and
 * both well-known locations answer 404), the issuer expected is the server's origin itself (what the
 * SDK derives from the server URL when there is no such metadata), and the issuer received is on that
 * same origin. That metadata carries no more trust than the server does, so an authorization server
 * on another origin can never be substituted this way.
 */
import {
  auth,
  IssuerMismatchError,
  type AuthOptions,
  type AuthResult,
  type FetchLike,
  type OAuthClientProvider,
} from "@modelcontextprotocol/client";

/** `auth()`, retried once without the metadata issuer echo check in the legacy same-origin case. */
export async function runAuth(provider: OAuthClientProvider, options: AuthOptions): Promise<AuthResult> {
  try {
    return await auth(provider, options);
  } catch (error) {
    if (!(await isLegacyIssuerShape(error, options))) throw error;
    return await auth(provider, { ...options, skipIssuerMetadataValidation: true });
  }
}

/** Whether a failed `auth()` is the 2025-03-26 shape above (and nothing else). */
export async function isLegacyIssuerShape(
  error: unknown,
  options: Pick<AuthOptions, "serverUrl" | "resourceMetadataUrl" | "fetchFn">,
): Promise<boolean> {
  if (options.resourceMetadataUrl || !isLegacySameOriginIssuer(error, options.serverUrl)) return false;
  return await lacksProtectedResourceMetadata(options.serverUrl, options.fetchFn ?? fetch);
}

/** Whether `error` is the metadata echo mismatch of a server serving its own AS metadata at its origin. */
export function isLegacySameOriginIssuer(error: unknown, serverUrl: string | URL): boolean {
  if (!(error instanceof IssuerMismatchError) || error.kind !== "metadata" || !error.expected || !error.received) return false;
  const origin = new URL(serverUrl).origin;
  const expected = new URL(error.expected);
  const received = new URL(error.received);
  return expected.origin === origin && (expected.pathname === "/" || expected.pathname === "") && received.origin === origin;
}

/**
 * RFC 9728 §3.1 locations for `serverUrl` (path-aware, then root) both answer 404. Any other answer
 * (metadata, a server error, a network failure) is not the legacy shape: the check then stands.
 */
async function lacksProtectedResourceMetadata(serverUrl: string | URL, fetchFn: FetchLike): Promise<boolean> {
  const url = new URL(serverUrl);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const locations = [
    ...new Set([`${url.origin}/.well-known/oauth-protected-resource${path}`, `${url.origin}/.well-known/oauth-protected-resource`]),
  ];
  for (const location of locations) {
    try {
      const response = await fetchFn(location, { headers: { accept: "application/json" } });
      await response.body?.cancel();
      if (response.status !== 404) return false;
    } catch {
      return false; // unreachable: not proof of absence, so no allowance
    }
  }
  return true;
}
