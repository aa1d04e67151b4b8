/**
 * The MCP gateway endpoints (issue 33, docs/gateway.md): `/mcp/<workspace-slug>/<server-name>`, one
 * workspace server as a Streamable HTTP MCP server, and `/mcp/<workspace-slug>`, all of them as one,
 * for any MCP client that holds a personal access token of the workspace with the `mcp` scope, or
 * an access token of Switchboard's authorization server for that endpoint. 2025-era clients get
 * sessions (`Mcp-Session-Id`); 2026-07-28 clients are served statelessly, one request at a time.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import {
  createMcpHandler,
  isLegacyRequest,
  PROTOCOL_VERSION_META_KEY,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { getDb } from "../../../db/client";
import { slugOf } from "../../auth/workspace";
import { AppError } from "../../errors";
import { maxBodyBytes } from "../../http";
import { paramHeaderMismatch } from "../../mcp/param-headers";
import { appPool } from "../../runtime/engine";
import type { TrustActor } from "../../trust/permissions";
import { membershipOf } from "../../workspaces/membership-lookup";
import type { ApiCaller } from "../caller";
import { gatewayChallenge } from "../oauth-server";
import { SessionEventStore } from "./event-store";
import { type GatewayTarget, proxyServer } from "./proxy-server";
import { closeSession, findSession, keepSession } from "./sessions";
import { serverByName, upstreamHandshake } from "./upstream";
import { workspaceServer } from "./workspace-server";

/** A token caller: the route accepts personal access tokens only, so the token's workspace is known. */
export type GatewayCaller = ApiCaller & { tokenWorkspaceId: string };

/**
 * The request body as text, read once when the gateway wants it (after the caller and the endpoint
 * were checked), capped at `SWITCHBOARD_MAX_BODY_BYTES`: `readBodyText(request)` under Next, the
 * direct lane's socket reader on the lane (lib/lane/contract.ts).
 */
export type BodyText = () => Promise<string>;

/**
 * Answer one HTTP request of the per-server endpoint (GET, POST or DELETE). The token's workspace
 * must be the one `slug` names and `serverName` one of its servers, else 404 `workspace.not_found`
 * / `server.not_found` (a token reveals nothing of another workspace).
 */
export async function gatewayResponse(
  caller: GatewayCaller,
  slug: string,
  serverName: string,
  request: Request,
  body: BodyText,
): Promise<Response> {
  const actor = await tokenActor(caller, slug);
  const server = await serverByName(actor, serverName);
  if (!server) throw new AppError("server.not_found", "No such server in this workspace.");
  const target: GatewayTarget = { actor, serverId: server.id };
  // The raw tool's input schema, for the Mcp-Param-* check of a 2026-07-28 call (param-headers.ts).
  const toolSchema = async (name: string) =>
    (await appPool().session(actor.id, server).listTools()).find((tool) => tool.kind === "tool" && tool.rawName === name)?.inputSchema;
  return await served(
    { userId: actor.id, endpoint: server.id },
    request,
    body,
    async (sessions) => proxyServer(target, await upstreamHandshake(actor, server), sessions),
    toolSchema,
  );
}

/**
 * Answer one HTTP request of the workspace endpoint `/mcp/<slug>`: every server of the workspace
 * the member may use, under the chat's registered names (lib/use-cases/gateway/workspace-server.ts).
 * The token's workspace must be the one `slug` names, else 404 `workspace.not_found`.
 */
export async function workspaceGatewayResponse(caller: GatewayCaller, slug: string, request: Request, body: BodyText): Promise<Response> {
  const actor = await tokenActor(caller, slug);
  return await served(
    { userId: actor.id, endpoint: `workspace:${actor.workspaceId}` },
    request,
    body,
    async (sessions) => await workspaceServer(actor, `switchboard-${slug}`, sessions),
  );
}

/** The token's member acting in the token's workspace, if that is the workspace `slug` names. */
async function tokenActor(caller: GatewayCaller, slug: string): Promise<TrustActor> {
  // Through the membership cache (read per change stamp, as the token's own check): the token's
  // member was checked a moment ago, so this only names the workspace, without a query per request.
  const workspace = (await membershipOf(getDb(), caller.id, { id: caller.tokenWorkspaceId }))?.workspace;
  if (!workspace || slugOf(workspace) !== slug) throw new AppError("workspace.not_found", "No such workspace.");
  return { id: caller.id, isAdmin: caller.isAdmin, workspaceId: workspace.id };
}

/** Whose sessions a request may reach: the member's, at this endpoint (a server's id, or the workspace's). */
interface SessionOwner {
  userId: string;
  endpoint: string;
}

/**
 * Serve a request of either era with the MCP server `build` makes (`sessions`: for a 2025 session).
 * With `toolSchema`, a 2026-07-28 `tools/call` whose `Mcp-Param-*` headers disagree with its
 * arguments is refused first (`paramHeaderRefusal`).
 */
