/**
 * The storage envelope of a server config's secrets (header values, env values, OAuth client
 * secret, a URL with credentials in it): split off before the config is stored in clear, encrypted as one blob, merged back only
 * on the way to the engine. Lives in db/ because the servers table is the only place that stores
 * them; editing rules (keeping a value when the mask comes back) stay in lib/servers/secrets.ts.
 */
import type { ServerConfig } from "../lib/mcp/config";
import { maskUrlSecrets } from "../lib/redact";

/** What the API and the stored public config show instead of a secret value. */
export const SECRET_MASK = "********";

/** The secret values of one server config. */
export interface ServerSecrets {
  /** The URL in clear when it is secret (`secret_url`) or carries credentials (key-like parameters, a token path). */
  url?: string;
  headers?: Record<string, string>;
  env?: Record<string, string>;
  oauthClientSecret?: string;
}

const maskValues = (map: Record<string, string>) => Object.fromEntries(Object.keys(map).map((k) => [k, SECRET_MASK]));

/**
 * Split a config into a masked copy (safe to store in clear and return) and its secrets. A URL
 * with credentials in it is masked too, its origin kept readable (lib/redact.ts#maskUrlSecrets).
 */
export function splitSecrets(config: ServerConfig): { masked: ServerConfig; secrets: ServerSecrets } {
  const masked: ServerConfig = { ...config };
  const secrets: ServerSecrets = {};
  if (config.url) {
    const shown = maskUrlSecrets(config.url, config.secret_url === true);
    if (shown !== config.url) {
      secrets.url = config.url;
      masked.url = shown;
    }
  }
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
  if (masked.url && secrets.url) config.url = secrets.url;
  if (masked.headers) config.headers = { ...masked.headers, ...pick(secrets.headers, masked.headers) };
  if (masked.env) config.env = { ...masked.env, ...pick(secrets.env, masked.env) };
  if (masked.oauth?.client_secret && secrets.oauthClientSecret) {
    config.oauth = { ...masked.oauth, client_secret: secrets.oauthClientSecret };
  }
  return config;
}

function pick(source: Record<string, string> | undefined, keys: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(keys)
      .filter((k) => source?.[k] !== undefined)
      .map((k) => [k, source![k]]),
  );
}
