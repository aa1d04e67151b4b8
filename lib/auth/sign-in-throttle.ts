/**
 * Throttling of sign-in and sign-up, per account and per client address, with exponential backoff.
 * Every attempt counts before its outcome is known (a parallel burst cannot slip through); a
 * successful sign-in clears its account's count and gives its address the attempt back.
 */
import { normaliseEmail } from "../../db/queries/users";
import { registrationsPerAddressSetting } from "../env";
import { AppError } from "../errors";
import { Backoff } from "../security/backoff";
import { stampedClientAddress } from "../security/client-address";

const MINUTE_MS = 60_000;

/**
 * Sign-ups one client address may make per hour before backoff (`SWITCHBOARD_REGISTRATIONS_PER_ADDRESS`,
 * default 30): an office behind one address onboarding a whole team at once may need more.
 */
function registrationsPerAddress(): number {
  const value = Number(registrationsPerAddressSetting());
  return Number.isInteger(value) && value > 0 ? value : 30;
}

/** The limiters, one per kind and key type (exported for tests, which swap the clock). */
export const limiters = {
  // An account gets a few guesses; many people may share an address (NAT), so it gets more.
  signInAccount: new Backoff({ free: 5, baseMs: 2_000, maxMs: 15 * MINUTE_MS, windowMs: 15 * MINUTE_MS }),
  signInAddress: new Backoff({ free: 20, baseMs: 2_000, maxMs: 15 * MINUTE_MS, windowMs: 15 * MINUTE_MS }),
  registerAccount: new Backoff({ free: 5, baseMs: 2_000, maxMs: 15 * MINUTE_MS, windowMs: 60 * MINUTE_MS }),
  registerAddress: new Backoff({ free: registrationsPerAddress(), baseMs: 2_000, maxMs: 60 * MINUTE_MS, windowMs: 60 * MINUTE_MS }),
};

/** What identifies an attempt. */
export interface AttemptKeys {
  email: string;
  /** The client address (`clientAddress`), or "unknown". */
  address: string;
}

/**
 * The client address of a request: the socket's peer, or behind a trusted proxy the right-most
 * untrusted `X-Forwarded-For` hop (`SWITCHBOARD_TRUSTED_PROXIES`), as the app's HTTP server stamped
 * it (lib/security/client-address.ts). A client cannot choose it by sending a header.
 */
export function clientAddress(headers: Headers | Record<string, string | string[] | undefined>): string {
  return stampedClientAddress(headers);
}

function pair(kind: "signIn" | "register"): Backoff[] {
  return kind === "signIn" ? [limiters.signInAccount, limiters.signInAddress] : [limiters.registerAccount, limiters.registerAddress];
}

function keyFor(index: number, keys: AttemptKeys): string {
  return index === 0 ? `account:${normaliseEmail(keys.email)}` : `address:${keys.address}`;
}

/** Seconds the attempt must wait (0 = go ahead). */
export function attemptRetryAfterSeconds(kind: "signIn" | "register", keys: AttemptKeys): number {
  const waits = pair(kind).map((limiter, i) => limiter.retryAfterMs(keyFor(i, keys)));
  return Math.ceil(Math.max(...waits) / 1000);
}

/** Refuse (429 with Retry-After) when throttled, otherwise count the attempt. */
export function takeAttempt(kind: "signIn" | "register", keys: AttemptKeys): void {
  const wait = attemptRetryAfterSeconds(kind, keys);
  if (wait > 0) throw new AppError("auth.rate_limited", "Too many attempts; wait a moment and try again.", undefined, wait);
  for (const [i, limiter] of pair(kind).entries()) limiter.record(keyFor(i, keys));
}

/**
 * A successful sign-in: the account starts afresh, and its address gets this attempt back, so the
 * address limit counts failures only (a team behind one NAT address signs in all day).
 */
export function clearAccountAttempts(email: string, address?: string): void {
  limiters.signInAccount.reset(`account:${normaliseEmail(email)}`);
  if (address) limiters.signInAddress.forgive(`address:${address}`);
}
