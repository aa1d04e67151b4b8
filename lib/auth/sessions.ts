/**
 * Server-side sessions behind the JWT cookie: started at sign-in, checked on every request, ended
 * by sign-out, "sign out of all devices", a password change, or the account being disabled.
 */
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { generationOf } from "../../db/generation";
import { createSession, endSession, endSessionsOfUser, getSessionState, type SessionState, touchSession } from "../../db/queries/sessions";
import { LookupCache } from "../lookup-cache";
import { sessionLifetimeMs, sessionRefusal } from "./session-policy";

// Writing last_seen_at on every request would turn each read into a write; a minute's resolution
// is plenty for an idle timeout measured in minutes or days.
const TOUCH_EVERY_MS = 60_000;

// Session rows by id, valid until the next change to sessions or users (db/generation.ts): ending a
// session or disabling its user is seen on the very next request. Expiry and idle time are still
// decided on every request from the cached row; touching it is not a change that invalidates.
const states = new LookupCache<SessionState>(10_000);

/** Start a session for a user who just proved their password; returns the session id. */
export async function startSession(db: Db, userId: string, now = new Date()): Promise<string> {
  return await createSession(db, { userId, now, expiresAt: new Date(now.getTime() + sessionLifetimeMs()) });
}

/** The user id of a live session, or null (unknown, ended, expired, idle, or its user disabled). */
export async function resolveSession(db: Db, sessionId: string, now = new Date()): Promise<string | null> {
  const state = await states.readAsync(sessionId, generationOf(db), async () => await getSessionState(db, sessionId));
  const refusal = sessionRefusal(state, now);
  if (refusal || !state) {
    // An idle or expired session is ended for good, so a later config change cannot revive it.
    if (state && (refusal === "idle" || refusal === "expired")) await endSession(db, sessionId, now);
    return null;
  }
  if (now.getTime() - state.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await touchSession(db, sessionId, now);
    state.lastSeenAt = now; // the cached row follows the write
  }
  return state.userId;
}

/**
 * Whether `sessionId` was refused because its user's account is disabled (disabling also ends the
 * session, so this reads the user, not the refusal). Only asked for a session the request proved
 * it holds, so it tells the account's own browser, nobody else, why it was signed out.
 */
export async function sessionUserDisabled(db: Db, sessionId: string): Promise<boolean> {
  return !!(await getSessionState(db, sessionId))?.userDisabledAt;
}

/** End one session (sign-out of this browser). */
export async function endOneSession(db: Db, sessionId: string, now = new Date()): Promise<void> {
  await endSession(db, sessionId, now);
}

/**
 * End every session of a user (sign out of all devices, an administrator disabling the account),
 * or all but `keepSessionId` (a password change keeps the browser that made it). Returns the count.
 */
export async function endUserSessions(db: Db, userId: string, options: { keepSessionId?: string; actorId?: string } = {}): Promise<number> {
  const ended = await endSessionsOfUser(db, userId, new Date(), options.keepSessionId);
  await recordAudit(db, {
    actorId: options.actorId ?? userId,
    action: "user.sessions_ended",
    target: userId,
    detail: { count: ended, keptCurrent: !!options.keepSessionId },
  });
  return ended;
}
