/**
 * The direct lane (docs/performance.md#the-direct-lane): the hottest API routes served by the
 * app's own HTTP server without Next's router, which costs about as much CPU per request as the
 * whole MCP round trip. Nothing is skipped: the request meets the same cross-site refusal and
 * security headers as proxy.ts (lib/security/request-policy.ts), then the caller is checked by the
 * guard the routes use, the body is read (capped) and parsed by the route's schema, and the route's
 * own `lane` handler runs with all of it passed explicitly (lib/lane/contract.ts). A streamed method
 * (`respond`: the MCP gateway, whose callers are bearer tokens, not sessions) checks its caller
 * itself, reads the body through the lane's capped reader when it asks, and answers a web Response
 * that the lane sends as it comes, event streams included. A route is also
 * served at its workspace-scoped path (`/api/w/<slug>/…`, lib/workspaces/api-path.ts), as proxy.ts
 * serves it. A request for any other path is left to Next.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError } from "../errors";
import { bodyTooLarge, errorResponse, maxBodyBytes, parseJsonText } from "../http";
import { redact } from "../redact";
import { applySecurityHeaders } from "../security/headers";
import { requestPolicy } from "../security/request-policy";
import { tracedStatus } from "../telemetry/request-span";
import { splitWorkspacePath, withPathWorkspace } from "../workspaces/api-path";
import type { LaneAnswer } from "./contract";
import type { DirectRoute } from "./lane-table";

/**
 * Who is calling, checked as the routes check it (the session, the workspace the path or header
 * names, at least `role`), or thrown as the routes throw it. The lane's handlers receive its answer.
 */
export type LaneGuard<Caller> = (request: Request, options: { role?: "member" | "admin" | "owner" }) => Promise<Caller>;

/** Serves `req` and answers true, or answers false and leaves it to Next. */
export type DirectLane = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Where the lane is installed for scripts/server.mjs (globalThis: the server is not bundled). */
export const DIRECT_LANE_SLOT = Symbol.for("switchboard.directLane");

/** Install the lane for `routes`; the app's HTTP server consults it before handing a request to Next. */
export function installDirectLane<Caller>(routes: DirectRoute<Caller>[], guard: LaneGuard<Caller>): void {
  (globalThis as { [DIRECT_LANE_SLOT]?: DirectLane })[DIRECT_LANE_SLOT] = createDirectLane(routes, guard);
}

/**
 * Consult `first` before the installed lane: it answers true for the requests it serves itself (the
 * internal hop between replicas, which carries its own proof instead of a session).
 */
export function putInFrontOfLane(first: DirectLane): void {
  const slot = globalThis as { [DIRECT_LANE_SLOT]?: DirectLane };
  const lane = slot[DIRECT_LANE_SLOT];
  slot[DIRECT_LANE_SLOT] = (req, res) => first(req, res) || (lane?.(req, res) ?? false);
}

