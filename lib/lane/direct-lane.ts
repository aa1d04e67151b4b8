/**
 * The direct lane (docs/performance.md#the-direct-lane): the hottest API routes served by the
 * app's own HTTP server without Next's router, which costs about as much CPU per request as the
 * whole MCP round trip. Nothing is skipped: the request meets the same cross-site refusal and
 * security headers as proxy.ts (lib/security/request-policy.ts), then the route's own handler runs
 * with a web `Request`, so the session check, body cap, schema, role and quotas are the route's.
 * A route is also served at its workspace-scoped path (`/api/w/<slug>/…`, lib/workspaces/api-path.ts),
 * as proxy.ts serves it. A request for any other path is left to Next.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { errorResponse, laneRequest, maxBodyBytes, serializedBody } from "../http";
import { redact } from "../redact";
import { applySecurityHeaders } from "../security/headers";
import { requestPolicy } from "../security/request-policy";
import { splitWorkspacePath, withPathWorkspace } from "../workspaces/api-path";

/** A route handler as Next calls it: the request and a context with the path parameters. */
export type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * One route the lane serves: a method, a path pattern whose named groups are the parameters, the
 * handler. The handler reads its body through lib/http's readers (readJson, parseJson), which
 * also see a body the lane read ahead.
 */
export interface DirectRoute {
  method: string;
  pattern: RegExp;
  handler: RouteHandler;
}

/** Serves `req` and answers true, or answers false and leaves it to Next. */
export type DirectLane = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Where the lane is installed for scripts/server.mjs (globalThis: the server is not bundled). */
export const DIRECT_LANE_SLOT = Symbol.for("switchboard.directLane");

/** Install the lane for `routes`; the app's HTTP server consults it before handing a request to Next. */
export function installDirectLane(routes: DirectRoute[]): void {
  (globalThis as { [DIRECT_LANE_SLOT]?: DirectLane })[DIRECT_LANE_SLOT] = createDirectLane(routes);
}

/** The lane for `routes`. */
export function createDirectLane(routes: DirectRoute[]): DirectLane {
  return (req, res) => {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query < 0 ? url : url.slice(0, query);
    const scoped = splitWorkspacePath(pathname);
    const target = { pathname: scoped?.pathname ?? pathname, slug: scoped?.slug ?? null };
    for (const route of routes) {
      if (route.method !== req.method) continue;
      const match = route.pattern.exec(target.pathname);
      if (!match) continue;
      const params = decodedParams(match.groups ?? {});
      // A malformed escape in the path: Next answers that as it answers any bad path.
      if (!params) return false;
      serve(route, params, target, req, res).catch((error: unknown) => failed(error, res));
      return true;
    }
    return false;
  };
}

// Path parameters as Next hands them to a route: percent-decoded.
function decodedParams(groups: Record<string, string>): Record<string, string> | null {
  const params: Record<string, string> = {};
  try {
    for (const [name, value] of Object.entries(groups)) params[name] = decodeURIComponent(value);
  } catch {
    return null;
  }
  return params;
}

// Anything that escapes serve() (a header the web Headers refuse, a body stream that errors while
// it is sent) ends this one response, never the process: an unhandled rejection would stop it.
function failed(error: unknown, res: ServerResponse): void {
  console.error(`direct lane: ${redact(error instanceof Error ? error.message : String(error))}`);
  if (!res.headersSent) {
    res
      .writeHead(400, { "content-type": "application/json" })
      .end(JSON.stringify({ code: "request.invalid", message: "The request could not be read." }));
  } else {
    res.destroy();
  }
}

// The route's path and the workspace its `/api/w/<slug>/` form named (null: none).
type Target = { pathname: string; slug: string | null };

async function serve(route: DirectRoute, params: Record<string, string>, target: Target, req: IncomingMessage, res: ServerResponse) {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  // As proxy.ts: only the path names the path's workspace, never a header the client sent.
  withPathWorkspace(headers, target.slug);
  // As Next's own server does: the scheme the request came in on, unless a proxy in front said so.
  if (!headers.has("x-forwarded-proto"))
    headers.set("x-forwarded-proto", "encrypted" in req.socket && req.socket.encrypted ? "https" : "http");
  const policy = requestPolicy({ method: req.method ?? "GET", pathname: target.pathname, headers });
  let response: Response;
  // Closing the request (the client went away) aborts the work, as Next's request.signal does.
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  if (policy.refusal) {
    response = Response.json({ code: policy.refusal.code, message: policy.refusal.message }, { status: policy.refusal.status });
  } else {
    try {
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const url = new URL(req.url ?? "/", policy.publicOrigin);
      url.pathname = target.pathname;
      const init = { method: req.method, headers, signal: aborted.signal };
      const ahead = hasBody ? await readAhead(req) : undefined;
      const streamed = hasBody && !ahead ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {};
      const request = laneRequest(url, { ...init, ...streamed } as RequestInit, ahead);
      response = await route.handler(request, { params: Promise.resolve(params) });
    } catch (error) {
      // route() already answers every thrown error; this is a failure outside it (a bad request line).
      response = errorResponse(error);
    }
  }
  applySecurityHeaders(response.headers, { csp: policy.csp, https: policy.https });
  // Which way the request went, for whoever reads the timings (browser tools, the browser tests).
  response.headers.append("server-timing", 'lane;desc="direct"');
  await send(response, res);
}

// A body whose declared length is within the app's body cap is read here, as one buffer, and the
// route's readers (lib/http) take it from there: a Node stream turned into a web stream, and a
// buffer into another, cost more than the rest of reading it. Any other body (no length, or over
// the cap) streams to the route, whose own cap answers it.
async function readAhead(req: IncomingMessage): Promise<Buffer | undefined> {
  const declared = Number(req.headers["content-length"]);
  if (!Number.isInteger(declared) || declared < 0 || declared > maxBodyBytes()) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// JSON answers go out in one write with their headers (a tool call's result is small); anything
// else streams as it comes.
async function send(response: Response, res: ServerResponse): Promise<void> {
  const head: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") head[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) head["set-cookie"] = cookies;
  // A jsonResponse's own text, sent with the head in one write (a string body goes out with it).
  const text = serializedBody(response);
  if (text !== undefined) {
    head["content-length"] = String(Buffer.byteLength(text));
    res.writeHead(response.status, head).end(text);
    return;
  }
  if (!response.body) {
    res.writeHead(response.status, head).end();
    return;
  }
  if (response.headers.get("content-type")?.startsWith("application/json")) {
    // As a string, Node sends the head and the body in one write (a Buffer body is a second chunk).
    const body = await response.text();
    head["content-length"] = String(Buffer.byteLength(body));
    res.writeHead(response.status, head).end(body);
    return;
  }
  res.writeHead(response.status, head);
  const reader = response.body.getReader();
  try {
    for (let next = await reader.read(); !next.done && !res.destroyed; next = await reader.read()) res.write(next.value);
  } finally {
    reader.releaseLock();
  }
  // Ended only when the body was: a body that failed leaves the response cut short (failed()), so
  // the client sees an incomplete answer, never a complete-looking one.
  res.end();
}
