/**
 * Evicts an idle connection: armed after each request (and on connect), cleared when one starts;
 * it fires only when nothing is in flight, so a connection is never closed mid-call.
 */
import type { Clock, TimerHandle } from "./clock";

/** One entry's idle eviction timer. */
export class IdleTimer {
  private timer: TimerHandle | null = null;

  /** `idle()` says whether eviction may happen now; `evict()` closes the connection. */
  constructor(
    private readonly clock: Clock,
    private readonly ms: number,
    private readonly idle: () => boolean,
    private readonly evict: () => void,
  ) {}

  /** Start the wait again (nothing happens with a 0 timeout or while not idle). */
  arm(): void {
    this.clear();
    if (this.ms <= 0 || !this.idle()) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      if (this.idle()) this.evict();
    }, this.ms);
  }

  /** Stop waiting. */
  clear(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
