/**
 * The gateway's route handlers served over `node:http`, as Next would call them, for the gateway's
 * integration tests: `/mcp/<slug>/<server>` and `/mcp/<slug>`, behind the OAuth authorization
 * server's mount as scripts/server.mjs has it (`/oauth/…`, the well-known documents); with `bearer`,
 * a second listener that adds `Authorization: Bearer <token>` to every request, standing in for a
 * client's configured header for callers that cannot send one, such as the conformance suite.
 */
import type { ChildProcess } from "node:child_process";
import http from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { getDb } from "@/db/client";
import { flushAudit } from "@/db/queries/audit";
import { upsertMembership } from "@/db/queries/memberships";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { stopProcess } from "../mcp/helpers";
import { type Person, person, team } from "../workspaces/helpers";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A listening gateway: its base URL, and `close`. */
export interface ServedGateway {
  base: string;
  close: () => Promise<void>;
}

/** The routes' handlers by method, dispatched on `/mcp/<slug>/<server>` and `/mcp/<slug>`. */
async function routeFetch(): Promise<(request: Request) => Promise<Response>> {
  const perServer = (await import("@/app/mcp/[slug]/[server]/route")) as unknown as Record<string, Handler>;
  const workspace = (await import("@/app/mcp/[slug]/route")) as unknown as Record<string, Handler>;
  return async (request) => {
    const match = /^\/mcp\/([^/]+)(?:\/([^/]+))?$/.exec(new URL(request.url).pathname);
    const route = match?.[2] === undefined ? workspace : perServer;
    const handler = ["GET", "POST", "DELETE"].includes(request.method) ? route[request.method] : undefined;
    if (!match || !handler) return new Response(null, { status: 404 });
    const [, slug, server] = match;
    const params: Record<string, string> = server === undefined ? { slug } : { slug, server };
    return await handler(request, { params: Promise.resolve(params) });
  };
}

/** Listen on 127.0.0.1 with `fetch` behind `node:http`, the authorization server's mount in front of it. */
async function listen(fetch: (request: Request) => Promise<Response>): Promise<ServedGateway> {
  const serve = toNodeHandler({ fetch });
  const { serveOAuthServer } = await import("@/lib/use-cases/oauth-server");
  const server = http.createServer((req, res) => {
    if (!serveOAuthServer(req, res)) void serve(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Serve the gateway's routes. With `bearer`, every request gets that token as its `Authorization`
 * header before the route sees it: the route itself still checks it as for any client.
 */
export async function serveGateway(bearer?: string): Promise<ServedGateway> {
  const fetch = await routeFetch();
  if (!bearer) return await listen(fetch);
  return await listen(async (request) => {
    const headers = new Headers(request.headers);
    headers.set("authorization", `Bearer ${bearer}`);
    return await fetch(new Request(request, { headers }));
  });
}

/** What a raw `initialize` POST got: the status, the body, the challenge header and the session it opened. */
export interface RawInitialize {
  status: number;
  text: string;
  challenge: string | null;
  sessionId: string | null;
}

/** A raw POST of a 2025-11-25 `initialize` to `url` (with `secret` as the bearer token, when given). */
export async function rawInitialize(url: string, secret: string | null): Promise<RawInitialize> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(secret ? { authorization: `Bearer ${secret}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  return {
    status: response.status,
    text: await response.text(),
    challenge: response.headers.get("www-authenticate"),
    sessionId: response.headers.get("mcp-session-id"),
  };
}

/** What a gateway test opened, for `closeGatewayTest`. */
export interface OpenedForGatewayTest {
  clients?: { close(): Promise<void> }[];
  gateway?: ServedGateway;
  fixtures?: (ChildProcess | undefined)[];
  /** Anything else to close (an authorization server fixture). */
  others?: ({ close(): Promise<void> } | undefined)[];
  /** The test's data directory (useTempDataDir). */
  dir: string;
}

/** Close what a gateway test opened: clients, the app's pool, the gateway, fixtures; flush the audit; remove the data directory. */
export async function closeGatewayTest(opened: OpenedForGatewayTest): Promise<void> {
  await Promise.all((opened.clients ?? []).map((client) => client.close().catch(() => undefined)));
  const { closeGlobalPool } = await import("@/lib/mcp");
  await closeGlobalPool();
  await opened.gateway?.close();
  for (const child of opened.fixtures ?? []) await stopProcess(child);
  for (const other of opened.others ?? []) await other?.close();
  await flushAudit(getDb());
  removeTempDataDir(opened.dir);
}

/** The world most gateway tests start from: a fresh data directory, admin and bob, and the team Acme with bob a member. */
export async function acmeWithBob(): Promise<{ dir: string; admin: Person; bob: Person; acme: string; acmeSlug: string }> {
  const dir = useTempDataDir();
  const admin = await person("admin@example.com");
  const bob = await person("bob@example.com");
  const acme = await team(admin, "Acme");
  const acmeSlug = (await getWorkspaceById(getDb(), acme))?.slug as string;
  await upsertMembership(getDb(), { workspaceId: acme, userId: bob.id, role: "member" });
  return { dir, admin, bob, acme, acmeSlug };
}

/** The text of a tool result's first content block ("" when it has none). */
export const textOf = (result: { content?: unknown }): string => (result.content as { type: string; text?: string }[])[0]?.text ?? "";
