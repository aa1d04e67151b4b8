/**
 * Passkeys (WebAuthn, @simplewebauthn/server; docs/second-factors.md#passkeys): adding one to the
 * account, and checking an authenticator's answer for a passwordless sign-in, a sign-in's second
 * step or a re-authentication. Every answer must sign a challenge this server issued for that
 * purpose (single use, 2 minutes), on the app's public origin, with a counter that went up.
 */
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { decodeClientDataJSON, isoBase64URL, isoUint8Array } from "@simplewebauthn/server/helpers";
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { hasConfirmedFactor, replaceRecoveryCodes } from "../../db/queries/factors";
import {
  createPasskey,
  getPasskeyByCredentialId,
  listPasskeyDescriptors,
  type StoredPasskey,
  spendPasskeyCounter,
} from "../../db/queries/passkeys";
import { AppError } from "../errors";
import { type ChallengePurpose, issueChallenge, PASSKEY_CHALLENGE_MS, takeChallenge } from "./passkey-challenges";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes";

const RP_NAME = "Switchboard";
const b64url = z
  .string()
  .max(8192)
  .regex(/^[A-Za-z0-9_-]*={0,2}$/);

/** An authenticator's answer to `navigator.credentials.get` as @simplewebauthn/browser sends it. */
export const assertionSchema = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal("public-key"),
  response: z.object({ clientDataJSON: b64url, authenticatorData: b64url, signature: b64url, userHandle: b64url.optional() }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

/** An authenticator's answer to `navigator.credentials.create` as @simplewebauthn/browser sends it. */
export const attestationSchema = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: b64url,
    attestationObject: b64url,
    transports: z.array(z.string().max(32)).max(8).optional(),
    authenticatorData: b64url.optional(),
    publicKey: b64url.optional(),
    publicKeyAlgorithm: z.number().optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

/** The relying party: the app's public origin (SWITCHBOARD_PUBLIC_URL, lib/security/public-url.ts) and its host name as RP ID. */
export interface RelyingParty {
  origin: string;
  rpID: string;
}

/** The relying party of a public origin. */
export function relyingParty(origin: string): RelyingParty {
  return { origin, rpID: new URL(origin).hostname };
}

/** Who adds a passkey: the signed-in user. */
export interface PasskeyOwner {
  id: string;
  email: string;
}

/**
 * Options for `navigator.credentials.create`: a discoverable credential (so it can sign in without
 * an email), user verification preferred, the user's existing passkeys excluded.
 */
export async function startPasskeyRegistration(
  db: Db,
  owner: PasskeyOwner,
  rp: RelyingParty,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpID,
    userName: owner.email,
    // The user handle the authenticator keeps: our user id, so a passwordless answer names its user.
    userID: isoUint8Array.fromUTF8String(owner.id),
    // As bytes: a string challenge would be taken as text and encoded again.
    challenge: isoBase64URL.toBuffer(await issueChallenge("register", owner.id)),
    timeout: PASSKEY_CHALLENGE_MS,
    attestationType: "none",
    excludeCredentials: (await listPasskeyDescriptors(db, owner.id)).map(descriptor),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
}

/**
 * Verify and store a new passkey. Ten recovery codes are answered when it is the user's first
 * factor (a lost device must not lock them out); otherwise their codes stay as they are.
 */
export async function finishPasskeyRegistration(
  db: Db,
  owner: PasskeyOwner,
  rp: RelyingParty,
  name: string,
  response: RegistrationResponseJSON,
  now = new Date(),
): Promise<{ factorId: string; recoveryCodes: string[] | null }> {
  const refused = new AppError("auth.passkey_refused", "The passkey could not be added; try again.");
  const challenge = challengeOf(response.response.clientDataJSON);
  if (!challenge || !(await takeChallenge(challenge, "register", owner.id, now.getTime()))) throw refused;
  const verified = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verified?.verified) throw refused;
  const { credential } = verified.registrationInfo;
  if (await getPasskeyByCredentialId(db, credential.id)) throw new AppError("auth.passkey_refused", "That passkey is added already.");
  const firstFactor = !(await hasConfirmedFactor(db, owner.id));
  const factorId = await createPasskey(
    db,
    owner.id,
    {
      name: name.trim().slice(0, 80) || "Passkey",
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
    },
    now,
  );
  let recoveryCodes: string[] | null = null;
  if (firstFactor) {
    recoveryCodes = newRecoveryCodes();
    await replaceRecoveryCodes(db, owner.id, recoveryCodes.map(hashRecoveryCode));
  }
  await recordAudit(db, { actorId: owner.id, action: "user.factor_enrolled", target: owner.id, detail: { kind: "passkey", factorId } });
  return { factorId, recoveryCodes };
}

