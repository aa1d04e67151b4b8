/**
 * Switchboard as the OAuth authorization server of its MCP gateway (docs/gateway.md#the-authorization-server):
 * the mount on the app's own HTTP server (scripts/server.mjs, through instrumentation.ts) that
 * serves oidc-provider under `/oauth/…`, its discovery documents, the gateway endpoints' protected-
 * resource metadata (RFC 9728) and the consent page's Allow and Deny; the check of its access
 * tokens on the gateway; and what the consent page shows.
 */
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import { getDb } from "../../db/client";
import { getWorkspaceById } from "../../db/queries/workspaces";
import { requirePageUser, requireUser } from "../auth/session";
import { guardedFetchFromEnv } from "../net";
import { withTimeout } from "../net/fetch-timeout";
import { authenticateAccessToken, memberWorkspaceId, type OAuthTokenCaller } from "../oauth-server/access-token";
import { listConnectedClients, revokeConnectedClient } from "../oauth-server/grants";
import { createAuthorizationServer, interactionPath, OAUTH_ROUTES } from "../oauth-server/provider";
import { registrationLimit } from "../oauth-server/registration-limit";
import {
  MCP_SCOPE,
  PROTECTED_RESOURCE_PREFIX,
  parseGatewayResource,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
} from "../oauth-server/resource";
import { redact } from "../redact";
import { stampedClientAddress } from "../security/client-address";
import { csrfRefusal } from "../security/csrf";
import { publicOriginFor, requestPublicOrigin } from "../security/public-url";
import { singleton } from "../singleton";
import { serverByName } from "./gateway/upstream";

// Where clients register themselves (RFC 7591).
const REGISTRATION_PATH = OAUTH_ROUTES.registration;

/** How long a client metadata document's fetch may take. */
const METADATA_FETCH_MS = 5000;

/** The authorization server of `issuer`: one per public origin the app is reached at, built once per process. */
function providerFor(issuer: string): Provider {
  const providers = singleton("oauthServer.providers", () => new Map<string, Provider>());
  let provider = providers.get(issuer);
  if (!provider) {
    const fetch = withTimeout(guardedFetchFromEnv(), METADATA_FETCH_MS);
    provider = createAuthorizationServer(getDb(), { issuer, fetch: (url, init) => fetch(url, init) });
    // oidc-provider reads the scheme from X-Forwarded-Proto, which the mount sets from the issuer.
    provider.proxy = true;
    // A failure inside oidc-provider: logged without the request (its parameters may hold a code).
    provider.on("server_error", (_ctx, error) =>
      console.error(`oauth server: ${redact(error instanceof Error ? error.message : String(error))}`),
    );
    providers.set(issuer, provider);
  }
  return provider;
}

/** The issuer a node request reaches: the public origin as lib/security/public-url.ts decides it. */
function issuerOf(req: IncomingMessage): string {
  const encrypted = "encrypted" in req.socket && req.socket.encrypted;
  const forwarded = req.headers["x-forwarded-proto"];
  return publicOriginFor({
    host: req.headers.host ?? null,
    forwardedProto: typeof forwarded === "string" ? forwarded : encrypted ? "https" : "http",
  });
}

