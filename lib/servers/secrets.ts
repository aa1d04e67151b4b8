/**
 * Secret values of a server config (header values, env values, OAuth client secret) are kept
 * apart from the rest: encrypted at rest, shown masked, and kept when an edit sends the mask back.
 */
import type { ServerConfig } from "../mcp/config";

/** What the API and the stored public config show instead of a secret value. */
export const SECRET_MASK = "********";

/** The secret values of one server config. */
export interface ServerSecrets {
  headers?: Record<string, string>;
  env?: Record<string, string>;
  oauthClientSecret?: string;
}

const maskValues = (map: Record<string, string>) => Object.fromEntries(Object.keys(map).map((k) => [k, SECRET_MASK]));

/** Split a config into a masked copy (safe to store in clear and return) and its secrets. */
export function splitSecrets(config: ServerConfig): { masked: ServerConfig; secrets: ServerSecrets } {
  const masked: ServerConfig = { ...config };
  const secrets: ServerSecrets = {};
  if (config.headers) {
    secrets.headers = { ...config.headers };
    masked.headers = maskValues(config.headers);
  }
  if (config.env) {
    secrets.env = { ...config.env };
    masked.env = maskValues(config.env);
  }
  if (config.oauth?.client_secret) {
    secrets.oauthClientSecret = config.oauth.client_secret;
    masked.oauth = { ...config.oauth, client_secret: SECRET_MASK };
  }
  return { masked, secrets };
}

/** Put the secrets back into a masked config (for the engine; never for a response). */
export function mergeSecrets(masked: ServerConfig, secrets: ServerSecrets): ServerConfig {
  const config: ServerConfig = { ...masked };
  if (masked.headers) config.headers = { ...masked.headers, ...pick(secrets.headers, masked.headers) };
  if (masked.env) config.env = { ...masked.env, ...pick(secrets.env, masked.env) };
  if (masked.oauth?.client_secret && secrets.oauthClientSecret) {
    config.oauth = { ...masked.oauth, client_secret: secrets.oauthClientSecret };
  }
  return config;
}

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

function pick(source: Record<string, string> | undefined, keys: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(keys)
      .filter((k) => source?.[k] !== undefined)
      .map((k) => [k, source![k]]),
  );
}
