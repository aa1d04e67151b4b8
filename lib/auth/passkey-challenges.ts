/**
 * WebAuthn challenges (docs/second-factors.md#passkeys): random, issued by the server for one
 * purpose (and one user, when known), answered at most once and within 2 minutes. Process memory,
 * like the pending sign-ins: a restart only means asking the authenticator again.
 */
import { createHash, randomBytes } from "node:crypto";
import { singleton } from "../singleton";

/** How long an authenticator may take to answer. */
export const PASSKEY_CHALLENGE_MS = 2 * 60_000;
const MAX_CHALLENGES = 10_000;

/**
 * What a challenge was issued for: adding a passkey, a passwordless sign-in, the second step of a
 * sign-in, or proving it is you again (re-authentication, removing a factor).
 */
export type ChallengePurpose = "register" | "sign-in" | "second-factor" | "reauth";

interface Issued {
  purpose: ChallengePurpose;
  /** The user it was issued to (registration, re-authentication); null before sign-in. */
  userId: string | null;
  expiresAt: number;
}

// Keyed by the challenge's SHA-256: a heap dump does not hand out live challenges.
const issued = () => singleton("auth.passkeyChallenges", () => new Map<string, Issued>());
const keyOf = (challenge: string) => createHash("sha256").update(challenge).digest("hex");

/** A new challenge (base64url, 256 bits) for `purpose`, bound to `userId` when given. */
export function issueChallenge(purpose: ChallengePurpose, userId: string | null, now = Date.now()): string {
  const store = issued();
  for (const [key, entry] of store) if (entry.expiresAt <= now) store.delete(key);
  // Past the cap the oldest goes first (a Map iterates in insertion order).
  if (store.size >= MAX_CHALLENGES) store.delete(store.keys().next().value as string);
  const challenge = randomBytes(32).toString("base64url");
  store.set(keyOf(challenge), { purpose, userId, expiresAt: now + PASSKEY_CHALLENGE_MS });
  return challenge;
}

/**
 * Use up `challenge`: true once when it was issued for `purpose` (and `userId`, when it was bound to
 * one) and has not expired; false otherwise. A challenge of another purpose is left alone.
 */
export function takeChallenge(challenge: string, purpose: ChallengePurpose, userId: string | null, now = Date.now()): boolean {
  const store = issued();
  const key = keyOf(challenge);
  const entry = store.get(key);
  if (!entry || entry.purpose !== purpose) return false;
  store.delete(key);
  return entry.expiresAt > now && (entry.userId === null || entry.userId === userId);
}

/** The purpose `challenge` was issued for, without using it up (null when unknown or expired). */
export function challengePurpose(challenge: string, now = Date.now()): ChallengePurpose | null {
  const entry = issued().get(keyOf(challenge));
  return entry && entry.expiresAt > now ? entry.purpose : null;
}
