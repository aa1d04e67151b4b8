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

/** The methods a lane route may serve. */
export type LaneVerb = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A route module's `lane` export: the methods it serves on the lane (each also exported for Next). */
export type LaneRoutes<Caller, Params> = Partial<Record<LaneVerb, LaneMethod<Caller, Params>>>;
