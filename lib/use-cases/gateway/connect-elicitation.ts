/**
 * The Connect URL elicitation (issue 33, docs/gateway.md#the-members-own-authorization): a request
 * through the gateway that needs the upstream, for a member who has not authorized that server yet
 * (per-member OAuth credentials), answers with a URL elicitation leading to Switchboard's Connect
 * page instead of the engine's "needs authorization" error. At 2025-11-25 that is the JSON-RPC error
 * `-32042` (URL elicitation required) carrying the URL; at 2026-07-28 an `input_required` result
 * with an embedded URL elicitation (tools/call, prompts/get and resources/read only, the methods
 * whose results may be `input_required`, and only for a client that declared URL elicitation on
 * the request); any other request says the same in a plain error naming the URL. A server whose
 * credentials are shared, or one that is simply down, keeps its own error: the member cannot fix
 * it on the Connect page.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import {
  type InputRequiredResult,
  inputRequired,
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
  UrlElicitationRequiredError,
} from "@modelcontextprotocol/server";
import { getDb } from "../../../db/client";
import { getWorkspaceById } from "../../../db/queries/workspaces";
import { slugOf } from "../../auth/workspace";
import type { ServerDefinition } from "../../mcp";
import { EngineError } from "../../mcp/errors";
import { workspaceServerDefinition } from "../../runtime/engine";
import { configuredPublicOrigin, fallbackOrigin, requestPublicOrigin } from "../../security/public-url";
import { credentialModeOf } from "../../servers/credential-mode";
import type { TrustActor } from "../../trust/permissions";

/** The key of the embedded URL elicitation in a 2026-07-28 `input_required` result. */
export const CONNECT_INPUT_KEY = "switchboard_connect";

/**
 * The app's public origin for a gateway request, as OAuth redirect URLs are built
 * (lib/oauth/web/redirect.ts): the configured public URL, else the request's own loopback origin.
 * Without the HTTP request (never through the routes), the configured origin or the fallback.
 */
export function gatewayOrigin(ctx: ServerContext): string {
  const request = ctx.http?.req;
  return request ? requestPublicOrigin(request) : (configuredPublicOrigin() ?? fallbackOrigin());
}

/** The absolute URL of a page of the actor's workspace (`/w/<slug>/<section>`), on the request's public origin. */
export async function workspacePageUrl(ctx: ServerContext, actor: TrustActor, section: string): Promise<string> {
  const workspace = await getWorkspaceById(getDb(), actor.workspaceId);
  const slug = workspace ? slugOf(workspace) : "personal";
  return `${gatewayOrigin(ctx)}/w/${encodeURIComponent(slug)}/${section}`;
}

/**
 * The server `error` says the member must authorize themselves (the engine's `needs_authorization`,
 * a step-up to a wider scope included) on a server whose credentials are per member; else null.
 */
export async function ownAuthorizationNeeded(error: unknown, actor: TrustActor, serverId: string): Promise<ServerDefinition | null> {
  if (!(error instanceof EngineError) || error.code !== "needs_authorization") return null;
  return await perMemberServer(actor, serverId);
}

/** The server as the actor's definition when its credentials are each member's own; else (shared, gone) null. */
async function perMemberServer(actor: TrustActor, serverId: string): Promise<ServerDefinition | null> {
  const server = await workspaceServerDefinition(getDb(), actor, serverId).catch(() => null);
  return server !== null && credentialModeOf(server.config) !== "shared" ? server : null;
}

/**
 * The Connect elicitation for a server already known to wait for the member's authorization (the
 * workspace endpoint leaves such a server's tools out, so a call of one by name says so), or null
 * when the member cannot connect it themselves (shared credentials).
 */
export async function connectIfOwn(
  mcp: Server,
  ctx: ServerContext,
  actor: TrustActor,
  serverId: string,
): Promise<InputRequiredResult | null> {
  const server = await perMemberServer(actor, serverId);
  return server ? await connectElicitation(mcp, ctx, actor, server) : null;
}

/** Methods whose 2026-07-28 result may be `input_required` (the SDK refuses it on any other). */
const INPUT_REQUIRED_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);

/**
 * The answer to a request that needs the member to connect `server` first: thrown (the 2025 error,
 * or a plain error naming the URL) or returned (the 2026-07-28 `input_required`).
 */
export async function connectElicitation(
  mcp: Server,
  ctx: ServerContext,
  actor: TrustActor,
  server: { id: string; name: string },
): Promise<InputRequiredResult> {
  const url = `${await workspacePageUrl(ctx, actor, "servers")}#server-${encodeURIComponent(server.id)}`;
  const message = `The server "${server.name}" needs your authorization: connect your account on Switchboard's Servers page (${url}), then try again.`;
  if (ctx.mcpReq.envelope === undefined) {
    // 2025-11-25 (a session): the error the spec gives for exactly this, whatever the client declared;
    // its message names the URL too, for a client that does not show URL elicitations.
    throw new UrlElicitationRequiredError([{ mode: "url", elicitationId: randomUUID(), url, message }], message);
  }
  // The request's own declared capabilities (the per-request server reads them from its envelope).
  const declaresUrl = !!mcp.getClientCapabilities()?.elicitation?.url;
  if (declaresUrl && INPUT_REQUIRED_METHODS.has(ctx.mcpReq.method)) {
    return inputRequired({ inputRequests: { [CONNECT_INPUT_KEY]: inputRequired.elicitUrl({ message, url }) } });
  }
  // 2026-07-28 without a way to hand the URL over (the -32042 error does not exist on this revision).
  throw new ProtocolError(ProtocolErrorCode.InvalidRequest, message, { code: "engine.needs_authorization", url });
}

/**
 * Run a request of `actor` on `serverId`; when it fails for the member's own missing authorization,
 * answer with the Connect elicitation instead (`connectElicitation`). Any other failure is rethrown.
 */
export async function orConnect<T>(
  mcp: Server,
  ctx: ServerContext,
  actor: TrustActor,
  serverId: string,
  run: () => Promise<T>,
): Promise<T | InputRequiredResult> {
  try {
    return await run();
  } catch (error) {
    const server = await ownAuthorizationNeeded(error, actor, serverId);
    if (!server) throw error;
    return await connectElicitation(mcp, ctx, actor, server);
  }
}

/**
 * `orConnect` for a request whose result cannot be `input_required` (lists, subscriptions,
 * completions): there the Connect elicitation is always thrown, never returned.
 */
export async function connectOrThrow<T>(
  mcp: Server,
  ctx: ServerContext,
  actor: TrustActor,
  serverId: string,
  run: () => Promise<T>,
): Promise<T> {
  const result = await orConnect(mcp, ctx, actor, serverId, run);
  if (isInputRequiredResult(result)) throw new ProtocolError(ProtocolErrorCode.InternalError, "Unexpected input_required result.");
  return result as T;
}
