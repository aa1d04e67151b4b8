/**
 * Second factors and recovery codes (docs/second-factors.md). The TOTP secret is sealed here, the one
 * place it is written and read, through db/secrets.ts; recovery codes are stored as SHA-256 only.
 */
import { and, count, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { recoveryCodes, userFactors, users } from "../schema";
import { openSecret, sealSecret } from "../secrets";
import { gated, stepTransaction, write } from "../transaction";
import { all, exec, one } from "../exec";

/** A confirmed or pending TOTP factor, with its secret in clear (never leaves lib/auth). */
export interface TotpFactor {
  id: string;
  userId: string;
  name: string;
  secret: string;
  lastStep: number | null;
  confirmedAt: Date | null;
}

/** A factor as the account page lists it (no secret). */
export interface FactorSummary {
  id: string;
  kind: "totp" | "passkey";
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** Store a pending TOTP factor (not counted until confirmed); returns its id. */
export async function createPendingTotp(db: Db, userId: string, name: string, secret: string): Promise<string> {
  return gated(db, async () => {
    const id = newId();
    // One pending enrolment at a time: starting again forgets the previous, never-confirmed secret.
    await exec(db.delete(userFactors).where(and(eq(userFactors.userId, userId), isNull(userFactors.confirmedAt))));
    await exec(db.insert(userFactors).values({ id, userId, kind: "totp", name, secretEnc: sealSecret(secret) }));
    return id;
  });
}

function toTotp(row: typeof userFactors.$inferSelect): TotpFactor {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    secret: openSecret(row.secretEnc ?? ""),
    lastStep: row.lastStep,
    confirmedAt: row.confirmedAt,
  };
}

/** The user's TOTP factor with id `id` (pending or confirmed), or null. */
export async function getTotpFactor(db: Db, userId: string, id: string): Promise<TotpFactor | null> {
  return gated(db, async () => {
    const row = await one(
      db
        .select()
        .from(userFactors)
        .where(and(eq(userFactors.id, id), eq(userFactors.userId, userId), eq(userFactors.kind, "totp"))),
    );
    return row ? toTotp(row) : null;
  });
}

/** The user's confirmed TOTP factors. */
export async function listConfirmedTotp(db: Db, userId: string): Promise<TotpFactor[]> {
  return gated(db, async () => {
    return (
      await all(
        db
          .select()
          .from(userFactors)
          .where(and(eq(userFactors.userId, userId), eq(userFactors.kind, "totp"), isNotNull(userFactors.confirmedAt))),
      )
    ).map(toTotp);
  });
}

/** The user's confirmed factors for the account page. */
export async function listFactorSummaries(db: Db, userId: string): Promise<FactorSummary[]> {
  return gated(db, async () => {
    return await all(
      db
        .select({
          id: userFactors.id,
          kind: userFactors.kind,
          name: userFactors.name,
          createdAt: userFactors.createdAt,
          lastUsedAt: userFactors.lastUsedAt,
        })
        .from(userFactors)
        .where(and(eq(userFactors.userId, userId), isNotNull(userFactors.confirmedAt))),
    );
  });
}

/** Whether the user has at least one confirmed factor. */
export async function hasConfirmedFactor(db: Db, userId: string): Promise<boolean> {
  return gated(db, async () => {
    const row = await one(
      db
        .select({ n: count() })
        .from(userFactors)
        .where(and(eq(userFactors.userId, userId), isNotNull(userFactors.confirmedAt))),
    );
    return (row?.n ?? 0) > 0;
  });
}

/** Whether any instance administrator has a confirmed factor. */
export async function anyAdminHasFactor(db: Db): Promise<boolean> {
  return gated(db, async () => {
    const row = await one(
      db
        .select({ n: count() })
        .from(userFactors)
        .innerJoin(users, eq(users.id, userFactors.userId))
        .where(and(eq(users.isAdmin, true), isNotNull(userFactors.confirmedAt))),
    );
    return (row?.n ?? 0) > 0;
  });
}

/** Mark a TOTP factor confirmed (at enrolment) and record the step its confirming code used. */
export async function confirmTotp(db: Db, id: string, step: number, now: Date): Promise<void> {
  return gated(db, async () => {
    await exec(db.update(userFactors).set({ confirmedAt: now, lastStep: step, lastUsedAt: now }).where(eq(userFactors.id, id)));
  });
}

/**
 * Record that a code of time step `step` was used, only if it is later than the last one: false
 * when another request used this step (or a later one) first, so one code never counts twice.
 */
export async function spendTotpStep(db: Db, id: string, step: number, now: Date): Promise<boolean> {
  return gated(db, async () => {
    // One conditional update, not a read then a write: two requests spending one step at once
    // would both pass a read made before either wrote (the check must sit in the write itself).
    const later = or(isNull(userFactors.lastStep), lt(userFactors.lastStep, step));
    return (
      (await exec(
        db
          .update(userFactors)
          .set({ lastStep: step, lastUsedAt: now })
          .where(and(eq(userFactors.id, id), later)),
      )) === 1
    );
  });
}

/** Delete one of the user's factors; false when it is not theirs. */
export async function deleteFactor(db: Db, userId: string, id: string): Promise<boolean> {
  return gated(db, async () => {
    return (await exec(db.delete(userFactors).where(and(eq(userFactors.id, id), eq(userFactors.userId, userId))))) === 1;
  });
}

/** Replace the user's recovery codes with these hashes. */
export async function replaceRecoveryCodes(db: Db, userId: string, hashes: string[]): Promise<void> {
  return gated(db, async () => {
    await stepTransaction(db, function* (tx) {
      yield* write(tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)));
      for (const codeHash of hashes) yield* write(tx.insert(recoveryCodes).values({ id: newId(), userId, codeHash }));
    });
  });
}

/** Use the unused recovery code with this hash: true once, false after (single use, race-safe). */
export async function spendRecoveryCode(db: Db, userId: string, codeHash: string, now: Date): Promise<boolean> {
  return gated(db, async () => {
    return (
      (await exec(
        db
          .update(recoveryCodes)
          .set({ usedAt: now })
          .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt))),
      )) > 0
    );
  });
}

/** How many unused recovery codes the user has left. */
export async function countRecoveryCodesLeft(db: Db, userId: string): Promise<number> {
  return gated(db, async () => {
    const row = await one(
      db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt))),
    );
    return row?.n ?? 0;
  });
}

/** Forget the user's recovery codes (their last factor was removed). */
export async function deleteRecoveryCodes(db: Db, userId: string): Promise<void> {
  return gated(db, async () => {
    await exec(db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)));
  });
}