// oidc-provider's endpoints and the consent page's two writes; `/oauth/interaction/<uid>` itself
// and `/oauth/client-metadata.json` (the app's own document as a client) stay Next's.
const PROVIDER_PATH = /^\/oauth\/(authorize|token|reg|revoke|jwks|par)(\/|$)/;
const INTERACTION_WRITE = /^\/oauth\/interaction\/([^/]+)\/(confirm|abort)$/;
const DISCOVERY = new Set(["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]);

/**
 * Serve `req` when it is the authorization server's (answering true), else answer false and leave
 * it to the lane and Next. Installed in front of the direct lane by instrumentation.ts; tests put
 * it behind `node:http` beside the gateway routes.
 */
export function serveOAuthServer(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? "/";
  const pathname = url.split("?")[0];
  const write = INTERACTION_WRITE.exec(pathname);
  if (write) return handled(res, finishInteraction(req, res, write[2] as "confirm" | "abort"));
  if (pathname.startsWith(`${PROTECTED_RESOURCE_PREFIX}/`)) return handled(res, serveResourceMetadata(req, res, pathname));
  if (!PROVIDER_PATH.test(pathname) && !DISCOVERY.has(pathname)) return false;
  const issuer = issuerOf(req);
  const provider = providerFor(issuer);
  // oidc-provider builds every URL from the request: hand it the issuer's host and scheme, whatever
  // the client sent, so the endpoints it names are the issuer's.
  const origin = new URL(issuer);
  req.headers.host = origin.host;
  req.headers["x-forwarded-proto"] = origin.protocol.replace(":", "");
  delete req.headers["x-forwarded-host"];
  if (pathname === REGISTRATION_PATH && req.method === "POST") return handled(res, registerLimited(req, res, provider));
  // RFC 8414's document is OpenID discovery's for an issuer without a path.
  if (pathname === "/.well-known/oauth-authorization-server") req.url = `/.well-known/openid-configuration${url.slice(pathname.length)}`;
  return handled(res, Promise.resolve(provider.callback()(req, res)));
}

/**
 * A client registration, within the per-address limit (lib/oauth-server/registration-limit.ts):
 * over it, `429` with `Retry-After` and an OAuth error body, and nothing is registered.
 */
async function registerLimited(req: IncomingMessage, res: ServerResponse, provider: Provider): Promise<void> {
  const address = stampedClientAddress(req.headers);
  const waitMs = await registrationLimit.retryAfterMs(address);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    res.setHeader("retry-after", String(seconds));
    return json(res, 429, {
      error: "temporarily_unavailable",
      error_description: `Too many client registrations from this address; try again in ${seconds} s.`,
    });
  }
  await registrationLimit.record(address);
  await provider.callback()(req, res);
}

function handled(res: ServerResponse, work: Promise<unknown>): true {
  work.catch((error: unknown) => {
    console.error(`oauth server: ${redact(error instanceof Error ? error.message : String(error))}`);
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "server_error" }));
    else res.destroy();
  });
  return true;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, {
      "content-type": "application/json",
      "cache-control": "no-store",
      // MCP clients running in a browser read it from their own origin; it holds nothing private.
      "access-control-allow-origin": "*",
    })
    .end(JSON.stringify(body));
}

/**
 * RFC 9728 metadata of a gateway endpoint. Answered for any well-formed endpoint path, whether the
 * workspace exists or not: the endpoint itself answers 401 to anyone without a token for any slug,
 * so the metadata reveals no more than it (which workspaces exist is not said to the signed-out).
 */
async function serveResourceMetadata(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") return json(res, 405, { code: "request.invalid", message: "GET only." });
  const issuer = issuerOf(req);
  const resource = parseGatewayResource(`${issuer}${pathname.slice(PROTECTED_RESOURCE_PREFIX.length)}`, issuer);
  if (!resource) return json(res, 404, { error: "not_found" });
  json(res, 200, protectedResourceMetadata(resource.url, issuer));
}

/** A web Request carrying the node request's headers (for the session and same-origin checks). */
function webRequest(req: IncomingMessage, issuer: string): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  return new Request(new URL(req.url ?? "/", issuer), { method: "GET", headers });
}

/**
 * Allow or Deny from the consent page: a same-origin POST (by fetch: the app's no-referrer policy
 * makes a form post's Origin "null", and `form-action 'self'` would block the redirect to the
 * client), with the signed-in user's session and the interaction's own cookie (set on the browser
 * that began the flow). Allow grants the one resource the client asked for, with the `mcp` scope,
 * when the user is a member of its workspace. The answer is `{location}`: where the page sends the
 * browser on (oidc-provider's resume URL, which redirects to the client).
 */
async function finishInteraction(req: IncomingMessage, res: ServerResponse, action: "confirm" | "abort"): Promise<void> {
  if (req.method !== "POST") return json(res, 405, { code: "request.invalid", message: "POST only." });
  const issuer = issuerOf(req);
  const request = webRequest(req, issuer);
  const refusal = csrfRefusal({ method: "POST", pathname: new URL(request.url).pathname, headers: request.headers, publicOrigin: issuer });
  if (refusal) return json(res, refusal.status, { code: refusal.code, message: refusal.message });
  const user = await requireUser(getDb(), request).catch(() => null);
  if (!user) return json(res, 401, { code: "auth.unauthorized", message: "Sign in first." });
  const provider = providerFor(issuer);
  let details: Awaited<ReturnType<Provider["interactionDetails"]>>;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    return json(res, 400, {
      code: "token.consent_expired",
      message: "This sign-in has expired or was started in another browser; start it again from your client.",
    });
  }
  if (action === "abort") {
    const location = await provider.interactionResult(
      req,
      res,
      { error: "access_denied", error_description: "The user denied access." },
      { mergeWithLastSubmission: false },
    );
    return json(res, 200, { location });
  }
  const resource = singleResource(details.params.resource);
  const target = resource ? parseGatewayResource(resource, issuer) : null;
  if (!target || !(await memberWorkspaceId(getDb(), user.id, target.slug)))
    return json(res, 403, { code: "workspace.not_found", message: "You are not a member of the workspace this client asks for." });
  const grant = new provider.Grant({ accountId: user.id, clientId: String(details.params.client_id) });
  const asked = new Set(String(details.params.scope ?? "").split(" "));
  // The scopes oidc-provider knows by name (`mcp` among them, for a client that asks for it by
  // name); the endpoint's own access is the resource scope below.
  const oidc = ["openid", "offline_access", MCP_SCOPE].filter((scope) => asked.has(scope));
  if (oidc.length) grant.addOIDCScope(oidc.join(" "));
  grant.addResourceScope(target.url, MCP_SCOPE);
  const grantId = await grant.save();
  const location = await provider.interactionResult(
    req,
    res,
    { login: { accountId: user.id }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
  json(res, 200, { location });
}

/** The one resource of an authorization request, or null (none, or several). */
function singleResource(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === "string") return value[0];
  return null;
}

