/**
 * Secret values of a server config (header values, env values, OAuth client secret) are shown
 * masked and kept when an edit sends the mask back. How they are split off and stored encrypted is
 * db/server-secrets.ts.
 */
import { SECRET_MASK, type ServerSecrets } from "../../db/server-secrets";
import type { ServerConfig } from "../mcp/config";

/**
 * An edited config may send the mask back for a secret it did not change: take the stored value
 * for those. A mask with no stored value behind it is an error the caller reports on that field.
 */
export function restoreMaskedSecrets(incoming: ServerConfig, stored: ServerSecrets): { config: ServerConfig; missing?: string } {
  const config: ServerConfig = { ...incoming };
  for (const section of ["headers", "env"] as const) {
    const map = incoming[section];
    if (!map) continue;
    const restored: Record<string, string> = {};
    for (const [key, value] of Object.entries(map)) {
      if (value !== SECRET_MASK) restored[key] = value;
      else if (stored[section]?.[key] !== undefined) restored[key] = stored[section]![key];
      else return { config, missing: `${section}.${key}` };
    }
    config[section] = restored;
  }
  if (incoming.oauth?.client_secret === SECRET_MASK) {
    if (!stored.oauthClientSecret) return { config, missing: "oauth.client_secret" };
    config.oauth = { ...incoming.oauth, client_secret: stored.oauthClientSecret };
  }
  return { config };
}
