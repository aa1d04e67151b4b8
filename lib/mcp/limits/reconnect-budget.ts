/**
 * One reconnect policy for every stream a connection opens: the first open is free, each later one
 * waits at least 500 ms doubling to 60 s, whatever `retry:` the server sent, and after `maxOpens` the
 * stream stays closed. A stream that closed and reopened counts against the same budget: the
 * counter never resets for the life of the connection.
 */

/** What the next stream open may do. */
export type OpenDecision = { allow: true; waitMs: number } | { allow: false };

/**
 * Minimum spacing of stream reopens, whatever the server's `retry:` says. 500 ms, not more: the
 * protocol says a client MUST wait the server's `retry:` and no longer than about twice it, and the
 * official conformance suite checks that with `retry: 500`; the doubling and the budget are what
 * stop a `retry: 0` storm.
 */
export const MIN_REOPEN_MS = 500;
const MAX_REOPEN_MS = 60_000;

/** Per-connection budget of stream opens. */
export class ReconnectBudget {
  private opens = 0;
  private lastOpenAt: number | null = null;

  constructor(
    private readonly maxOpens: number,
    private readonly now: () => number,
  ) {}

  /** Decide about one more open and count it when allowed. */
  next(): OpenDecision {
    if (this.opens >= this.maxOpens) return { allow: false };
    const now = this.now();
    const gap = this.opens === 0 ? 0 : Math.min(MIN_REOPEN_MS * 2 ** (this.opens - 1), MAX_REOPEN_MS);
    const waitMs = this.lastOpenAt === null ? 0 : Math.max(0, this.lastOpenAt + gap - now);
    this.opens++;
    this.lastOpenAt = now + waitMs;
    return { allow: true, waitMs };
  }

  /** Opens so far and the budget, for the status. */
  snapshot(): { opens: number; max: number; exhausted: boolean } {
    return { opens: this.opens, max: this.maxOpens, exhausted: this.opens >= this.maxOpens };
  }
}
