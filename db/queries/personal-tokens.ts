/** Personal access tokens (docs/personal-tokens.md); stored by the SHA-256 of their secret, never the secret. */
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { bumpGeneration } from "../generation";
import { newId } from "../ids";
import { personalTokens, workspaces } from "../schema";
import { gated } from "../transaction";
import { all, exec, one } from "../exec";

/** A stored token (its hash included: never answer this to a client as is). */
export type PersonalTokenRecord = typeof personalTokens.$inferSelect;

/** Store a new token. */
export async function insertPersonalToken(
  db: Db,
  input: { userId: string; workspaceId: string; name: string; scopes: string; tokenHash: string; hint: string; expiresAt: Date },
): Promise<PersonalTokenRecord> {
  return gated(db, async () => {
    const token = (await one(
      db
        .insert(personalTokens)
        .values({ id: newId(), ...input })
        .returning(),
    ))!;
    bumpGeneration();
    return token;
  });
}

/** The token with this secret hash (unique index), or null. */
export async function getPersonalTokenByHash(db: Db, tokenHash: string): Promise<PersonalTokenRecord | null> {
  return gated(db, async () => {
    return (await one(db.select().from(personalTokens).where(eq(personalTokens.tokenHash, tokenHash)))) ?? null;
  });
}

/** A user's tokens, newest first, with their workspace's name and slug (no hash). */
export async function listPersonalTokensOfUser(db: Db, userId: string) {
  return gated(db, async () => {
    return await all(
      db
        .select({
          id: personalTokens.id,
          name: personalTokens.name,
          scopes: personalTokens.scopes,
          hint: personalTokens.hint,
          workspaceId: personalTokens.workspaceId,
          workspaceName: workspaces.name,
          workspaceSlug: workspaces.slug,
          personal: workspaces.personalOwnerId,
          expiresAt: personalTokens.expiresAt,
          lastUsedAt: personalTokens.lastUsedAt,
          revokedAt: personalTokens.revokedAt,
          createdAt: personalTokens.createdAt,
        })
        .from(personalTokens)
        .innerJoin(workspaces, eq(workspaces.id, personalTokens.workspaceId))
        .where(eq(personalTokens.userId, userId))
        .orderBy(desc(personalTokens.createdAt)),
    );
  });
}

/** Revoke one of the user's live tokens: true when it was theirs and not revoked yet. */
export async function revokePersonalToken(db: Db, ref: { id: string; userId: string }, now: Date): Promise<boolean> {
  return gated(db, async () => {
    const revoked =
      (await exec(
        db
          .update(personalTokens)
          .set({ revokedAt: now })
          .where(and(eq(personalTokens.id, ref.id), eq(personalTokens.userId, ref.userId), isNull(personalTokens.revokedAt))),
      )) === 1;
    // The token checks cached under the change stamp (lib/auth/personal-tokens.ts) refuse it from the next request.
    bumpGeneration();
    return revoked;
  });
}

/**
 * Note a use of the token (shown on the account page). It moves no change stamp, here nor (on
 * Postgres) through the change trigger, which leaves `last_used_at` out: the last use decides
 * nothing a cached token check keeps, and a write per use would empty every cache each time.
 */
export async function touchPersonalToken(db: Db, id: string, now: Date): Promise<void> {
  return gated(db, async () => {
    await exec(db.update(personalTokens).set({ lastUsedAt: now }).where(eq(personalTokens.id, id)));
  });
}
