/**
 * What a single sign-on provider is, whichever way it was configured (docs/sso.md): its id (the
 * lower-cased name, also its callback path segment), issuer, client, scopes, button label, the email
 * domains that may get an account on first sign-in, and how a claim maps to roles.
 */
import type { SsoClaimMapping } from "../../../db/queries/sso";

/** One OpenID Connect provider, secret in clear (server side only; never answered). */
export interface SsoProviderConfig {
  id: string;
  label: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated; always includes `openid`. */
  scopes: string;
  /** Lower-cased domains whose people get an account at their first sign-in; empty: nobody new. */
  allowedDomains: string[];
  claimMapping: SsoClaimMapping | null;
  /** `env`: from `SWITCHBOARD_OIDC_<NAME>_*`, read-only in the admin area. */
  source: "env" | "admin";
}

/** Default scopes: the ID token's identity and email (and `groups` is asked for only when mapped). */
export const DEFAULT_SCOPES = "openid email profile";

/** A provider id: lower-case letters, digits, `-` and `_`; never `credentials` (the password provider). */
export const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** Whether `id` can name a provider. */
export function isProviderId(id: string): boolean {
  return PROVIDER_ID.test(id) && id !== "credentials";
}

/** Lower-case, trimmed, without a leading `@`; empty entries dropped. */
export function normaliseDomains(domains: string[]): string[] {
  return [...new Set(domains.map((d) => d.trim().toLowerCase().replace(/^@/, "")).filter(Boolean))];
}

/** The scopes with `openid` first and no duplicates. */
export function normaliseScopes(scopes: string): string {
  const list = scopes.split(/[\s,]+/).filter(Boolean);
  return [...new Set(["openid", ...list])].join(" ");
}
