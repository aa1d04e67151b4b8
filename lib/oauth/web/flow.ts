/**
 * The browser flow (docs/security.md#oauth): Connect starts an authorization whose `state` is stored for the
 * signed-in user; the callback takes that state once, checks owner and age, and finishes the code
 * exchange; Disconnect revokes where the AS supports it and forgets.
 */
import { extractWWWAuthenticateParams, IssuerMismatchError } from "@modelcontextprotocol/client";
import { runAuth } from "../shared/run-auth";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/client";
import { sendableHeaders, type ServerDefinition } from "../../mcp/config";
import { providerFor, type OAuthDeps } from "./deps";
import { OAuthFlowError } from "../shared/errors";
import { oauthFailure } from "../shared/failure";
import { NetError } from "../../net/errors";
import { revokeTokens } from "./revoke";
import { forEveryoneDeps } from "./for-everyone";
import { unionScopes } from "../shared/scopes";

const DEFAULT_STATE_TTL_MS = 10 * 60_000;

/** Connect's outcome: send the browser to `url`, or nothing to do (a refresh or grant sufficed). */
export type BeginResult = { status: "redirect"; url: string } | { status: "authorized" };

/**
 * Start an authorization of `server` for `userId`. Whatever the server or its authorization server
 * answer, a failure is an OAuthFlowError or NetError with a code (lib/oauth/shared/failure.ts).
 */
export async function beginAuthorization(deps: OAuthDeps, userId: string, server: ServerDefinition): Promise<BeginResult> {
  if (!server.config.url) throw new OAuthFlowError("not_http_server");
  try {
    return await authorize(deps, userId, server);
  } catch (error) {
    throw oauthFailure(error);
  }
}

// The authorization itself: the challenge probe, discovery, registration and the redirect.
async function authorize(deps: OAuthDeps, userId: string, server: ServerDefinition): Promise<BeginResult> {
  const now = deps.now ?? Date.now;
  const challenge = await probeChallenge(deps, server);
  let redirect: URL | undefined;
  const provider = providerFor(deps, userId, server, {
    ignoreStoredTokens: true,
    registerWithoutScope: true,
    onAuthorize: async ({ url, state, codeVerifier }) => {
      await deps.store.savePending({
        userId,
        serverId: server.id,
        state,
        codeVerifier,
        expiresAt: now() + (deps.stateTtlMs ?? DEFAULT_STATE_TTL_MS),
      });
      redirect = url;
    },
  });
  // A scope the server demanded earlier with 403 insufficient_scope (step-up) is asked for too. Our
  // own registrations carry no scope limit, so this keeps the client; only a registration the AS
  // narrowed by itself is replaced.
  const key = { userId, serverId: server.id };
  const required = await deps.store.get(key, "required_scope");
  const scope = unionScopes(challenge.scope, required);
  await forgetUnfitRegistration(deps, key, required);
  const result = await runAuth(provider, {
    serverUrl: server.config.url!,
    scope,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    fetchFn: deps.oauthFetch,
  });
  if (result === "REDIRECT" && redirect) return { status: "redirect", url: redirect.href };
  return { status: "authorized" };
}

/** What the callback was given (query parameters) and who is asking. */
export interface CallbackInput {
  /** The signed-in user completing the flow. */
  userId: string;
  query: URLSearchParams;
  /**
   * The server with this id in the user's workspace, or null; `forEveryone` for a Connect for
   * everyone, which the caller refuses (null) unless the user may still connect it for the team.
   */
  findServer: (serverId: string, forEveryone: boolean) => ServerDefinition | null | Promise<ServerDefinition | null>;
}

/**
 * Finish an authorization: the state must exist (single use), be fresh, and belong to the signed-in
 * user; then the code is exchanged with the verifier stored with that state. Returns the server.
 */
