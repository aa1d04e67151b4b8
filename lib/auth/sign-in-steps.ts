/**
 * The two steps of a sign-in for a user with a second factor: a right password starts a pending
 * sign-in (lib/auth/pending-sign-in.ts) instead of a session; a right code for it then signs in.
 * Called from the credentials provider's `authorize` (options.ts) with the request's slot.
 */
import type { Db } from "../../db/client";
import { getUserById, type UserRecord } from "../../db/queries/users";
import { challengeIssuedFor } from "./passkey-challenges";
import { answeredChallenge, claimedPasskeyEmail, relyingParty, verifyPasskeyAnswer } from "./passkeys";
import { endPendingSignIn, failPendingSignIn, readPendingSignIn, startPendingSignIn } from "./pending-sign-in";
import { hasSecondFactor, verifySecondFactor } from "./second-factors";
import type { SignInContext } from "./sign-in-context";
import { clearAccountAttempts } from "./sign-in-throttle";

/** The `error` of next-auth's answer when the password was right and a code is owed (the handler turns it into `auth.second_factor_required`). */
export const SECOND_FACTOR_SIGN_IN = "SecondFactorRequired";
/** The `error` when the pending sign-in is unknown, expired or used up: the password is needed again. */
export const SIGN_IN_EXPIRED = "SignInExpired";

/** When the user has a factor, start a pending sign-in in the request's slot and answer true. */
export async function beginSecondStep(db: Db, user: UserRecord, context: SignInContext | undefined): Promise<boolean> {
  if (!(await hasSecondFactor(db, user.id))) return false;
  // Without the slot (not through our handler) there is no way to hand out the token: no sign-in.
  if (!context) throw new Error(SIGN_IN_EXPIRED);
  context.startedPending = await startPendingSignIn(user);
  return true;
}

/**
 * The second step: the user of the request's pending sign-in when `code` is one of their current
 * TOTP codes or unused recovery codes; null for a wrong code (counted against the pending sign-in).
 */
export async function completeSecondStep(db: Db, code: string, context: SignInContext | undefined) {
  const token = context?.pendingToken;
  const pending = await readPendingSignIn(token);
  if (!token || !pending) throw new Error(SIGN_IN_EXPIRED);
  if (!(await verifySecondFactor(db, pending.userId, code))) {
    await failPendingSignIn(token);
    return null;
  }
  // Used once: a second request with a right code, on this replica or another, finds it gone.
  if (!(await endPendingSignIn(token))) throw new Error(SIGN_IN_EXPIRED);
  const user = await getUserById(db, pending.userId);
  // Disabled between the two steps: the session would be refused anyway; say nothing more here.
  if (!user) return null;
  await clearAccountAttempts(pending.email, context?.address);
  return { id: user.id, email: user.email, name: user.name };
}

/**
 * A passkey's answer at the credentials callback (`passkey`, JSON): the second step of the request's
 * pending sign-in when its challenge was issued for one, else a passwordless sign-in (the passkey,
 * user-verified, is both factors). The user, or null for an answer that does not verify.
 */
export async function passkeySignIn(db: Db, raw: string, context: SignInContext | undefined) {
  const answer = parseJson(raw);
  const challenge = answeredChallenge(answer);
  if (!context?.origin || !challenge) return null;
  const rp = relyingParty(context.origin);
  if (await challengeIssuedFor(challenge, "second-factor")) {
    const token = context.pendingToken;
    const pending = await readPendingSignIn(token);
    if (!token || !pending) throw new Error(SIGN_IN_EXPIRED);
    if (!(await verifyPasskeyAnswer(db, rp, answer, { purpose: "second-factor", userId: pending.userId }))) {
      await failPendingSignIn(token);
      return null;
    }
    if (!(await endPendingSignIn(token))) throw new Error(SIGN_IN_EXPIRED);
    return await signedIn(db, pending.userId, context);
  }
  const passkey = await verifyPasskeyAnswer(db, rp, answer, { purpose: "sign-in", userId: null });
  return passkey ? await signedIn(db, passkey.userId, context) : null;
}

/**
 * The account a passkey answer counts against in the sign-in throttle: the pending sign-in's, else
 * the passkey's owner; "" when neither is known (every unknown passkey shares one count).
 */
export async function passkeyAttemptEmail(db: Db, raw: string, pendingToken: string | undefined): Promise<string> {
  return (await readPendingSignIn(pendingToken))?.email ?? (await claimedPasskeyEmail(db, parseJson(raw))) ?? "";
}

async function signedIn(db: Db, userId: string, context: SignInContext) {
  const user = await getUserById(db, userId);
  if (!user) return null;
  await clearAccountAttempts(user.email, context.address);
  return { id: user.id, email: user.email, name: user.name };
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