/** The lane for `routes`, whose callers `guard` checks. */
export function createDirectLane<Caller>(routes: DirectRoute<Caller>[], guard: LaneGuard<Caller>): DirectLane {
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
      // A server span per request when tracing is on, and the request counted (docs/telemetry.md).
      tracedStatus({ method: req.method ?? "GET", url: target.pathname }, () => serve(route, guard, params, target, req, res)).catch(
        (error: unknown) => failed(error, res),
      );
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

async function serve<Caller>(
  route: DirectRoute<Caller>,
  guard: LaneGuard<Caller>,
  params: Record<string, string>,
  target: Target,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<number> {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  // As proxy.ts: only the path names the path's workspace, never a header the client sent.
  withPathWorkspace(headers, target.slug);
  // As Next's own server does: the scheme the request came in on, unless a proxy in front said so.
  if (!headers.has("x-forwarded-proto"))
    headers.set("x-forwarded-proto", "encrypted" in req.socket && req.socket.encrypted ? "https" : "http");
  const policy = requestPolicy({ method: req.method ?? "GET", pathname: target.pathname, headers });
  let answer: Written;
  // Closing the request (the client went away) aborts the work, as Next's request.signal does.
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  const reading = { stopped: false };
  const lane = route.lane;
  if ("respond" in lane) {
    let response: Response;
    if (policy.refusal) {
      const { code, message, status } = policy.refusal;
      response = Response.json({ code, message }, { status });
    } else {
      const url = new URL(req.url ?? "/", policy.publicOrigin);
      url.pathname = target.pathname;
      const request = new Request(url, { method: req.method, headers, signal: aborted.signal });
      const body = () => readBody(req, maxBodyBytes(), reading);
      // The method answers its own errors; one that escapes it gets the routes' error answer.
      response = await lane.respond({ params, request, body, signal: aborted.signal }).catch(errorResponse);
    }
    const head = new Headers(response.headers);
    applySecurityHeaders(head, { csp: policy.csp, https: policy.https });
    head.append("server-timing", 'lane;desc="direct"');
    if (reading.stopped) head.set("connection", "close");
    await sendStreamed(response, head, req.method === "GET", res);
    return response.status;
  }
  if (policy.refusal) {
    answer = await written(
      Response.json({ code: policy.refusal.code, message: policy.refusal.message }, { status: policy.refusal.status }),
    );
  } else {
    try {
      const url = new URL(req.url ?? "/", policy.publicOrigin);
      url.pathname = target.pathname;
      // The body stays on the socket: the route's input is passed to it, never read from the Request.
      const request = new Request(url, { method: req.method, headers, signal: aborted.signal });
      // The route's order: the caller first, then the body (an anonymous caller makes the app read nothing).
      const caller = await guard(request, { role: lane.role });
      const schema = lane.body;
      const input = schema ? parseJsonText(await readBody(req, maxBodyBytes(), reading), schema) : undefined;
      answer = fromAnswer(await lane.handle(caller, { params, body: input, signal: aborted.signal, request }));
    } catch (error) {
      answer = await written(errorResponse(error));
    }
  }
  applySecurityHeaders(answer.headers, { csp: policy.csp, https: policy.https });
  // Which way the request went, for whoever reads the timings (browser tools, the browser tests).
  answer.headers.append("server-timing", 'lane;desc="direct"');
  // A body left partly on the socket (over the cap) is not read to its end: the connection closes.
  if (reading.stopped) answer.headers.set("connection", "close");
  send(answer, res);
  return answer.status;
}

// An answer as it goes out: status, headers, the JSON text.
type Written = { status: number; headers: Headers; text: string };

// As Next makes `Response.json(body, { status, headers })` of the same answer.
function fromAnswer(answer: LaneAnswer): Written {
  const headers = new Headers(answer.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  return { status: answer.status ?? 200, headers, text: JSON.stringify(answer.body) };
}

// A refusal or an error answer (errorResponse, always JSON).
async function written(response: Response): Promise<Written> {
  return { status: response.status, headers: new Headers(response.headers), text: await response.text() };
}

/**
 * The request body as text, counting bytes as they arrive: past `cap` reading stops (`reading.stopped`)
 * and the 413 of lib/http's readers is thrown (a body declared over the cap never got here: the
 * front door refused it). Read straight off the socket: no web stream is made to be read back.
 */
function readBody(req: IncomingMessage, cap: number, reading: { stopped: boolean }): Promise<string> {
  if (Number(req.headers["content-length"]) > cap) return Promise.reject(bodyTooLarge(cap));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: unknown) => {
      req.off("data", onData).off("end", onEnd).off("close", onClose).off("error", done);
      if (error) reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= cap) return void chunks.push(chunk);
      req.pause();
      reading.stopped = true;
      done(bodyTooLarge(cap));
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks, size).toString("utf8"));
    };
    const onClose = () => done(new AppError("request.invalid", "The request body was cut short."));
    req.on("data", onData).once("end", onEnd).once("close", onClose).once("error", done);
  });
}

// The head and the JSON text go out in one write (a string body goes out with the head).
function send(answer: Written, res: ServerResponse): void {
  const head: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => {
    if (name !== "set-cookie") head[name] = value;
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length) head["set-cookie"] = cookies;
  head["content-length"] = String(Buffer.byteLength(answer.text));
  res.writeHead(answer.status, head).end(answer.text);
}

/**
 * A web Response sent as its body comes: the head, then each chunk as the stream yields it (an event
 * stream is written through, never collected), with the socket's back-pressure respected; the client
 * going away cancels the stream, which ends whatever produces it. `flush`: send the head at once (a
 * GET's event stream may stay silent for long; a POST's answer carries its head with the first chunk).
 */
async function sendStreamed(response: Response, headers: Headers, flush: boolean, res: ServerResponse): Promise<void> {
  const head: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    if (name !== "set-cookie") head[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length) head["set-cookie"] = cookies;
  res.writeHead(response.status, head);
  if (!response.body) return void res.end();
  if (flush) res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.once("close", cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
      if (res.destroyed) return;
    }
    res.end();
  } finally {
    res.off("close", cancel);
  }
}

// The socket took the buffered chunks, or the client went away (the stream is cancelled then).
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.once("drain", done).once("close", done);
  });
}
