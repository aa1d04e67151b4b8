/** Sign-up: validation, the closed-registration switch, and the first-user-is-admin rule. */
import { z } from "zod";
import type { Db } from "../../db/client";
import { createUserWithWorkspace, hasAnyUser, type UserRecord } from "../../db/queries/users";
import { recordAudit } from "../../db/queries/audit";
import { AppError } from "../errors";
import { registrationOpen } from "../env";
import { hashPassword, passwordWeakness } from "./password";

/** The body of `POST /api/auth/register`. */
export const registerSchema = z
  .object({
    email: z.string().trim().email().max(254),
    password: z.string(),
    name: z.string().trim().min(1).max(100),
  })
  .strict();

/** Options of `registerUser`. */
export interface RegisterOptions {
  /** An instance administrator adds the user: allowed even when registration is closed. Default false. */
  byAdmin?: boolean;
}

/** Register a user; throws AppError with the field at fault. */
export async function registerUser(db: Db, body: unknown, options: RegisterOptions = {}): Promise<UserRecord> {
  const parsed = registerSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join(".") || undefined;
    throw new AppError("request.invalid", field ? `${field}: ${issue.message}` : issue.message, field);
  }
  // The very first account may always be created: otherwise a closed instance could never get an admin.
  if (!registrationOpen() && !options.byAdmin && hasAnyUser(db))
    throw new AppError("auth.registration_closed", "Registration is closed on this instance; ask an administrator.");
  const weakness = passwordWeakness(parsed.data.password);
  if (weakness) throw new AppError("auth.weak_password", weakness, "password");
  const user = createUserWithWorkspace(db, { ...parsed.data, passwordHash: await hashPassword(parsed.data.password) });
  if (!user) throw new AppError("auth.email_taken", "An account with this email already exists.", "email");
  recordAudit(db, { actorId: user.id, action: "user.register", target: user.id, detail: { admin: user.isAdmin } });
  return user;
}
