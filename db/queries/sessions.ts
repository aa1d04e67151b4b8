/** Browser sessions: one row per sign-in, looked up by id on every request. */
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { bumpGeneration } from "../generation";
import { sessions, users } from "../schema";
import { gated } from "../transaction";
import { exec, one, oneOf, prepared } from "../exec";

/** A session row joined with what decides whether it still counts. */
export interface SessionState {
  id: string;
  userId: string;
  lastSeenAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  userDisabledAt: Date | null;
}

/** Start a session for a user; returns its id. */
export async function createSession(db: Db, input: { userId: string; now: Date; expiresAt: Date }): Promise<string> {
  return gated(db, async () => {
    const id = newId();
    await exec(
      db
        .insert(sessions)
        .values({ id, userId: input.userId, lastSeenAt: input.now, expiresAt: input.expiresAt, authenticatedAt: input.now }),
    );
    return id;
  });
}

function buildStateQuery(db: Db) {
  const query = db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      endedAt: sessions.endedAt,
      userDisabledAt: users.disabledAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sql.placeholder("id")));
  // Postgres names its prepared statements (one name per statement); SQLite's take none.
  return prepared(query, "session_state");
}

// Prepared once per database handle: this runs on every request.
const stateQueries = new WeakMap<Db, ReturnType<typeof buildStateQuery>>();

/** One primary-key look-up (joined to its user by primary key): the per-request session check. */
export async function getSessionState(db: Db, id: string): Promise<SessionState | null> {
  return gated(db, async () => {
    let query = stateQueries.get(db);
    if (!query) {
      query = buildStateQuery(db);
      stateQueries.set(db, query);
    }
    return (await oneOf(query, { id })) ?? null;
  });
}

/** Record activity on a session (for the idle timeout). */
export async function touchSession(db: Db, id: string, now: Date): Promise<void> {
  return gated(db, async () => {
    await exec(db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id)));
  });
}

/** When the session's user last proved who they are (sign-in or re-authentication), or null. */
export async function getSessionAuthenticatedAt(db: Db, id: string): Promise<Date | null> {
  return gated(db, async () => {
    return (await one(db.select({ at: sessions.authenticatedAt }).from(sessions).where(eq(sessions.id, id))))?.at ?? null;
  });
}

/** Record that the session's user proved who they are again (re-authentication). */
export async function markSessionAuthenticated(db: Db, id: string, now: Date): Promise<void> {
  return gated(db, async () => {
    await exec(db.update(sessions).set({ authenticatedAt: now }).where(eq(sessions.id, id)));
  });
}

/** End one session (sign-out). */
export async function endSession(db: Db, id: string, now: Date): Promise<void> {
  return gated(db, async () => {
    await exec(
      db
        .update(sessions)
        .set({ endedAt: now })
        .where(and(eq(sessions.id, id), isNull(sessions.endedAt))),
    );
    bumpGeneration();
  });
}

/** End every open session of a user, except `keepId` when given; returns how many ended. */
export async function endSessionsOfUser(db: Db, userId: string, now: Date, keepId?: string): Promise<number> {
  return gated(db, async () => {
    const open = and(eq(sessions.userId, userId), isNull(sessions.endedAt));
    const ended = await exec(
      db
        .update(sessions)
        .set({ endedAt: now })
        .where(keepId ? and(open, ne(sessions.id, keepId)) : open),
    );
    bumpGeneration();
    return ended;
  });
}
