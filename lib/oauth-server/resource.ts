/**
 * The protected resources of Switchboard's authorization server: the MCP gateway's endpoints,
 * `<issuer>/mcp/<slug>` and `<issuer>/mcp/<slug>/<server>` (docs/gateway.md). A resource indicator
 * (RFC 8707) must be exactly one of these URLs: same origin as the issuer, no query, no fragment,
 * no trailing slash. An access token is bound to it as its audience.
 */

/** The one scope a gateway endpoint grants. */
export const MCP_SCOPE = "mcp";

/** What a resource URL names: the workspace slug and, for the per-server endpoint, the server name. */
export interface GatewayResource {
  /** The exact resource URL (the token's audience). */
  url: string;
  slug: string;
  server: string | null;
}

// One or two path segments after /mcp/, none empty; escapes are decoded below.
const RESOURCE_PATH = /^\/mcp\/([^/]+)(?:\/([^/]+))?$/;

function decoded(segment: string): string | null {
  try {
    const value = decodeURIComponent(segment);
    return value === "" || value.includes("/") ? null : value;
  } catch {
    return null;
  }
}

/** The gateway endpoint `resource` names on `issuer`'s origin, or null when it names none. */
export function parseGatewayResource(resource: string, issuer: string): GatewayResource | null {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return null;
  }
  if (url.origin !== new URL(issuer).origin || url.search !== "" || url.hash !== "" || url.username || url.password) return null;
  // Exactly as given: a resource that only normalises to an endpoint is another string, another audience.
  if (resource !== `${url.origin}${url.pathname}`) return null;
  const match = RESOURCE_PATH.exec(url.pathname);
  if (!match) return null;
  const slug = decoded(match[1]);
  const server = match[2] === undefined ? null : decoded(match[2]);
  if (slug === null || (match[2] !== undefined && server === null)) return null;
  return { url: resource, slug, server };
}

/** The path of an endpoint's protected-resource metadata (RFC 9728: the well-known prefix before the resource's path). */
export const PROTECTED_RESOURCE_PREFIX = "/.well-known/oauth-protected-resource";

/** The RFC 9728 metadata of the endpoint `resourceUrl`, served by `issuer`. */
export function protectedResourceMetadata(resourceUrl: string, issuer: string) {
  return {
    resource: resourceUrl,
    authorization_servers: [issuer],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ["header"],
    resource_name: "Switchboard MCP gateway",
  };
}

/** Where the metadata of the endpoint at `resourceUrl` is served. */
export function protectedResourceMetadataUrl(resourceUrl: string): string {
  const url = new URL(resourceUrl);
  return `${url.origin}${PROTECTED_RESOURCE_PREFIX}${url.pathname}`;
}
