/**
 * Switchboard as an OAuth 2.1 authorization server for its MCP gateway (docs/gateway.md#the-authorization-server):
 * oidc-provider configured for one issuer (the app's public origin), with its state in the database
 * (adapter.ts) and its keys derived from the instance key (keys.ts). Authorization code with PKCE
 * S256 only, dynamic client registration (RFC 7591), Client ID Metadata Documents fetched through the
 * SSRF guard, audience-bound opaque access tokens (RFC 8707: one gateway endpoint each), refresh
 * tokens rotated on every use (a consumed one presented again revokes its grant), revocation.
 */
import Provider, { errors } from "oidc-provider";
import type { Db } from "../../db/client";
import { getUserById } from "../../db/queries/users";
import { adapterOver } from "./adapter";
import { cookieKeys, signingJwks } from "./keys";
import { MCP_SCOPE, parseGatewayResource } from "./resource";

/** How long each thing lives, in seconds. */
export const OAUTH_SERVER_TTL = {
  /** An access token: an hour, so a token copied out of a client stops on its own soon. */
  AccessToken: 3600,
  /** A code: a minute to exchange it. */
  AuthorizationCode: 60,
  /** A refresh token: 30 days from its issue; each use rotates it, so a client in use never sees it lapse. */
  RefreshToken: 30 * 86_400,
  /** A grant (what the user allowed): 90 days without a new consent, whatever the refreshes. */
  Grant: 90 * 86_400,
  /** A sign-in-and-consent step waiting for the user. */
  Interaction: 3600,
  /** oidc-provider's own browser session (the user's Switchboard session is what counts). */
  Session: 86_400,
} as const;

/** What the authorization server is built from. */
export interface AuthorizationServerOptions {
  /** The issuer: the app's public origin, no path. */
  issuer: string;
  /** The fetch used for Client ID Metadata Documents: the SSRF-guarded one. */
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** Routes under `/oauth/`, apart from the app's own pages; discovery stays at its well-known path. */
export const OAUTH_ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  registration: "/oauth/reg",
  revocation: "/oauth/revoke",
  jwks: "/oauth/jwks",
  userinfo: "/oauth/me",
  end_session: "/oauth/session/end",
  pushed_authorization_request: "/oauth/par",
  code_verification: "/oauth/device",
  device_authorization: "/oauth/device/auth",
  introspection: "/oauth/introspect",
  backchannel_authentication: "/oauth/backchannel",
  challenge: "/oauth/challenge",
} as const;

/** The page that signs the user in and asks their consent for interaction `uid`. */
export const interactionPath = (uid: string) => `/oauth/interaction/${encodeURIComponent(uid)}`;

/** A new authorization server for `options.issuer` over `db`. */
export function createAuthorizationServer(db: Db, options: AuthorizationServerOptions): Provider {
  const { issuer } = options;
  const provider = new Provider(issuer, {
    adapter: adapterOver(db),
    clients: [],
    jwks: signingJwks(),
    cookies: {
      names: { session: "sb_oauth_session", interaction: "sb_oauth_interaction", resume: "sb_oauth_resume" },
      keys: cookieKeys(),
    },
    routes: OAUTH_ROUTES,
    scopes: ["openid", "offline_access", MCP_SCOPE],
    claims: { openid: ["sub"] },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      id_token_signed_response_alg: "EdDSA",
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
    enabledJWA: { idTokenSigningAlgValues: ["EdDSA"] },
    // An authorization request that names no scope gets `mcp`, the one scope an endpoint has
    // (RFC 6749 §3.3, kept by OAuth 2.1: use a default or refuse the request; MCP clients omit
    // `scope` when they read none from the resource's metadata, and the conformance suite does).
    // Without a default, oidc-provider grants nothing and answers `access_denied` after the user has
    // pressed Allow. An extra parameter's validator runs whether the parameter is present or not,
    // before the grant is looked at.
    extraParams: { scope: defaultScope },
    responseTypes: ["code"],
    // Every flow must prove possession of its verifier; oidc-provider only knows S256.
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      clientIdMetadataDocument: { enabled: true, ack: "draft-02" },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, resource: string) => {
          const target = parseGatewayResource(resource, issuer);
          if (!target) throw new errors.InvalidTarget("the resource must be a gateway endpoint of this server");
          return { scope: MCP_SCOPE, audience: target.url, accessTokenTTL: OAUTH_SERVER_TTL.AccessToken, accessTokenFormat: "opaque" };
        },
      },
    },
    // Each authorization asks the user again: only the grant the consent page just made counts, never
    // one remembered from an earlier flow (the page names the client, the redirect and the workspace,
    // and the user signed in may have changed).
    loadExistingGrant: async (ctx: { oidc: { result?: { consent?: { grantId?: string } }; provider: Provider } }) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    ttl: OAUTH_SERVER_TTL,
    interactions: { url: async (_ctx: unknown, interaction: { uid: string }) => interactionPath(interaction.uid) },
    findAccount: async (_ctx: unknown, id: string) => {
      const user = await getUserById(db, id);
      return user ? { accountId: user.id, claims: async () => ({ sub: user.id }) } : undefined;
    },
    fetch: (url: string, init: RequestInit) =>
      options.fetch(url, { method: init.method, headers: init.headers, body: init.body, signal: init.signal, redirect: "error" }),
    // Errors shown to a browser: a plain page, without the request's parameters.
    renderError: async (ctx: { type: string; body: string }, out: { error: string; error_description?: string }) => {
      ctx.type = "html";
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Sign-in failed</title><h1>Sign-in failed</h1><p>${escapeHtml(out.error)}: ${escapeHtml(out.error_description ?? "")}</p>`;
    },
  });
  return provider;
}

/** Give an authorization request without a `scope` the `mcp` scope (see `extraParams` above). */
function defaultScope(ctx: { oidc: { params: { scope?: unknown } } }, value: unknown): void {
  if (value === undefined || value === "") ctx.oidc.params.scope = MCP_SCOPE;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
