/**
 * A token bucket over the engine's clock: `capacity` tokens, refilled at `perSecond`. Pure state,
 * so floods are refused in O(1) without timers.
 */

/** Token bucket; `take()` is false when the bucket is empty. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {
    this.tokens = capacity;
    this.last = now();
  }

  /** Take one token; false (and nothing taken) when none is left. */
  take(): boolean {
    if (!this.available()) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether a token is there to take, without taking it. */
  available(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    return this.tokens >= 1;
  }
}
