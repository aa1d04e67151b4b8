/**
 * Secret values of a server config (header values, env values, OAuth client secret, credentials in
 * its URL) are shown
 * masked and kept when an edit sends the mask back, but only for the address they were entered
 * for: every stored secret is bound to the origin (scheme, host, port) of the server's URL. How
 * they are split off and stored encrypted is db/server-secrets.ts.
 */
import { SECRET_MASK, type ServerSecrets } from "../../db/server-secrets";
import type { ServerConfig } from "../mcp/config";
import { maskUrlSecrets, URL_MASK } from "../redact";

/**
 * The origin a server's secrets are bound to: its URL's scheme, host and port (default ports
 * folded, host lower-cased) for an HTTP server; null for a stdio server, which has no address.
 */
export function secretOrigin(config: Pick<ServerConfig, "url">): string | null {
  if (!config.url) return null;
  try {
    return new URL(config.url).origin;
  } catch {
    return null;
  }
}

/** What `restoreMaskedSecrets` found: the config to store, or the field it cannot fill. */
export interface RestoredSecrets {
  config: ServerConfig;
  /** A mask with no stored value behind it. */
  missing?: string;
  /** A mask sent back while the address changed: the stored value belongs to the old origin. */
  moved?: string;
}

/**
 * An edited config may send the mask back for a secret it did not change: take the stored value
 * for those, unless `sameOrigin` is false (the edit moves the server to another scheme, host or
 * port), when a stored secret must never follow it and the field must be entered again.
 */
export function restoreMaskedSecrets(incoming: ServerConfig, stored: ServerSecrets, sameOrigin = true): RestoredSecrets {
  const config: ServerConfig = { ...incoming };
  if (incoming.url?.includes(URL_MASK)) {
    // Only the stored URL's own masked form (either style) keeps it; its origin is the stored one.
    const kept = stored.url && [maskUrlSecrets(stored.url), maskUrlSecrets(stored.url, true)].includes(incoming.url);
    if (!kept) return { config, missing: "url" };
    config.url = stored.url;
  }
  for (const section of ["headers", "env"] as const) {
    const map = incoming[section];
    if (!map) continue;
    const restored: Record<string, string> = {};
    for (const [key, value] of Object.entries(map)) {
      if (value !== SECRET_MASK) restored[key] = value;
      else if (stored[section]?.[key] === undefined) return { config, missing: `${section}.${key}` };
      else if (!sameOrigin) return { config, moved: `${section}.${key}` };
      else restored[key] = stored[section]![key];
    }
    config[section] = restored;
  }
  if (incoming.oauth?.client_secret === SECRET_MASK) {
    if (!stored.oauthClientSecret) return { config, missing: "oauth.client_secret" };
    if (!sameOrigin) return { config, moved: "oauth.client_secret" };
    config.oauth = { ...incoming.oauth, client_secret: stored.oauthClientSecret };
  }
  return { config };
}
