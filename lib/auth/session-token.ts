/**
 * Reading the session straight from next-auth's JWT cookie, with a small cache of verified tokens.
 * `getServerSession` rebuilds next-auth's whole handler and re-encrypts the token on every call;
 * API routes only need "which session is this", so they decrypt once per token and reuse the answer
 * (bounded by a short TTL). The cache never decides whether the session still counts: that is one
 * primary-key look-up in the sessions table on every request, so sign-out takes effect at once.
 */
import "server-only";
import { cookies, headers } from "next/headers";
import { decode } from "next-auth/jwt";
import type { Db } from "../../db/client";
import { nextAuthSecret } from "./options";
import { isHttpsRequest, sessionCookieName } from "./session-cookie";
import { resolveSession, sessionUserDisabled } from "./sessions";
import { TOKEN_CACHE_MAX, TOKEN_CACHE_TTL_MS, VerifiedTokenCache } from "./token-cache";

/** The caller's live session. */
export interface CurrentSession {
  userId: string;
  sessionId: string;
}

const cache = new VerifiedTokenCache(TOKEN_CACHE_MAX, TOKEN_CACHE_TTL_MS);

async function verifiedSessionId(token: string, now: number): Promise<string | null> {
  const hit = cache.get(token, now);
  if (hit) return hit;
  // decode() verifies and decrypts (A256GCM); a forged or altered cookie yields null or throws.
  const payload = await decode({ token, secret: nextAuthSecret() }).catch(() => null);
  const expiresAt = typeof payload?.exp === "number" ? payload.exp * 1000 : 0;
  // Tokens without a session id predate server-side sessions: they cannot be ended, so they never count.
  const sessionId = typeof payload?.sid === "string" ? payload.sid : null;
  if (!sessionId || expiresAt <= now) return null;
  cache.set(token, sessionId, now, expiresAt);
  return sessionId;
}

// The value of cookie `name` in a `Cookie` request header, or undefined.
function cookieFromHeader(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

// From the request when the caller has it (a route, which may run outside Next's request scope on
// the direct lane, lib/lane/direct-lane.ts), else from Next's request scope (pages). Only the name
// for the request's scheme counts: over https an unprefixed cookie is no session (session-cookie.ts).
async function sessionToken(request?: Request): Promise<string | undefined> {
  if (request) return cookieFromHeader(request.headers.get("cookie"), sessionCookieName(isHttpsRequest(request)));
  const name = sessionCookieName(isHttpsRequest({ headers: await headers() }));
  return (await cookies()).get(name)?.value;
}

/**
 * The request's live session, or null (no cookie, bad or expired token, session ended, user
 * disabled). Routes pass their `request`; pages read the cookie from Next's request scope.
 */
export async function currentSession(db: Db, request?: Request): Promise<CurrentSession | null> {
  const token = await sessionToken(request);
  if (!token) return null;
  const sessionId = await verifiedSessionId(token, Date.now());
  if (!sessionId) return null;
  const userId = await resolveSession(db, sessionId);
  return userId ? { userId, sessionId } : null;
}

/** The user id of the request's live session, or null. */
export async function sessionUserId(db: Db, request?: Request): Promise<string | null> {
  return (await currentSession(db, request))?.userId ?? null;
}

/** Whether the request carries a genuine session of an account that has since been disabled. */
export async function sessionOfDisabledAccount(db: Db, request?: Request): Promise<boolean> {
  const token = await sessionToken(request);
  const sessionId = token ? await verifiedSessionId(token, Date.now()) : null;
  return !!sessionId && (await sessionUserDisabled(db, sessionId));
}
