/**
 * Sign-up: validation, throttling, the closed-registration switch, the first-run setup code and
 * the first-user-is-admin rule. A taken email is not revealed: the caller answers exactly as for a
 * new account, after the same hashing work.
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { createUserWithWorkspace, hasAnyUser, type UserRecord } from "../../db/queries/users";
import { registrationOpen } from "../env";
import { AppError } from "../errors";
import { unauthenticatedHashGate } from "../security/hash-gate";
import { singleton } from "../singleton";
import { hashPassword, passwordRefusal } from "../security/password";
import { consumeSetupCode } from "./setup-code";
import { assertPasswordAllowed } from "./sso/sso-only";
import { takeAttempt } from "./sign-in-throttle";

/** The body of `POST /api/auth/register`. `setupCode` is needed only for an instance's first account. */
export const registerSchema = z
  .object({
    email: z.string().trim().email().max(254),
    password: z.string(),
    name: z.string().trim().min(1).max(100),
    setupCode: z.string().max(100).optional(),
  })
  .strict();

function closedError(): AppError {
  return new AppError("auth.registration_closed", "Registration is closed on this instance; ask an administrator.");
}

/** Options of `registerUser`. */
export interface RegisterOptions {
  /** An instance administrator adds the user: allowed even when registration is closed, not throttled. Default false. */
  byAdmin?: boolean;
  /** The client address for throttling (`clientAddress`); self sign-up through HTTP passes it. Default: not throttled. */
  address?: string;
}

// The first registration under way in this process (it took the setup code), for a racing one to
// wait for; process-wide because the server bundles may hold several copies of this module.
const firstRegistration = () => singleton("auth.firstRegistration", () => ({ settled: Promise.resolve() as Promise<unknown> }));

function noteFirstRegistration(work: Promise<unknown>): void {
  firstRegistration().settled = work.then(
    () => undefined,
    () => undefined,
  );
}

function firstRegistrationDone(): Promise<unknown> {
  return firstRegistration().settled;
}

/**
 * Register a user; throws AppError with the field at fault. Returns null when the email is taken
 * and the caller is not an administrator (who may know which accounts exist).
 */
export async function registerUser(db: Db, body: unknown, options: RegisterOptions = {}): Promise<UserRecord | null> {
  const parsed = registerSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join(".") || undefined;
    throw new AppError("request.invalid", field ? `${field}: ${issue.message}` : issue.message, field);
  }
  const { setupCode, ...input } = parsed.data;
  if (!options.byAdmin && options.address) await takeAttempt("register", { email: input.email, address: options.address });
  // The very first account may always be created (with the setup code): otherwise a closed instance could never get an admin.
  if (!registrationOpen() && !options.byAdmin && (await hasAnyUser(db))) throw closedError();
  // SSO-only mode: nobody new signs up with a password (their provider creates their account).
  if (!options.byAdmin && (await hasAnyUser(db))) await assertPasswordAllowed(db, input.email);
  const refusal = passwordRefusal(input.password, [input.email, input.name]);
  if (refusal) throw new AppError(refusal.code, refusal.message, "password");
  const hash = options.byAdmin ? hashPassword(input.password) : unauthenticatedHashGate(() => hashPassword(input.password));
  const passwordHash = await hash;
  // Two racing first registrations cannot both pass with one code, in one process or several: using
  // it deletes its nonce in one statement, so only one removes it; and the insert decides who is the
  // administrator in its own transaction (the first account in the table), whatever interleaved before it.
  let fresh = !(await hasAnyUser(db));
  let tookCode = false;
  if (fresh) {
    tookCode = await consumeSetupCode(db, setupCode);
    // The code may be gone because a first registration of this process took it and is still
    // writing its account (on Postgres its insert commits a few round trips later): once it is done
    // the instance has an account, and this one is an ordinary registration.
    if (!tookCode) {
      await firstRegistrationDone();
      fresh = !(await hasAnyUser(db));
    }
    if (fresh && !tookCode) {
      throw new AppError(
        "auth.setup_code",
        "This instance has no account yet: enter the setup code printed in the server log.",
        "setupCode",
      );
    }
  }
  // Checked again: another first registration may have finished while this one was hashing.
  if (!fresh && !registrationOpen() && !options.byAdmin) throw closedError();
  const creating = createUserWithWorkspace(db, { ...input, passwordHash });
  if (tookCode) noteFirstRegistration(creating);
  const user = await creating;
  if (!user) {
    if (options.byAdmin) throw new AppError("auth.email_taken", "An account with this email already exists.", "email");
    return null;
  }
  await recordAudit(db, { actorId: user.id, action: "user.register", target: user.id, detail: { admin: user.isAdmin } });
  return user;
}