async function served(
  owner: SessionOwner,
  request: Request,
  body: BodyText,
  build: (sessions: boolean) => Promise<Server>,
  toolSchema?: (name: string) => Promise<unknown>,
): Promise<Response> {
  const posted = await postedBody(request, body);
  const options = { parsedBody: posted.parsed };
  // Only a 2025-era client holds a session: a request for one this replica keeps goes straight to it,
  // without the era check (several schema parses of the body per request, the gateway's hot path). A
  // body naming a protocol version of its own (a 2026-07-28 envelope) still takes the check.
  const held = heldSession(owner, request, posted.parsed);
  if (held) return await held.transport.handleRequest(posted.request, options);
  if (await isLegacyRequest(posted.request, posted.parsed, { maxRequestBodySize: maxBodyBytes() }))
    return await legacyResponse(owner, build, posted.request, options);
  const refusal = toolSchema && (await paramHeaderRefusal(posted.parsed, request.headers, toolSchema));
  if (refusal) return refusal;
  // 2026-07-28: every request carries its own envelope, so a fresh server serves each one.
  return await createMcpHandler(() => build(false), { legacy: "reject", maxRequestBodySize: maxBodyBytes() }).fetch(
    posted.request,
    options,
  );
}

/** The open session a request names, when it is the owner's and the body carries no 2026-07-28 envelope. */
function heldSession(owner: SessionOwner, request: Request, parsed: unknown) {
  const sessionId = request.headers.get("mcp-session-id");
  if (!sessionId || claimsProtocolVersion(parsed)) return null;
  return findSession(sessionId, owner.userId, owner.endpoint);
}

// Whether a posted message (or any of a batch) names its protocol version in `_meta`, as a 2026-07-28 request does.
function claimsProtocolVersion(parsed: unknown): boolean {
  if (Array.isArray(parsed)) return parsed.some(claimsProtocolVersion);
  const meta = (parsed as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  return typeof meta === "object" && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * A POST's body, read once and parsed here, so the era check and the SDK's transport both take it
 * parsed (`parsedBody`) instead of each reading the request. A body that is no JSON goes back on a
 * copy of the request, unparsed, for the SDK to answer as it answers any such body.
 */
async function postedBody(request: Request, body: BodyText): Promise<{ request: Request; parsed?: unknown }> {
  if (request.method !== "POST") return { request };
  const text = await body();
  try {
    return { request, parsed: JSON.parse(text) };
  } catch {
    return { request: new Request(request.url, { method: "POST", headers: request.headers, body: text, signal: request.signal }) };
  }
}

/**
 * SEP-2243's server check, which the SDK makes only for an `McpServer`'s own tools: a 2026-07-28
 * `tools/call` whose `Mcp-Param-*` headers are missing, badly encoded or disagree with the
 * arguments the tool marks with `x-mcp-header` is `400` with JSON-RPC `-32020` (HeaderMismatch),
 * before anything reaches the upstream; intermediaries may route on those headers.
 */
async function paramHeaderRefusal(
  parsed: unknown,
  headers: Headers,
  toolSchema: (name: string) => Promise<unknown>,
): Promise<Response | null> {
  const message = parsed as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } } | undefined;
  if (message?.method !== "tools/call" || typeof message.params?.name !== "string") return null;
  const schema = await toolSchema(message.params.name).catch(() => undefined);
  const mismatch = paramHeaderMismatch(schema, message.params.arguments, headers);
  if (!mismatch) return null;
  const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
  return Response.json(
    { jsonrpc: "2.0", error: { code: HEADER_MISMATCH, message: `Bad Request: the request headers and body disagree: ${mismatch}` }, id },
    { status: 400 },
  );
}

// JSON-RPC HeaderMismatch (2026-07-28).
const HEADER_MISMATCH = -32020;

// How long a client whose SSE stream dropped waits before reconnecting with Last-Event-ID.
const SSE_RETRY_MS = 1000;

/** A 2025-era request: to its session, or (with no session id) an `initialize` opening one. */
async function legacyResponse(
  owner: SessionOwner,
  build: (sessions: boolean) => Promise<Server>,
  request: Request,
  options: { parsedBody?: unknown },
): Promise<Response> {
  const sessionId = request.headers.get("mcp-session-id");
  if (sessionId) {
    const session = findSession(sessionId, owner.userId, owner.endpoint);
    if (!session) return sessionNotFound();
    return await session.transport.handleRequest(request, options);
  }
  if (request.method !== "POST") return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
  const server = await build(true);
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    maxRequestBodySize: maxBodyBytes(),
    // Resumable streams: each SSE stream opens with a priming event (an id and this retry interval),
    // and a client whose stream dropped gets what it missed from this session's bounded store.
    eventStore: new SessionEventStore(),
    retryInterval: SSE_RETRY_MS,
    onsessioninitialized: (id): void => keepSession(id, { ...owner, transport, server, lastUsed: Date.now() }),
    onsessionclosed: (id) => closeSession(id),
  });
  await server.connect(transport);
  const response = await transport.handleRequest(request, options);
  // Not an initialize (the transport refused it): nothing was kept, so nothing stays open.
  if (!transport.sessionId) await server.close();
  return response;
}

// What the transport itself answers for an unknown session: 404, so the client starts a new one.
const sessionNotFound = () => jsonRpcError(404, -32001, "Session not found");

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}

/**
 * A gateway answer with the bearer challenge a refused token needs: a 401 gets
 * `WWW-Authenticate: Bearer` with the endpoint's protected-resource metadata (RFC 9728: what tells
 * an MCP client where to sign in), unless it has one. The body keeps the token error code.
 */
export function withBearerChallenge(response: Response, request: Request): Response {
  if (response.status !== 401 || response.headers.has("www-authenticate")) return response;
  const answer = new Response(response.body, response);
  answer.headers.set("www-authenticate", gatewayChallenge(request));
  return answer;
}
