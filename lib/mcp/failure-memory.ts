/**
 * Remembers that a server failed to connect so it is not retried on every request (a server that
 * never finishes initializing would otherwise cost each chat turn its whole connect timeout):
 * 5 s after the first failure, doubling to 5 minutes. Pure state over the engine's clock.
 */

const FIRST_MS = 5000;
const CAP_MS = 5 * 60_000;

/** Failure backoff of one (user, server). */
export class FailureMemory {
  private failures = 0;
  private until: number | null = null;

  constructor(private readonly now: () => number) {}

  /** A connect failed: the next try waits longer. */
  failed(): void {
    this.failures++;
    this.until = this.now() + Math.min(FIRST_MS * 2 ** (this.failures - 1), CAP_MS);
  }

  /** A connect succeeded: forget the failures. */
  succeeded(): void {
    this.forget();
  }

  /** The user asked to try now (Reconnect, a config change). */
  forget(): void {
    this.failures = 0;
    this.until = null;
  }

  /** When the next try is allowed, or null when it is allowed now. */
  retryAt(): number | null {
    return this.until !== null && this.now() < this.until ? this.until : null;
  }
}
