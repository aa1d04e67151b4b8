/**
 * How a connection's status reaches the host's hook: a change of state goes out at once; new call
 * figures go out at most once per interval, since a busy connection finishes hundreds of calls a
 * second and a status report for each would cost more than the calls.
 */
import type { Clock, TimerHandle } from "./clock";
import type { PoolOptions, ServerStatus } from "./types";

/** Pushes one connection's status through `push`, now or coalesced. */
export class StatusPush {
  private timer: TimerHandle | null = null;

  /**
   * `push` sends the current status; without one nothing is ever scheduled. `figuresWatched` says
   * whether anyone would see new figures now: with a thousand users each calling, a timer and a
   * status build per connection per second for nobody's page cost more than the calls themselves.
   */
  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly push: (() => void) | undefined,
    private readonly figuresWatched: () => boolean = () => true,
  ) {}

  /** Send the status now (a state changed); a push still waiting is folded into this one. */
  now(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    this.push?.();
  }

  /**
   * Send the status within the interval (new figures); further calls meanwhile add nothing, and
   * nothing is scheduled while nobody watches (a page that opens later reads the status afresh).
   */
  soon(): void {
    if (this.timer !== null || !this.push || !this.figuresWatched()) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.push?.();
    }, this.intervalMs);
  }
}

/** How often new call figures are pushed to the status hook per connection (state changes go at once). */
const METRICS_PUSH_MS = 1000;

/** The status push of one (user, server) connection: through the pool's hook, figures only while the user watches. */
export function connectionStatusPush(
  options: Pick<PoolOptions, "onStatusChange" | "figuresWatched"> & { clock: Clock },
  userId: string,
  status: () => ServerStatus,
): StatusPush {
  const { onStatusChange: hook, figuresWatched: watched } = options;
  return new StatusPush(options.clock, METRICS_PUSH_MS, hook && (() => hook(status())), watched && (() => watched(userId)));
}
