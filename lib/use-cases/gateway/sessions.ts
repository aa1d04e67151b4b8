/**
 * The gateway's 2025-11-25 sessions (Streamable HTTP with `Mcp-Session-Id`): each is one SDK
 * transport and proxy server held by this replica, bound to the member and the endpoint (a server,
 * or the whole workspace) it was opened at. A session id presented by anyone else, or at another
 * endpoint, is not found. A request for a
 * session on another replica (or one this replica closed) gets 404, and the client starts a new
 * session, as the transport specification asks of it.
 */
import "server-only";
import type { Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { singleton } from "../../singleton";

/** One open session. */
export interface GatewaySession {
  userId: string;
  /** The endpoint it was opened at: the server's id, or `workspace:<id>` for the workspace endpoint. */
  endpoint: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

// Bounds so that a client opening sessions in a loop cannot grow the table: per member, and idle time.
const SESSIONS_PER_USER = 32;
const IDLE_MS = 30 * 60_000;

const table = () => singleton("gateway.sessions", () => new Map<string, GatewaySession>());

/** The session `id` if it belongs to this user and endpoint (else null: foreign ids are not found). */
export function findSession(id: string, userId: string, endpoint: string, now = Date.now()): GatewaySession | null {
  const session = table().get(id);
  if (!session || session.userId !== userId || session.endpoint !== endpoint) return null;
  session.lastUsed = now;
  return session;
}

/** Keep a newly initialized session, closing idle ones and the user's oldest over the bound. */
export function keepSession(id: string, session: GatewaySession, now = Date.now()): void {
  const sessions = table();
  const own: [string, GatewaySession][] = [];
  for (const [key, other] of sessions) {
    if (now - other.lastUsed > IDLE_MS) closeSession(key);
    else if (other.userId === session.userId) own.push([key, other]);
  }
  own.sort((a, b) => a[1].lastUsed - b[1].lastUsed);
  for (const [key] of own.slice(0, Math.max(0, own.length - SESSIONS_PER_USER + 1))) closeSession(key);
  sessions.set(id, session);
}

/** Forget and close one session (its transport's DELETE, an eviction). */
export function closeSession(id: string): void {
  const sessions = table();
  const session = sessions.get(id);
  if (!session) return;
  sessions.delete(id);
  void session.server.close().catch(() => undefined);
}

/** How many sessions this replica holds (tests). */
export function sessionCount(): number {
  return table().size;
}
