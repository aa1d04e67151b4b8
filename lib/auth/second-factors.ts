/**
 * A user's second factors (docs/second-factors.md): enrolling a TOTP authenticator (confirmed with a
 * code before it counts, ten recovery codes issued then), checking a code at sign-in or
 * re-authentication, and removing a factor, which needs a current code. Audited.
 */
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import {
  confirmTotp,
  countRecoveryCodesLeft,
  createPendingTotp,
  deleteFactor,
  deleteRecoveryCodes,
  type FactorSummary,
  getTotpFactor,
  hasConfirmedFactor,
  listConfirmedTotp,
  listFactorSummaries,
  replaceRecoveryCodes,
  spendRecoveryCode,
  spendTotpStep,
} from "../../db/queries/factors";
import { AppError } from "../errors";
import { type RelyingParty, verifyPasskeyAnswer } from "./passkeys";
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes } from "./recovery-codes";
import { checkTotpCode, newTotpSecret, totpUri } from "./totp";

/** Who enrols or removes: the signed-in user. */
export interface FactorOwner {
  id: string;
  email: string;
}

/** What the account page shows: the confirmed factors and how many recovery codes are left. */
export interface FactorsView {
  factors: FactorSummary[];
  recoveryCodesLeft: number;
}

/** The user's factors (never a secret). */
export async function factorsView(db: Db, userId: string): Promise<FactorsView> {
  return { factors: await listFactorSummaries(db, userId), recoveryCodesLeft: await countRecoveryCodesLeft(db, userId) };
}

/**
 * Start enrolling an authenticator app: a new secret, stored sealed and pending. The secret and its
 * URI are answered this once, to be scanned or typed; it counts only after `confirmTotp`.
 */
export async function startTotpEnrolment(
  db: Db,
  owner: FactorOwner,
  name = "Authenticator app",
): Promise<{ factorId: string; secret: string; uri: string }> {
  const secret = newTotpSecret();
  const factorId = await createPendingTotp(db, owner.id, name.trim().slice(0, 80) || "Authenticator app", secret);
  return { factorId, secret, uri: totpUri(owner.email, secret) };
}

/**
 * Confirm a pending authenticator with a code it shows: the factor counts from now on, and ten new
 * recovery codes replace any old ones; they are answered this once, never again.
 */
export async function confirmTotpEnrolment(db: Db, owner: FactorOwner, factorId: string, code: string, now = new Date()) {
  const factor = await getTotpFactor(db, owner.id, factorId);
  if (!factor || factor.confirmedAt) throw new AppError("auth.factor_not_found", "No authenticator is being added; start again.");
  const step = await checkTotpCode(factor.secret, code, null, now);
  if (step === null) throw new AppError("auth.invalid_code", "That code is not right; enter the current one from the app.", "code");
  await confirmTotp(db, factor.id, step, now);
  const recoveryCodes = newRecoveryCodes();
  await replaceRecoveryCodes(db, owner.id, recoveryCodes.map(hashRecoveryCode));
  await recordAudit(db, { actorId: owner.id, action: "user.factor_enrolled", target: owner.id, detail: { kind: "totp", factorId } });
  return { recoveryCodes };
}

/** Which proof a code was: a TOTP code of one of the user's authenticators, or one of their recovery codes. */
export type SecondFactorProof = "totp" | "recovery_code";

/**
 * Check a second-factor code for the user: a current TOTP code not used before, or an unused
 * recovery code (used up by this check). Null when neither; the caller throttles attempts.
 */
export async function verifySecondFactor(db: Db, userId: string, code: string, now = new Date()): Promise<SecondFactorProof | null> {
  if (looksLikeRecoveryCode(code) && !/^\d+$/.test(code.trim())) {
    if (!(await spendRecoveryCode(db, userId, hashRecoveryCode(code), now))) return null;
    await recordAudit(db, {
      actorId: userId,
      action: "user.recovery_code_used",
      target: userId,
      detail: { left: await countRecoveryCodesLeft(db, userId) },
    });
    return "recovery_code";
  }
  for (const factor of await listConfirmedTotp(db, userId)) {
    const step = await checkTotpCode(factor.secret, code, factor.lastStep, now);
    // Recorded only when later than the last step used: a code replayed in parallel counts once.
    if (step !== null && (await spendTotpStep(db, factor.id, step, now))) return "totp";
  }
  return null;
}

/** Whether the user has a confirmed second factor. */
export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  return await hasConfirmedFactor(db, userId);
}

/**
 * Remove one of the user's factors after checking a current code (TOTP or recovery) or a passkey's
 * answer: a borrowed session alone cannot take the factor off. The last factor takes the recovery codes with it.
 */
export async function removeFactor(db: Db, owner: FactorOwner, factorId: string, proof: FactorProof, now = new Date()): Promise<void> {
  const factor = (await listFactorSummaries(db, owner.id)).find((f) => f.id === factorId);
  if (!factor) throw new AppError("auth.factor_not_found", "No such second factor on your account.");
  if (!(await proveFactor(db, owner.id, proof, now)))
    throw typeof proof === "string"
      ? new AppError("auth.invalid_code", "That code is not right; enter a current code or a recovery code.", "code")
      : new AppError("auth.passkey_refused", "The passkey was not accepted; try again or enter a code.");
  await deleteFactor(db, owner.id, factorId);
  if (!(await hasConfirmedFactor(db, owner.id))) await deleteRecoveryCodes(db, owner.id);
  await recordAudit(db, { actorId: owner.id, action: "user.factor_removed", target: owner.id, detail: { kind: factor.kind, factorId } });
}

/** Proof of a factor: a code (TOTP or recovery), or a passkey's answer to a `reauth` challenge on the app's origin. */
export type FactorProof = string | { passkey: unknown; rp: RelyingParty };

/** Whether `proof` is a current proof of one of the user's factors (a code is used up, a passkey's challenge too). */
export async function proveFactor(db: Db, userId: string, proof: FactorProof, now = new Date()): Promise<boolean> {
  if (typeof proof === "string") return (await verifySecondFactor(db, userId, proof, now)) !== null;
  return (await verifyPasskeyAnswer(db, proof.rp, proof.passkey, { purpose: "reauth", userId }, now)) !== null;
}
