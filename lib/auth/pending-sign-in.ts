/**
 * The state between the two steps of a sign-in with a second factor: the password was right, a code
 * is still owed. Not a session: it grants nothing but the right to send a code, for 5 minutes and
 * at most 5 wrong codes; its token travels in an HttpOnly cookie scoped to `/api/auth`.
 *
 * Kept in the coordination (lib/cluster): this process's memory in single-node mode, Redis in
 * cluster mode, so the code may reach another replica than the password did. Losing it (a restart in
 * single-node mode, Redis in cluster mode) only means entering the password again.
 *
 * Redis is shared infrastructure, so each entry is keyed by the token's SHA-256 (neither Redis nor
 * a heap dump holds a live token) and sealed under the instance key (db/secrets.ts), naming its own
 * key inside: whoever reads Redis learns neither who is half signed in nor their email, and whoever
 * can write to it cannot make or move a pending sign-in for a user whose password they never gave.
 * Each function takes the coordination as `shared` (this process's by default; tests pass two).
 */
import { createHash, randomBytes } from "node:crypto";
import { openJson, sealJson } from "../../db/secrets";
import { type Coordination, coordination } from "../cluster";

/** How long the code may take after the password. */
export const PENDING_SIGN_IN_MS = 5 * 60_000;
/** Wrong codes before the pending sign-in ends (the account throttle counts them too). */
const MAX_FAILURES = 5;

/** The cookie that carries the pending sign-in's token. */
export const PENDING_SIGN_IN_COOKIE = "switchboard.pending-sign-in";

/** Who is half signed in. */
export interface PendingSignIn {
  userId: string;
  email: string;
  expiresAt: number;
  failures: number;
}

/** What is sealed: the pending sign-in and the key it was stored under (a moved entry does not open). */
interface Sealed {
  key: string;
  userId: string;
  email: string;
  expiresAt: number;
}

// One name for the entry and its count of wrong codes (a value and a tally are apart in the coordination).
const keyOf = (token: string) => `pending-sign-in:${createHash("sha256").update(token).digest("hex")}`;

/** The sealed entry stored under `key`, or null when absent, not ours or not for this key. */
function opened(envelope: string | null, key: string): Sealed | null {
  if (!envelope) return null;
  try {
    const entry = openJson<Sealed>(envelope);
    return entry.key === key ? entry : null;
  } catch {
    // Altered or sealed under another key: nothing this instance started.
    return null;
  }
}

/**
 * Start a pending sign-in for a user whose password was right; returns the token for the cookie.
 * Only a right password (counted by the sign-in throttle per account and address) starts one, so
 * their number is bounded without a cap of their own; each lapses after 5 minutes.
 */
export async function startPendingSignIn(
  user: { id: string; email: string },
  now = Date.now(),
  shared: Coordination = coordination(),
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const key = keyOf(token);
  const entry: Sealed = { key, userId: user.id, email: user.email, expiresAt: now + PENDING_SIGN_IN_MS };
  await shared.put(key, sealJson(entry), PENDING_SIGN_IN_MS);
  return token;
}

/** The live pending sign-in of `token`, or null (unknown, expired, or too many wrong codes). Reads only. */
export async function readPendingSignIn(
  token: string | undefined,
  now = Date.now(),
  shared: Coordination = coordination(),
): Promise<PendingSignIn | null> {
  if (!token) return null;
  const key = keyOf(token);
  const [envelope, tally] = await Promise.all([shared.get(key), shared.readTally(key)]);
  const entry = opened(envelope, key);
  const failures = tally?.count ?? 0;
  if (!entry || entry.expiresAt <= now || failures >= MAX_FAILURES) return null;
  return { userId: entry.userId, email: entry.email, expiresAt: entry.expiresAt, failures };
}

/**
 * Count a wrong code against the pending sign-in (the fifth ends it). A tally, so wrong codes sent to
 * several replicas at once are all counted.
 */
export async function failPendingSignIn(token: string, shared: Coordination = coordination()): Promise<void> {
  const key = keyOf(token);
  const { count } = await shared.tally(key, Date.now(), PENDING_SIGN_IN_MS);
  if (count >= MAX_FAILURES) await shared.drop(key);
}

/**
 * End the pending sign-in (its code was right): true for the one caller that ended it, false when it
 * was gone already (another request, on any replica, used it first), so it signs in at most once.
 */
export async function endPendingSignIn(token: string, shared: Coordination = coordination()): Promise<boolean> {
  const key = keyOf(token);
  const envelope = await shared.take(key);
  // The entry is gone; its count of wrong codes goes with it.
  await shared.drop(key);
  return opened(envelope, key) !== null;
}
