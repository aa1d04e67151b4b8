/**
 * Throttling of sign-in and sign-up, per account and per client address, with exponential backoff.
 * Every attempt counts before its outcome is known (a parallel burst cannot slip through); a
 * successful sign-in clears its account's count and gives its address the attempt back. The counts
 * live in the coordination (lib/cluster): in cluster mode every replica's attempts count together.
 */
import { normaliseEmail } from "../../db/queries/users";
import type { Coordination } from "../cluster";
import { registrationsPerAddressSetting } from "../env";
import { AppError } from "../errors";
import { Backoff } from "../security/backoff";
import { KeyTurns } from "../security/key-turns";
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

/** The four backoffs: per account and per address, for sign-in and for sign-up. */
export interface Limiters {
  signInAccount: Backoff;
  signInAddress: Backoff;
  registerAccount: Backoff;
  registerAddress: Backoff;
}

/** What a throttle is made over: where its counts live, and (tests) its clock. */
export interface ThrottleOptions {
  /** Where the counts and turns live, asked at each use. Default: the process's coordination. */
  coordination?: () => Coordination;
  /** The clock of the backoff. Default `Date.now`. */
  now?: () => number;
}

/**
 * Sign-in and sign-up throttling over one coordination. The app has one (`throttle`, over the
 * process's coordination: Redis in cluster mode, so attempts on every replica count together); a
 * test makes one per coordination to stand for several replicas.
 */
export class SignInThrottle {
  /** The limiters, one per kind and key type. */
  readonly limiters: Limiters;
  private readonly turns: KeyTurns;

  constructor(options: ThrottleOptions = {}) {
    const over = { coordination: options.coordination, now: options.now };
    this.turns = new KeyTurns(options.coordination);
    this.limiters = {
      // An account gets a few guesses; many people may share an address (NAT), so it gets more.
      signInAccount: new Backoff({
        name: "sign-in-account",
        free: 5,
        baseMs: 2_000,
        maxMs: 15 * MINUTE_MS,
        windowMs: 15 * MINUTE_MS,
        ...over,
      }),
      signInAddress: new Backoff({
        name: "sign-in-address",
        free: 20,
        baseMs: 2_000,
        maxMs: 15 * MINUTE_MS,
        windowMs: 15 * MINUTE_MS,
        ...over,
      }),
      registerAccount: new Backoff({
        name: "register-account",
        free: 5,
        baseMs: 2_000,
        maxMs: 15 * MINUTE_MS,
        windowMs: 60 * MINUTE_MS,
        ...over,
      }),
      registerAddress: new Backoff({
        name: "register-address",
        free: registrationsPerAddress(),
        baseMs: 2_000,
        maxMs: 60 * MINUTE_MS,
        windowMs: 60 * MINUTE_MS,
        ...over,
      }),
    };
  }

  /** Seconds the attempt must wait (0 = go ahead). */
  async attemptRetryAfterSeconds(kind: "signIn" | "register", keys: AttemptKeys): Promise<number> {
    const waits = await Promise.all(this.pair(kind).map((limiter, i) => limiter.retryAfterMs(keyFor(i, keys))));
    return Math.ceil(Math.max(...waits) / 1000);
  }

  /**
   * Refuse (429 with Retry-After) when throttled, otherwise count the attempt. The check and the
   * count run holding the account's and the address's turns, so attempts sent together (to one
   * replica or several) are decided one after another, each seeing the ones before it.
   */
  async takeAttempt(kind: "signIn" | "register", keys: AttemptKeys): Promise<void> {
    const pair = this.pair(kind);
    // Always the account's turn first, then the address's: two attempts never wait for each other.
    await this.turns.run(
      pair.map((limiter, i) => `${limiter.name}:${keyFor(i, keys)}`),
      async () => {
        const wait = await this.attemptRetryAfterSeconds(kind, keys);
        if (wait > 0) throw new AppError("auth.rate_limited", "Too many attempts; wait a moment and try again.", undefined, wait);
        await Promise.all(pair.map((limiter, i) => limiter.record(keyFor(i, keys))));
      },
    );
  }

  /**
   * A successful sign-in: the account starts afresh, and its address gets this attempt back, so the
   * address limit counts failures only (a team behind one NAT address signs in all day).
   */
  async clearAccountAttempts(email: string, address?: string): Promise<void> {
    await Promise.all([
      this.limiters.signInAccount.reset(`account:${normaliseEmail(email)}`),
      address ? this.limiters.signInAddress.forgive(`address:${address}`) : undefined,
    ]);
  }

  private pair(kind: "signIn" | "register"): Backoff[] {
    const { limiters } = this;
    return kind === "signIn" ? [limiters.signInAccount, limiters.signInAddress] : [limiters.registerAccount, limiters.registerAddress];
  }
}

// The app's throttle: the counts are in the process's coordination; it keeps only the waiters for a
// turn and, in single-node mode, the order of keys for the key cap.
const throttle = new SignInThrottle();

/** The app's limiters (exported for tests, which reset keys). */
export const limiters: Limiters = throttle.limiters;

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

function keyFor(index: number, keys: AttemptKeys): string {
  return index === 0 ? `account:${normaliseEmail(keys.email)}` : `address:${keys.address}`;
}

/** Seconds the attempt must wait (0 = go ahead). */
export function attemptRetryAfterSeconds(kind: "signIn" | "register", keys: AttemptKeys): Promise<number> {
  return throttle.attemptRetryAfterSeconds(kind, keys);
}

/** Refuse (429 with Retry-After) when throttled, otherwise count the attempt. */
export function takeAttempt(kind: "signIn" | "register", keys: AttemptKeys): Promise<void> {
  return throttle.takeAttempt(kind, keys);
}

/**
 * A successful sign-in: the account starts afresh, and its address gets this attempt back, so the
 * address limit counts failures only (a team behind one NAT address signs in all day).
 */
export function clearAccountAttempts(email: string, address?: string): Promise<void> {
  return throttle.clearAccountAttempts(email, address);
}
