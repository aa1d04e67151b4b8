/**
 * Time source and timers the engine uses for backoff, idle eviction and timeouts, injectable so
 * unit tests can drive schedules with a fake clock instead of sleeping.
 */

/** An opaque timer handle. */
export type TimerHandle = unknown;

/** Minimal clock: wall time plus one-shot timers. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock; timers are unref'd so a pending backoff never keeps the process alive. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
