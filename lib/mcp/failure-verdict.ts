/**
 * What a failed request or health ping says about the connection it ran on (docs/limits.md#health-pings):
 * gone (the entry drops it and reconnects on its schedule), the token rejected (the user must
 * authorize again), or nothing (the connection stays; the error is the request's own). Pure, so the
 * table is tested apart from the engine.
 */
import { isEngineError } from "./errors";
import type { TransportUsed } from "./types";

/** Where the failure happened: a request, the request retried on a new session, or a health ping. */
export type FailedOn = "request" | "retry" | "ping";

/** What the owner does with the connection. */
export type FailureVerdict = "drop" | "authorize" | "keep";

/** The verdict on `error`, raised by a request, a retry or a ping. */
export function verdictOf(error: unknown, on: FailedOn): FailureVerdict {
  if (!isEngineError(error) || error.code === "cancelled") return "keep";
  // A token rejected mid-session (revoked, refresh failed): the user must authorize again.
  if (error.code === "needs_authorization") return "authorize";
  // A ping is sent only to an idle connection: whatever failed, the link did.
  if (on === "ping") return "drop";
  // HTTP transports do not report a dead server as a close: an unreachable server is a drop.
  if (error.code === "unreachable") return "drop";
  // A session refused again right after a new one began: the server is not usable, and the
  // status must not read "connected" while its calls fail.
  if (on === "retry" && error.code === "session_expired") return "drop";
  return "keep";
}

/**
 * Whether a request failed only because its session is gone, before the server ran it: a Streamable
 * HTTP session the server forgot, or a relay whose holder let go of the server (lib/mcp/placement.ts).
 * It runs once more on a new connection (a relay's is placed again).
 */
export function runsAgainOnNewSession(error: unknown, transport: TransportUsed): boolean {
  return isEngineError(error, "session_expired") && (transport === "streamable_http" || transport === "relay");
}
