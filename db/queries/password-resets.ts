/** One-time password-reset links; stored by the SHA-256 of their token, never the token itself. */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { passwordResets } from "../schema";
import { gated } from "../transaction";
import { exec, one } from "../exec";

/** A stored reset link. */
export type PasswordResetRecord = typeof passwordResets.$inferSelect;

/** Store a new reset link. */
export async function insertPasswordReset(
  db: Db,
  input: { userId: string; tokenHash: string; issuedBy: string | null; expiresAt: Date },
): Promise<PasswordResetRecord> {
  return gated(db, async () => {
    return (await one(
      db
        .insert(passwordResets)
        .values({ id: newId(), ...input })
        .returning(),
    ))!;
  });
}

/** The reset link with this token hash, or null. */
export async function getPasswordResetByTokenHash(db: Db, tokenHash: string): Promise<PasswordResetRecord | null> {
  return gated(db, async () => {
    return (await one(db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash)))) ?? null;
  });
}

/** Mark a link used, only if it still was unused: true for the one caller that used it. */
export async function markPasswordResetUsed(db: Db, id: string, now: Date): Promise<boolean> {
  return gated(db, async () => {
    return (
      (await exec(
        db
          .update(passwordResets)
          .set({ usedAt: now })
          .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt))),
      )) === 1
    );
  });
}

/** Close every unused link of a user (a newer one was issued, or the password was just reset). */
export async function closeUnusedPasswordResets(db: Db, userId: string, now: Date): Promise<void> {
  return gated(db, async () => {
    await exec(
      db
        .update(passwordResets)
        .set({ usedAt: now })
        .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt))),
    );
  });
}