/**
 * Options for `navigator.credentials.get`. A passwordless sign-in requires user verification (the
 * passkey is both factors) and lets the authenticator offer any of its passkeys for this site; a
 * re-authentication lists the user's own.
 */
export async function passkeyRequestOptions(
  db: Db,
  rp: RelyingParty,
  purpose: Exclude<ChallengePurpose, "register">,
  userId: string | null = null,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rp.rpID,
    challenge: isoBase64URL.toBuffer(await issueChallenge(purpose, purpose === "reauth" ? userId : null)),
    timeout: PASSKEY_CHALLENGE_MS,
    userVerification: purpose === "sign-in" ? "required" : "preferred",
    allowCredentials: userId ? (await listPasskeyDescriptors(db, userId)).map(descriptor) : [],
  });
}

/** What the answer must be: its purpose, and for a second step or re-authentication, whose passkey. */
export interface PasskeyExpectation {
  purpose: Exclude<ChallengePurpose, "register">;
  userId: string | null;
}

/**
 * Check an authenticator's answer: a challenge issued for `expect.purpose` (used up here, whatever
 * the outcome), a passkey stored for the expected user, a valid signature for the origin and RP ID,
 * user verification for a passwordless sign-in, and a counter that went up. The passkey, or null.
 */
export async function verifyPasskeyAnswer(
  db: Db,
  rp: RelyingParty,
  answer: unknown,
  expect: PasskeyExpectation,
  now = new Date(),
): Promise<StoredPasskey | null> {
  const parsed = assertionSchema.safeParse(answer);
  if (!parsed.success) return null;
  const response = parsed.data as AuthenticationResponseJSON;
  const challenge = challengeOf(response.response.clientDataJSON);
  if (!challenge || !(await takeChallenge(challenge, expect.purpose, expect.userId, now.getTime()))) return null;
  const passkey = await getPasskeyByCredentialId(db, response.id);
  if (!passkey || (expect.userId !== null && passkey.userId !== expect.userId)) return null;
  // The user handle, when the authenticator sends one, must name the passkey's own user.
  if (response.response.userHandle && userHandleOf(response.response.userHandle) !== passkey.userId) return null;
  const verified = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: {
      id: passkey.credentialId,
      publicKey: isoBase64URL.toBuffer(passkey.publicKey),
      counter: passkey.counter,
      transports: passkey.transports as never,
    },
    requireUserVerification: expect.purpose === "sign-in",
  }).catch(() => null);
  if (!verified?.verified) return null;
  return (await spendPasskeyCounter(db, passkey.factorId, verified.authenticationInfo.newCounter, now)) ? passkey : null;
}

/** The account a passkey answer claims to be from (for the sign-in throttle's account key), or null. */
export async function claimedPasskeyEmail(db: Db, answer: unknown): Promise<string | null> {
  const parsed = assertionSchema.safeParse(answer);
  return parsed.success ? ((await getPasskeyByCredentialId(db, parsed.data.id))?.email ?? null) : null;
}

/** The purpose-independent challenge an answer signed (its client data), or null when unreadable. */
export function answeredChallenge(answer: unknown): string | null {
  const parsed = assertionSchema.safeParse(answer);
  return parsed.success ? challengeOf(parsed.data.response.clientDataJSON) : null;
}

function challengeOf(clientDataJSON: string): string | null {
  try {
    const challenge = decodeClientDataJSON(clientDataJSON).challenge;
    return typeof challenge === "string" ? challenge : null;
  } catch {
    return null;
  }
}

function userHandleOf(handle: string): string | null {
  try {
    return isoUint8Array.toUTF8String(isoBase64URL.toBuffer(handle));
  } catch {
    return null;
  }
}

function descriptor(passkey: { id: string; transports: string[] }) {
  return { id: passkey.id, transports: passkey.transports as never };
}
