/**
 * The single sign-on side of next-auth (docs/sso.md): the OpenID Connect provider a request names,
 * built from checked discovery (authorization code with PKCE, `state` and `nonce`, the ID token
 * validated by openid-client against the issuer's keys; the mapped claim from userinfo when the ID
 * token lacks it), and the `signIn` callback that decides who signs in. A refusal and a second
 * factor owed both land on the sign-in page, never next-auth's own.
 */
import type { NextAuthOptions, User } from "next-auth";
import type { OAuthConfig } from "next-auth/providers/oauth";
import type { TokenSet } from "openid-client";
import type { Db } from "../../../db/client";
import type { AccessEffects } from "../../domain/access-effects";
import { redact } from "../../redact";
import { signInContext } from "../sign-in-context";
import { beginSecondStep } from "../sign-in-steps";
import { discoverEndpoints, guardedLookup } from "./discovery";
import type { SsoProviderConfig } from "./provider-config";
import { findSsoProvider } from "./providers";
import { resolveSsoSignIn } from "./sso-sign-in";
import { withUserinfoClaim } from "./userinfo-claims";

/** Where the sign-in page asks for the code after an SSO sign-in that owes a second factor. */
export const SSO_SECOND_FACTOR_URL = "/signin?step=code";

/** The code form, with the page the sign-in was started for (the consent page) to return to after it. */
export function secondFactorUrl(returnTo: string | undefined): string {
  return returnTo ? `${SSO_SECOND_FACTOR_URL}&next=${encodeURIComponent(returnTo)}` : SSO_SECOND_FACTOR_URL;
}

/** The provider id a next-auth request names for SSO (`signin/<id>` or `callback/<id>`), or null. */
export function ssoProviderIdOf(nextauth: string[]): string | null {
  const [action, id] = nextauth;
  if ((action !== "signin" && action !== "callback") || !id || id === "credentials") return null;
  return id;
}

/** The next-auth provider for `provider`, over its checked endpoints (throws when discovery fails). */
export async function oidcProvider(provider: SsoProviderConfig): Promise<OAuthConfig<Record<string, unknown>>> {
  const endpoints = await discoverEndpoints(provider.issuer);
  return {
    id: provider.id,
    name: provider.label,
    type: "oauth",
    issuer: endpoints.issuer,
    authorization: { url: endpoints.authorization, params: { scope: provider.scopes } },
    token: { url: endpoints.token },
    // The ID token's claims, and the mapped claim from userinfo when the ID token lacks it; openid-client
    // checks that userinfo's `sub` is the ID token's (OpenID Connect Core §5.3.2).
    userinfo: endpoints.userinfo
      ? {
          url: endpoints.userinfo,
          request: ({ tokens, client }) => {
            // Typed by next-auth as plain parameters; at run time openid-client's TokenSet of the validated ID token.
            const set = tokens as unknown as TokenSet;
            return withUserinfoClaim(set.claims(), provider.claimMapping?.claim ?? null, () => client.userinfo(set));
          },
        }
      : undefined,
    jwks_endpoint: endpoints.jwks,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    // Every request openid-client makes connects only to addresses the SSRF guard accepts.
    httpOptions: { timeout: 10_000, lookup: guardedLookup } as OAuthConfig<Record<string, unknown>>["httpOptions"],
    profile(claims) {
      const sub = String(claims.sub ?? "");
      return {
        id: sub,
        email: typeof claims.email === "string" ? claims.email : null,
        name: typeof claims.name === "string" ? claims.name : null,
      };
    },
  };
}

/**
 * next-auth's options with the named SSO provider added, the `signIn` callback deciding who it is,
 * and errors sent to the sign-in page. Null when no such provider is configured or discovery fails.
 */
export async function withSsoProvider(
  base: NextAuthOptions,
  db: () => Db,
  providerId: string,
  effects: AccessEffects,
): Promise<NextAuthOptions | null> {
  const provider = await findSsoProvider(db(), providerId);
  if (!provider) return null;
  let config: OAuthConfig<Record<string, unknown>>;
  try {
    config = await oidcProvider(provider);
  } catch (error) {
    console.error(`[sso] ${provider.id}: discovery failed:`, redact(error instanceof Error ? error.message : String(error)));
    return null;
  }
  return {
    ...base,
    pages: { ...base.pages, error: "/signin" },
    providers: [...base.providers, config],
    callbacks: {
      ...base.callbacks,
      async signIn({ user, account, profile }) {
        if (account?.provider !== provider.id) return true;
        try {
          const outcome = await resolveSsoSignIn(db(), provider, (profile ?? {}) as Record<string, unknown>, effects);
          if (!outcome.ok) return `/signin?error=sso.${outcome.reason}`;
          // The second-factor policy applies as after a password: the code is asked on the sign-in page.
          if (await beginSecondStep(db(), outcome.user, signInContext())) return secondFactorUrl(signInContext()?.returnTo);
          // next-auth hands this same object to the jwt callback: the session is our user's.
          (user as User).id = outcome.user.id;
          return true;
        } catch (error) {
          console.error(`[sso] ${provider.id}: sign-in failed:`, redact(error instanceof Error ? error.message : String(error)));
          return "/signin?error=sso.failed";
        }
      },
    },
  };
}
