/**
 * How a connection's status reaches the host's hook: a change of state goes out at once; new call
 * figures go out at most once per interval, since a busy connection finishes hundreds of calls a
 * second and a status report for each would cost more than the calls.
 */
import type { Clock, TimerHandle } from "./clock";

/** Pushes one connection's status through `push`, now or coalesced. */
export class StatusPush {
  private timer: TimerHandle | null = null;

  /** `push` sends the current status; without one nothing is ever scheduled. */
  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly push: (() => void) | undefined,
  ) {}

  /** Send the status now (a state changed); a push still waiting is folded into this one. */
  now(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    this.push?.();
  }

  /** Send the status within the interval (new figures); further calls meanwhile add nothing. */
  soon(): void {
    if (this.timer !== null || !this.push) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.push?.();
    }, this.intervalMs);
  }
}
