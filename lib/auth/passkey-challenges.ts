/**
 * WebAuthn challenges (docs/second-factors.md#passkeys): random, issued by the server for one
 * purpose (and one user, when known), answered at most once and within 2 minutes. Kept in the
 * coordination (lib/cluster), like the pending sign-ins: this process's memory in single-node mode,
 * Redis in cluster mode, so an answer may reach another replica than the options did; losing them
 * only means asking the authenticator again.
 *
 * An entry holds no secret and is stored as it is: keyed by its purpose and the challenge's SHA-256
 * (neither Redis nor a heap dump holds a live challenge), its value only the user it is bound to and
 * when it lapses. A challenge is worth nothing without a signature over it from a passkey stored
 * here, which only its authenticator can make; an entry written into Redis by someone else gets
 * no further than that signature check. Each function takes the coordination as `shared` (this
 * process's by default; tests pass two).
 */
import { createHash, randomBytes } from "node:crypto";
import { type Coordination, coordination } from "../cluster";
import { AppError } from "../errors";

/** How long an authenticator may take to answer. */
export const PASSKEY_CHALLENGE_MS = 2 * 60_000;
/**
 * Challenges issued per 2 minutes, instance-wide: anyone may ask for one (a passwordless sign-in),
 * so this bounds how many are held at once, in memory or in Redis.
 */
const MAX_CHALLENGES = 10_000;

/**
 * What a challenge was issued for: adding a passkey, a passwordless sign-in, the second step of a
 * sign-in, or proving it is you again (re-authentication, removing a factor).
 */
export type ChallengePurpose = "register" | "sign-in" | "second-factor" | "reauth";

interface Issued {
  /** The user it was issued to (registration, re-authentication); null before sign-in. */
  userId: string | null;
  expiresAt: number;
}

// The purpose is part of the key: taking a challenge for one purpose leaves one of another alone.
const keyOf = (purpose: ChallengePurpose, challenge: string) =>
  `passkey-challenge:${purpose}:${createHash("sha256").update(challenge).digest("hex")}`;

function parsed(value: string | null): Issued | null {
  if (!value) return null;
  try {
    return JSON.parse(value) as Issued;
  } catch {
    return null;
  }
}

/** A new challenge (base64url, 256 bits) for `purpose`, bound to `userId` when given. */
export async function issueChallenge(
  purpose: ChallengePurpose,
  userId: string | null,
  now = Date.now(),
  shared: Coordination = coordination(),
): Promise<string> {
  const { wait } = await shared.hitWindow("passkey-challenges", MAX_CHALLENGES, PASSKEY_CHALLENGE_MS);
  if (wait > 0) {
    throw new AppError(
      "auth.rate_limited",
      "Too many passkey requests right now; try again in a moment.",
      undefined,
      Math.ceil(wait / 1000),
    );
  }
  const challenge = randomBytes(32).toString("base64url");
  const issued: Issued = { userId, expiresAt: now + PASSKEY_CHALLENGE_MS };
  await shared.put(keyOf(purpose, challenge), JSON.stringify(issued), PASSKEY_CHALLENGE_MS);
  return challenge;
}

/**
 * Use up `challenge`: true once when it was issued for `purpose` (and `userId`, when it was bound to
 * one) and has not expired; false otherwise. Taken in one step of the coordination, so of two
 * answers on any replicas at most one gets it. A challenge of another purpose is left alone.
 */
export async function takeChallenge(
  challenge: string,
  purpose: ChallengePurpose,
  userId: string | null,
  now = Date.now(),
  shared: Coordination = coordination(),
): Promise<boolean> {
  const entry = parsed(await shared.take(keyOf(purpose, challenge)));
  return !!entry && entry.expiresAt > now && (entry.userId === null || entry.userId === userId);
}

/** Whether `challenge` was issued for `purpose` and is still live, without using it up. */
export async function challengeIssuedFor(
  challenge: string,
  purpose: ChallengePurpose,
  now = Date.now(),
  shared: Coordination = coordination(),
): Promise<boolean> {
  const entry = parsed(await shared.get(keyOf(purpose, challenge)));
  return !!entry && entry.expiresAt > now;
}
