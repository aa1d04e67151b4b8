/**
 * One-time password-reset links (issue 31): an instance administrator issues one for a user, or
 * the user asks for one by email when mail is set up. A random token, of which only the SHA-256 is
 * stored; one hour; single use. Using it sets the new password (checked like any new one) and ends
 * every session of the user. Issuing a new link closes the user's older unused ones.
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import {
  closeUnusedPasswordResets,
  getPasswordResetByTokenHash,
  insertPasswordReset,
  markPasswordResetUsed,
  type PasswordResetRecord,
} from "../../db/queries/password-resets";
import { getUserById, updatePasswordHash } from "../../db/queries/users";
import { AppError } from "../errors";
import { unauthenticatedHashGate } from "../security/hash-gate";
import { hashPassword, passwordRefusal } from "../security/password";
import { endUserSessions } from "./sessions";
import { withTransaction } from "../../db/transaction";

/** How long a reset link works. */
export const PASSWORD_RESET_TTL_MS = 3_600_000;

/** Body of `POST /api/password-reset/:token`. */
export const passwordResetSchema = z.object({ password: z.string().max(1000) }).strict();

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The link a token opens (the reset page). */
export function passwordResetUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/reset/${token}`;
}

/** A fresh link for `userId`: its URL (the token is in it, shown or sent once) and when it expires. */
export interface IssuedReset {
  url: string;
  expiresAt: Date;
  email: string;
}

/**
 * Issue a link for an enabled user. `issuedBy`: the administrator (audited as
 * `user.password_reset_issued`), or null when the user asked by email. Older unused links close.
 */
export async function issuePasswordReset(
  db: Db,
  input: { userId: string; issuedBy: string | null },
  options: { baseUrl: string; now?: Date },
): Promise<IssuedReset> {
  const user = await getUserById(db, input.userId);
  if (!user) throw new AppError("user.not_found", "No such user (or the account is disabled: enable it first).");
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS);
  await withTransaction(db, async (tx) => {
    await closeUnusedPasswordResets(tx, user.id, now);
    await insertPasswordReset(tx, { userId: user.id, tokenHash: hashToken(token), issuedBy: input.issuedBy, expiresAt });
  });
  await recordAudit(db, {
    actorId: input.issuedBy ?? user.id,
    action: input.issuedBy ? "user.password_reset_issued" : "user.password_reset_requested",
    target: user.id,
    detail: { expiresAt: expiresAt.toISOString() },
  });
  return { url: passwordResetUrl(options.baseUrl, token), expiresAt, email: user.email };
}

/** The link behind a token if it can still be used; otherwise an error saying why. */
async function usableReset(db: Db, token: string, now: Date): Promise<PasswordResetRecord> {
  const reset = await getPasswordResetByTokenHash(db, hashToken(token));
  if (!reset) throw new AppError("reset.not_found", "This password-reset link is not valid.");
  if (reset.usedAt) throw new AppError("reset.used", "This password-reset link was already used (or a newer one was issued).");
  if (reset.expiresAt <= now) throw new AppError("reset.expired", "This password-reset link has expired; ask for a new one.");
  return reset;
}

/** What the reset page shows before the new password is set: whose account it is. */
export async function describePasswordReset(db: Db, token: string, now = new Date()): Promise<{ email: string }> {
  const reset = await usableReset(db, token, now);
  const user = await getUserById(db, reset.userId);
  if (!user) throw new AppError("reset.not_found", "This password-reset link is not valid.");
  return { email: user.email };
}

/**
 * Set a new password through a link: single use (the unused → used update is conditional, so two
 * racing uses cannot both pass), and every session of the user ends. Returns the account's email.
 */
export async function completePasswordReset(
  db: Db,
  token: string,
  body: unknown,
  now = new Date(),
): Promise<{ email: string; endedSessions: number }> {
  const parsed = passwordResetSchema.safeParse(body);
  if (!parsed.success) throw new AppError("request.invalid", "password: a new password is needed.", "password");
  const { email } = await describePasswordReset(db, token, now);
  const refusal = passwordRefusal(parsed.data.password, [email]);
  if (refusal) throw new AppError(refusal.code, refusal.message, "password");
  // Nobody is signed in here: the hash waits its turn like a sign-in's.
  const passwordHash = await unauthenticatedHashGate(() => hashPassword(parsed.data.password));
  const reset = await usableReset(db, token, now);
  const ended = await withTransaction(db, async (tx) => {
    if (!(await markPasswordResetUsed(tx, reset.id, now))) throw new AppError("reset.used", "This password-reset link was already used.");
    await updatePasswordHash(tx, reset.userId, passwordHash);
    await closeUnusedPasswordResets(tx, reset.userId, now);
    return await endUserSessions(tx, reset.userId);
  });
  await recordAudit(db, { actorId: reset.userId, action: "user.password_reset", target: reset.userId, detail: { link: reset.id } });
  return { email, endedSessions: ended };
}