export async function completeAuthorization(deps: OAuthDeps, input: CallbackInput): Promise<ServerDefinition> {
  const state = input.query.get("state");
  if (!state || state.length > 512) throw new OAuthFlowError("invalid_state");
  const pending = await deps.store.takePending(state);
  if (!pending) throw new OAuthFlowError("invalid_state");
  if (pending.expiresAt <= (deps.now ?? Date.now)()) throw new OAuthFlowError("expired_state");
  if (pending.userId !== input.userId) throw new OAuthFlowError("foreign_state");
  if (input.query.get("error")) throw new OAuthFlowError("authorization_denied");
  const code = input.query.get("code");
  if (!code) throw new OAuthFlowError("exchange_failed");
  const forEveryone = pending.forEveryone === true;
  const server = await input.findServer(pending.serverId, forEveryone);
  if (!server?.config.url) throw new OAuthFlowError("invalid_state");
  // A Connect for everyone stores its tokens in the person's shared slot, apart from their own.
  const flow = forEveryone ? forEveryoneDeps(deps) : deps;
  const provider = providerFor(flow, input.userId, server, { codeVerifier: pending.codeVerifier });
  try {
    // RFC 9207: the SDK checks `iss` against the issuer it discovered (a mix-up defense).
    const iss = input.query.get("iss") ?? undefined;
    await runAuth(provider, { serverUrl: server.config.url, authorizationCode: code, iss, fetchFn: deps.oauthFetch });
  } catch (error) {
    if (error instanceof OAuthFlowError) throw error;
    if (error instanceof IssuerMismatchError) throw new OAuthFlowError("issuer_mismatch");
    // Too large, blocked: the reason is the guard's. Anything else: the code was not redeemed.
    if (error instanceof NetError) throw error;
    throw new OAuthFlowError("exchange_failed");
  }
  // The new token was asked for with the step-up scope; if the AS granted less, the next 403 says so again.
  // The scope this authorization asked for has served its check (saveTokens): refreshes keep to the grant.
  await flow.store.delete({ userId: input.userId, serverId: server.id }, ["required_scope", "requested_scope"]);
  return server;
}

/**
 * Disconnect: revoke the tokens where the AS has a revocation endpoint, then forget the credentials.
 * A step-up scope still waiting for consent is kept: it is what the server needs, not a secret, and
 * forgetting it would make the next Connect ask for the narrow scope again.
 */
export async function disconnect(deps: OAuthDeps, userId: string, server: ServerDefinition): Promise<{ revoked: boolean }> {
  const key = { userId, serverId: server.id };
  const revoked = await revokeTokens(deps, key, server);
  await deps.store.delete(key, ["client", "tokens", "discovery"]);
  return { revoked };
}

/**
 * Ask the server unauthenticated once, to learn its challenge (`scope`, `resource_metadata`) the
 * way the transport would. Unreachable or unchallenged servers give no hints; discovery decides.
 */
async function probeChallenge(deps: OAuthDeps, server: ServerDefinition): Promise<{ scope?: string; resourceMetadataUrl?: URL }> {
  const response = await deps.serverFetch(server.config.url!, {
    method: "POST",
    headers: {
      ...sendableHeaders(server.config.headers),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "switchboard", version: "0.1.0" } },
    }),
    redirect: "manual",
  });
  await response.body?.cancel();
  if (response.status !== 401 && response.status !== 403) return {};
  const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
  return { scope, resourceMetadataUrl };
}

/**
 * Register again rather than be refused when the stored dynamic registration does not fit this
 * authorization: its redirect URIs lack this flow's (the app is reached at another loopback
 * address than when it registered), or a step-up needs more scope than it registered with
 * (RFC 7591 §2: a client asks for at most its registered scope).
 */
async function forgetUnfitRegistration(
  deps: OAuthDeps,
  key: { userId: string; serverId: string },
  required: string | undefined,
): Promise<void> {
  const stored = await deps.store.get(key, "client");
  if (!stored) return;
  const registration = JSON.parse(stored) as { scope?: string; redirect_uris?: string[] };
  const foreignRedirect = Array.isArray(registration.redirect_uris) && !registration.redirect_uris.includes(deps.redirectUrl);
  const have = registration.scope === undefined ? undefined : new Set(registration.scope.split(/\s+/));
  const narrow = !!required && !!have && required.split(/\s+/).some((s) => s && !have.has(s));
  if (foreignRedirect || narrow) await deps.store.delete(key, ["client"]);
}
