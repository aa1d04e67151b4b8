/**
 * The per-server MCP gateway endpoint, `/mcp/<workspace-slug>/<server-name>` (issue 33,
 * docs/gateway.md): one workspace server as a Streamable HTTP MCP server for any MCP client that
 * holds a personal access token of the workspace with the `mcp` scope. 2025-era clients get
 * sessions (`Mcp-Session-Id`); 2026-07-28 clients are served statelessly, one request at a time.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { createMcpHandler, isLegacyRequest, type Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { getDb } from "../../../db/client";
import { getWorkspaceById } from "../../../db/queries/workspaces";
import { slugOf } from "../../auth/workspace";
import { AppError } from "../../errors";
import { maxBodyBytes } from "../../http";
import type { TrustActor } from "../../trust/permissions";
import type { ApiCaller } from "../caller";
import { SessionEventStore } from "./event-store";
import { type GatewayTarget, proxyServer } from "./proxy-server";
import { closeSession, findSession, keepSession } from "./sessions";
import { serverByName, upstreamHandshake } from "./upstream";

/** A token caller: the route accepts personal access tokens only, so the token's workspace is known. */
export type GatewayCaller = ApiCaller & { tokenWorkspaceId: string };

/**
 * Answer one HTTP request of the endpoint (GET, POST or DELETE). The token's workspace must be the
 * one `slug` names and `serverName` one of its servers, else 404 `workspace.not_found` /
 * `server.not_found` (a token reveals nothing of another workspace).
 */
export async function gatewayResponse(caller: GatewayCaller, slug: string, serverName: string, request: Request): Promise<Response> {
  const workspace = await getWorkspaceById(getDb(), caller.tokenWorkspaceId);
  if (!workspace || slugOf(workspace) !== slug) throw new AppError("workspace.not_found", "No such workspace.");
  const actor: TrustActor = { id: caller.id, isAdmin: caller.isAdmin, workspaceId: workspace.id };
  const server = await serverByName(actor, serverName);
  if (!server) throw new AppError("server.not_found", "No such server in this workspace.");
  const target: GatewayTarget = { actor, serverId: server.id };
  const build = async (sessions = false) => proxyServer(target, await upstreamHandshake(actor, server), sessions);

  if (await isLegacyRequest(request, undefined, { maxRequestBodySize: maxBodyBytes() }))
    return await legacyResponse(target, build, request);
  // 2026-07-28: every request carries its own envelope, so a fresh proxy serves each one.
  return await createMcpHandler(() => build(), { legacy: "reject", maxRequestBodySize: maxBodyBytes() }).fetch(request);
}

// How long a client whose SSE stream dropped waits before reconnecting with Last-Event-ID.
const SSE_RETRY_MS = 1000;

/** A 2025-era request: to its session, or (with no session id) an `initialize` opening one. */
async function legacyResponse(target: GatewayTarget, build: (sessions: boolean) => Promise<Server>, request: Request): Promise<Response> {
  const sessionId = request.headers.get("mcp-session-id");
  if (sessionId) {
    const session = findSession(sessionId, target.actor.id, target.serverId);
    if (!session) return sessionNotFound();
    return await session.transport.handleRequest(request);
  }
  if (request.method !== "POST") return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
  const server = await build(true);
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    maxRequestBodySize: maxBodyBytes(),
    // Resumable streams: a priming event with an id and this retry interval opens each SSE stream.
    eventStore: new SessionEventStore(),
    retryInterval: SSE_RETRY_MS,
    onsessioninitialized: (id): void =>
      keepSession(id, { userId: target.actor.id, serverId: target.serverId, transport, server, lastUsed: Date.now() }),
    onsessionclosed: (id) => closeSession(id),
  });
  await server.connect(transport);
  const response = await transport.handleRequest(request);
  // Not an initialize (the transport refused it): nothing was kept, so nothing stays open.
  if (!transport.sessionId) await server.close();
  return response;
}

// What the transport itself answers for an unknown session: 404, so the client starts a new one.
const sessionNotFound = () => jsonRpcError(404, -32001, "Session not found");

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}
