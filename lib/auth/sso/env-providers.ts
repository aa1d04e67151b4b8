/**
 * Providers from the environment (docs/configuration.md#single-sign-on): `SWITCHBOARD_OIDC_<NAME>_ISSUER`,
 * `_CLIENT_ID`, `_CLIENT_SECRET`, `_ALLOWED_DOMAINS` (comma-separated), `_LABEL` (default the
 * name), `_SCOPES`, and claims to roles with `_ROLES_CLAIM` and `_ROLES` (lib/auth/sso/env-roles.ts).
 * Pure over the bag it is given, so a test passes its own; scripts/preflight.ts calls it at start-up.
 */
import type { EnvBag } from "../../env";
import { parseEnvClaimMapping } from "./env-roles";
import { DEFAULT_SCOPES, isProviderId, normaliseDomains, normaliseScopes, type SsoProviderConfig } from "./provider-config";

const ISSUER_KEY = /^SWITCHBOARD_OIDC_([A-Z0-9][A-Z0-9_-]*)_ISSUER$/;

/**
 * Every provider the bag configures, by name. A provider named without its client id or secret, with
 * a name that cannot be an id, or with a malformed role mapping throws: a half-configured sign-in
 * button must not start up.
 */
export function ssoProvidersFromEnv(env: EnvBag): SsoProviderConfig[] {
  const providers: SsoProviderConfig[] = [];
  for (const key of Object.keys(env).sort()) {
    const match = ISSUER_KEY.exec(key);
    const issuer = match && env[key]?.trim();
    if (!match || !issuer) continue;
    const name = match[1];
    const read = (suffix: string) => env[`SWITCHBOARD_OIDC_${name}_${suffix}`]?.trim() || "";
    const id = name.toLowerCase();
    if (!isProviderId(id)) throw new Error(`SWITCHBOARD_OIDC_${name}_ISSUER: "${id}" cannot name a provider (letters, digits, - and _).`);
    const clientId = read("CLIENT_ID");
    const clientSecret = read("CLIENT_SECRET");
    if (!clientId || !clientSecret) throw new Error(`SWITCHBOARD_OIDC_${name}: set _CLIENT_ID and _CLIENT_SECRET with _ISSUER.`);
    providers.push({
      id,
      label: read("LABEL") || name,
      issuer,
      clientId,
      clientSecret,
      scopes: normaliseScopes(read("SCOPES") || DEFAULT_SCOPES),
      allowedDomains: normaliseDomains(read("ALLOWED_DOMAINS").split(",")),
      claimMapping: parseEnvClaimMapping(name, read("ROLES_CLAIM"), read("ROLES")),
      source: "env",
    });
  }
  return providers;
}
