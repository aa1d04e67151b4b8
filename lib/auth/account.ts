/**
 * What a signed-in user does to their own account: change the password (which ends their other
 * sessions) and sign out of all devices.
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { getPasswordHashById, updatePasswordHash } from "../../db/queries/users";
import { AppError } from "../errors";
import { hashPassword, passwordRefusal, verifyPassword } from "../security/password";
import { endUserSessions } from "./sessions";
import { takeAttempt } from "./sign-in-throttle";

/** The body of `POST /api/account/password`. */
export const changePasswordSchema = z.object({ currentPassword: z.string().min(1).max(512), newPassword: z.string() }).strict();

/** Who is changing their password, from which session and address. */
export interface AccountActor {
  id: string;
  email: string;
  sessionId: string;
  address: string;
}

/**
 * Change the caller's password after checking the current one (throttled like a sign-in, so a
 * borrowed session cannot guess it); every other session of the user ends, this one stays.
 */
export async function changePassword(db: Db, actor: AccountActor, body: unknown): Promise<{ endedSessions: number }> {
  const parsed = changePasswordSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join(".") || undefined;
    throw new AppError("request.invalid", field ? `${field}: ${issue.message}` : issue.message, field);
  }
  const { currentPassword, newPassword } = parsed.data;
  await takeAttempt("signIn", { email: actor.email, address: actor.address });
  const stored = await getPasswordHashById(db, actor.id);
  if (!stored || !(await verifyPassword(currentPassword, stored)))
    throw new AppError("auth.forbidden", "The current password is not right.", "currentPassword");
  const refusal = passwordRefusal(newPassword, [actor.email]);
  if (refusal) throw new AppError(refusal.code, refusal.message, "newPassword");
  await updatePasswordHash(db, actor.id, await hashPassword(newPassword));
  await recordAudit(db, { actorId: actor.id, action: "user.password_changed", target: actor.id });
  return { endedSessions: await endUserSessions(db, actor.id, { keepSessionId: actor.sessionId }) };
}

/** Sign out of all devices: every session of the user ends, this one included. */
export async function signOutEverywhere(db: Db, userId: string): Promise<{ endedSessions: number }> {
  return { endedSessions: await endUserSessions(db, userId) };
}
