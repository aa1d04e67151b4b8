/**
 * A cap on password hashing for requests nobody has authenticated yet: scrypt costs tens of
 * milliseconds of CPU, so an unbounded stream of sign-in or sign-up attempts would starve the app.
 * At most `concurrency` hashes run at once and at most `queue` wait; beyond that the caller is told
 * to come back later (429).
 */
import { AppError } from "../errors";

/** Options of `createHashGate`. */
export interface HashGateOptions {
  /** Hashes running at once. Default 2 (one per core on a small host). */
  concurrency?: number;
  /** Callers allowed to wait for a slot. Default 16. */
  queue?: number;
}

/** Run `work` when a slot is free; throws a `rate_limited` AppError when the queue is full. */
export type HashGate = (<T>(work: () => Promise<T>) => Promise<T>) & {
  /** Whether a new caller would be refused right now (so a route can answer 429 before doing anything). */
  full(): boolean;
};

/** A gate with its own slots. */
export function createHashGate(options: HashGateOptions = {}): HashGate {
  const concurrency = options.concurrency ?? 2;
  const queueMax = options.queue ?? 16;
  let running = 0;
  const waiting: (() => void)[] = [];
  const full = () => running >= concurrency && waiting.length >= queueMax;
  const gate = async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) {
      if (waiting.length >= queueMax) throw new AppError("auth.rate_limited", "The server is busy; try again in a moment.", undefined, 1);
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      running += 1;
    }
    try {
      return await work();
    } finally {
      // Hand the slot straight to the next waiter, or free it.
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
  return Object.assign(gate, { full });
}

/** The process-wide gate for unauthenticated hashing (sign-in, sign-up). */
export const unauthenticatedHashGate: HashGate = createHashGate();
