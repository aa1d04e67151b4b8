/**
 * What a route module declares to be served on the direct lane as well as by Next
 * (docs/performance.md#the-direct-lane). A route module exports `lane`, one entry per method, beside
 * its Next handlers; route modules import these types only (the boundary rule `lane-is-fenced`
 * lets nothing but the lane's wiring load lib/lane's code).
 */
import type { z } from "zod";

/** A JSON answer before it is a Response: Next's handler makes it one, the lane sends its text. */
export interface LaneAnswer {
  body: unknown;
  status?: number;
  headers?: Record<string, string>;
}

/** What a lane handler is given, all explicit: nothing reaches it through the request but headers. */
export interface LaneInput<Params, Body> {
  /** The path parameters, percent-decoded as Next hands them. */
  params: Params;
  /** The body, parsed by the method's `body` schema after the caller was checked (undefined without one). */
  body: Body;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** The request's URL and headers (its body was read by the lane). */
  request: Request;
}

/**
 * One method on the lane. The lane checks the caller (the session and the workspace, at least
 * `role`) before it reads the body, then parses the body with `body`, then calls `handle` with the
 * caller: the same order and the same functions as the route's Next handler.
 */
export interface LaneMethod<Caller, Params, Body = unknown> {
  /** The least workspace role the method needs (default: the guard's). */
  role?: "member" | "admin" | "owner";
  /** The body's schema; without one the body is not read. */
  body?: z.ZodType<Body>;
  handle(caller: Caller, input: LaneInput<Params, Body>): Promise<LaneAnswer>;
}

/** What a streamed lane method is given: the request without its body, which it reads when it wants it. */
export interface LaneStreamInput<Params> {
  /** The path parameters, percent-decoded as Next hands them. */
  params: Params;
  /** The request's URL and headers; its body is left on the socket for `body()`. */
  request: Request;
  /**
   * The body as text, read once when asked (after the method checked its caller), capped as every
   * body is (413 past `SWITCHBOARD_MAX_BODY_BYTES`). Under Next the same function reads the Request.
   */
  body(): Promise<string>;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/**
 * One method on the lane that answers a web `Response`, sent as its body comes (an event stream
 * stays open for as long as it runs): for routes whose caller is no session (the MCP gateway's
 * bearer tokens), so the method checks its caller itself, first, as its Next handler does, and
 * answers errors as that handler does. The lane adds the request policy and the security headers.
 */
export interface LaneStreamMethod<Params> {
  respond(input: LaneStreamInput<Params>): Promise<Response>;
}

/** The methods a lane route may serve. */
export type LaneVerb = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A route module's `lane` export: the methods it serves on the lane (each also exported for Next). */
export type LaneRoutes<Caller, Params> = Partial<Record<LaneVerb, LaneMethod<Caller, Params> | LaneStreamMethod<Params>>>;
