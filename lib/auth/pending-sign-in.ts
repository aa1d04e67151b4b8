/**
 * The state between the two steps of a sign-in with a second factor: the password was right, a code
 * is still owed. Not a session: it grants nothing but the right to send a code, for 5 minutes and
 * at most 5 wrong codes; its token travels in an HttpOnly cookie scoped to `/api/auth`. Process
 * memory (like the sign-in throttle): a restart only means entering the password again.
 */
import { createHash, randomBytes } from "node:crypto";
import { singleton } from "../singleton";

/** How long the code may take after the password. */
export const PENDING_SIGN_IN_MS = 5 * 60_000;
/** Wrong codes before the pending sign-in ends (the account throttle counts them too). */
const MAX_FAILURES = 5;
const MAX_PENDING = 10_000;

/** The cookie that carries the pending sign-in's token. */
export const PENDING_SIGN_IN_COOKIE = "switchboard.pending-sign-in";

/** Who is half signed in. */
export interface PendingSignIn {
  userId: string;
  email: string;
  expiresAt: number;
  failures: number;
}

// Keyed by the token's SHA-256: a heap dump does not hand out live tokens.
const pending = () => singleton("auth.pendingSignIns", () => new Map<string, PendingSignIn>());

const keyOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** Start a pending sign-in for a user whose password was right; returns the token for the cookie. */
export function startPendingSignIn(user: { id: string; email: string }, now = Date.now()): string {
  const store = pending();
  for (const [key, entry] of store) if (entry.expiresAt <= now) store.delete(key);
  // Past the cap the oldest goes first (a Map iterates in insertion order).
  if (store.size >= MAX_PENDING) store.delete(store.keys().next().value as string);
  const token = randomBytes(32).toString("base64url");
  store.set(keyOf(token), { userId: user.id, email: user.email, expiresAt: now + PENDING_SIGN_IN_MS, failures: 0 });
  return token;
}

/** The live pending sign-in of `token`, or null (unknown, expired, or too many wrong codes). */
export function readPendingSignIn(token: string | undefined, now = Date.now()): PendingSignIn | null {
  if (!token) return null;
  const entry = pending().get(keyOf(token));
  if (!entry || entry.expiresAt <= now || entry.failures >= MAX_FAILURES) return null;
  return entry;
}

/** Count a wrong code against the pending sign-in (the fifth ends it). */
export function failPendingSignIn(token: string): void {
  const entry = pending().get(keyOf(token));
  if (entry) entry.failures += 1;
}

/** End the pending sign-in (its code was right). */
export function endPendingSignIn(token: string): void {
  pending().delete(keyOf(token));
}