/**
 * The caller an access token of this server stands for on the gateway endpoint `request` is for;
 * its audience must be exactly that endpoint's URL (public origin and path), else 401 `token.invalid`.
 */
export async function authenticateOAuthBearer(request: Request, secret: string): Promise<OAuthTokenCaller> {
  const issuer = requestPublicOrigin(request);
  const endpoint = `${issuer}${new URL(request.url).pathname}`;
  return await authenticateAccessToken(getDb(), providerFor(issuer), secret, endpoint);
}

/** The `WWW-Authenticate` challenge of a gateway endpoint's 401: where its protected-resource metadata is. */
export function gatewayChallenge(request: Request): string {
  const endpoint = `${requestPublicOrigin(request)}${new URL(request.url).pathname}`;
  return `Bearer realm="switchboard", resource_metadata="${protectedResourceMetadataUrl(endpoint)}"`;
}

/** What the consent page shows about one interaction. */
export interface ConsentView {
  uid: string;
  /** The client's self-declared name (null when it declared none), and its id. */
  clientName: string | null;
  clientId: string;
  /** Where the code goes back to. */
  redirectUri: string;
  /** The endpoint asked for (null: none, or several). */
  resource: string | null;
  /** The workspace's name (null: not a member, or no such workspace). */
  workspaceName: string | null;
  /** The server's name (null: the whole workspace). */
  serverName: string | null;
  scopes: string[];
  /** Why Allow cannot be offered, or null. */
  refusal: string | null;
}

/**
 * The consent page's view of interaction `uid` for the signed-in `user` on `issuer`, or null when
 * there is no such interaction (expired, finished, or never made).
 */
export async function consentView(user: { id: string }, uid: string, issuer: string): Promise<ConsentView | null> {
  const provider = providerFor(issuer);
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return null;
  const clientId = String(interaction.params.client_id ?? "");
  const client = await provider.Client.find(clientId).catch(() => undefined);
  if (!client) return null;
  const resource = singleResource(interaction.params.resource);
  const target = resource ? parseGatewayResource(resource, issuer) : null;
  const workspaceId = target ? await memberWorkspaceId(getDb(), user.id, target.slug) : null;
  const workspace = workspaceId ? await getWorkspaceById(getDb(), workspaceId) : null;
  const serverFound =
    !target?.server || !workspaceId ? true : !!(await serverByName({ id: user.id, workspaceId }, target.server).catch(() => null));
  const refusal = !target
    ? "The client did not name one Switchboard MCP endpoint to use."
    : !workspaceId
      ? `You are not a member of the workspace "${target.slug}" this client asks for.`
      : !serverFound
        ? `The workspace has no server named "${target.server}".`
        : null;
  const name = client.metadata().client_name;
  return {
    uid,
    clientName: typeof name === "string" && name.trim() ? name.trim().slice(0, 100) : null,
    clientId,
    redirectUri: String(interaction.params.redirect_uri ?? ""),
    resource: target?.url ?? resource,
    workspaceName: workspace ? (workspace.personal ? "Personal" : workspace.name) : null,
    serverName: target?.server ?? null,
    scopes: [MCP_SCOPE],
    refusal,
  };
}

/**
 * The consent page of interaction `uid`: its signed-in user (signed out: to /signin, and back here
 * after) and what to show, or a null view when the interaction is gone. `headers`: the page's
 * request headers, whose origin is the issuer the flow began on.
 */
export async function consentPage(uid: string, headers: Pick<Headers, "get">) {
  const user = await requirePageUser(getDb(), { returnTo: interactionPath(uid) });
  return { user, view: await consentView(user, uid, requestPublicOrigin({ headers })) };
}

/** The signed-in user's connected OAuth clients (the account page), newest first; never a token. */
export async function myConnectedClients(user: { id: string }) {
  return await listConnectedClients(getDb(), user.id);
}

/** Revoke one of the user's connected clients: its grant with every token of it (another user's is a 404). */
export async function revokeMyConnectedClient(user: { id: string }, id: string): Promise<void> {
  await revokeConnectedClient(getDb(), user.id, id);
}
