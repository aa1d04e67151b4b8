/**
 * When the next reconnect of a dropped connection fires: attempts on the backoff schedule
 * (backoff.ts), one timer at a time, and a reset only after a connection that stayed up a while
 * (a flapping server keeps counting its attempts).
 */
import { backoffDelay, RECONNECT_POLICY } from "./backoff";
import { EngineError } from "./errors";
import type { Clock, TimerHandle } from "./clock";

/** How long a connection must have lived for a drop to start a fresh reconnect schedule. */
export const STABLE_MS = 60_000;

/** One entry's reconnect attempts and timer. */
export class ReconnectSchedule {
  /** The attempt under way or waiting (0 = none). */
  attempt = 0;
  /** When the waiting attempt fires (epoch ms), or null. */
  at: number | null = null;
  private timer: TimerHandle | null = null;

  constructor(private readonly clock: Clock) {}

  /** Whether an attempt waits on its timer. */
  get waiting(): boolean {
    return this.timer !== null;
  }

  /** A connection opened at `connectedAt` dropped: a long-lived one starts the schedule over. */
  dropped(connectedAt: number): void {
    if (this.clock.now() - connectedAt >= STABLE_MS) this.attempt = 0;
  }

  /** Wait for the next attempt and run `fire`; false (nothing scheduled) once the schedule gave up. */
  next(fire: () => void): boolean {
    const attempt = this.attempt + 1;
    const delay = backoffDelay(attempt);
    if (delay === null) {
      this.at = null;
      return false;
    }
    this.attempt = attempt;
    this.at = this.clock.now() + delay;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      fire();
    }, delay);
    return true;
  }

  /** Stop the waiting attempt, if any. */
  cancel(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** Forget the attempts (close, reconnect asked for). */
  reset(): void {
    this.attempt = 0;
    this.at = null;
  }
}

/** The error a request meets while its server waits to reconnect. */
export function reconnectingError(serverName: string, attempt: number, lastError: EngineError | null): EngineError {
  return new EngineError(
    "reconnecting",
    `server "${serverName}" dropped and is reconnecting (attempt ${attempt} of ${RECONNECT_POLICY.maxAttempts}); last error: ${lastError?.message ?? "unknown"}`,
  );
}

/** The error a server is left with once the schedule gave up (it keeps the last error's code). */
export function gaveUpError(lastError: EngineError | null): EngineError {
  const reason = lastError?.message ?? "unknown error";
  return new EngineError(
    lastError?.code ?? "server_error",
    `gave up after ${RECONNECT_POLICY.maxAttempts} reconnect attempts; last error: ${reason}`,
  );
}
