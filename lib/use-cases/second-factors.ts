/**
 * Second factors and re-authentication for the signed-in user, and the instance's second-factor
 * policies for administrators. Each binds the database handle for lib/auth.
 */
import "server-only";
import { z } from "zod";
import { getDb } from "../../db/client";
import { type MfaPolicy, mfaPolicy, type mfaPolicySchema, mustEnrol, setMfaPolicy } from "../auth/mfa-policy";
import { assertionSchema, relyingParty } from "../auth/passkeys";
import { reauthenticate, type reauthSchema, requireRecentAuth } from "../auth/reauth";
import { confirmTotpEnrolment, factorsView, removeFactor, startTotpEnrolment } from "../auth/second-factors";
import type { SessionUser } from "../auth/session";
import { clearAccountAttempts, clientAddress, takeAttempt } from "../auth/sign-in-throttle";
import { AppError } from "../errors";
import { requestPublicOrigin } from "../security/public-url";

export { mfaPolicySchema } from "../auth/mfa-policy";
export { reauthSchema } from "../auth/reauth";

/** The body of `POST /api/account/factors/totp`. */
export const startTotpSchema = z.object({ name: z.string().max(80).optional() }).strict();
/** The body of `POST /api/account/factors/totp/confirm`. */
export const confirmTotpSchema = z.object({ factorId: z.string().min(1).max(64), code: z.string().min(1).max(16) }).strict();
/** The body of `DELETE /api/account/factors/:id`: a current code of a factor, a recovery code, or a passkey's answer. */
export const removeFactorSchema = z.union([
  z.object({ code: z.string().min(1).max(64) }).strict(),
  z.object({ passkey: assertionSchema }).strict(),
]);

/** Whether a policy covers the user and they still have no factor (the enrolment page asks for one). */
export async function enrolmentDue(user: SessionUser): Promise<boolean> {
  return await mustEnrol(getDb(), user);
}

/** The caller's second factors and recovery codes left (never a secret). */
export async function myFactors(user: SessionUser) {
  return await factorsView(getDb(), user.id);
}

/** Start adding an authenticator app: its secret and URI, answered this once. */
export async function startTotp(user: SessionUser, input: z.infer<typeof startTotpSchema>) {
  return await startTotpEnrolment(getDb(), user, input.name);
}

/** Confirm the authenticator with a code it shows: it counts from now, and ten recovery codes are answered once. */
export function confirmTotp(user: SessionUser, input: z.infer<typeof confirmTotpSchema>) {
  return confirmTotpEnrolment(getDb(), user, input.factorId, input.code);
}

/** Remove one of the caller's factors with a current code or a passkey; wrong ones are throttled like passwords. */
export async function removeMyFactor(user: SessionUser, request: Request, factorId: string, input: z.infer<typeof removeFactorSchema>) {
  // Only a code is guessed here: an id that is not theirs answers 404 without counting an attempt.
  if (!(await factorsView(getDb(), user.id)).factors.some((factor) => factor.id === factorId))
    throw new AppError("auth.factor_not_found", "No such second factor on your account.");
  const keys = { email: user.email, address: clientAddress(request.headers) };
  await takeAttempt("signIn", keys);
  const proof = "code" in input ? input.code : { passkey: input.passkey, rp: relyingParty(requestPublicOrigin(request)) };
  await removeFactor(getDb(), user, factorId, proof);
  await clearAccountAttempts(keys.email, keys.address);
}

/** Prove who the caller is again (password or code); sensitive acts are then allowed for 10 minutes. */
export function reauth(user: SessionUser, request: Request, input: z.infer<typeof reauthSchema>) {
  const caller = {
    id: user.id,
    email: user.email,
    sessionId: user.sessionId,
    address: clientAddress(request.headers),
    origin: requestPublicOrigin(request),
  };
  return reauthenticate(getDb(), caller, input);
}

/** The instance's second-factor policies. */
export async function instanceMfaPolicy(): Promise<MfaPolicy> {
  return await mfaPolicy(getDb());
}

/** Set the instance's second-factor policies: a sensitive act, so it needs a recent sign-in. */
export async function setInstanceMfaPolicy(admin: SessionUser, input: z.infer<typeof mfaPolicySchema>): Promise<MfaPolicy> {
  const db = getDb();
  await requireRecentAuth(db, admin);
  return await setMfaPolicy(db, admin.id, input);
}
