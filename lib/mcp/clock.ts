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

/** Wait for `work` but no later than `deadline` (clock time, epoch ms); never rejects for the wait itself. */
export async function waitUntil(clock: Clock, work: Promise<unknown>, deadline: number): Promise<void> {
  const left = deadline - clock.now();
  if (left <= 0) return;
  let timer: TimerHandle | undefined;
  const waited = new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, left)));
  await Promise.race([work, waited]);
  if (timer !== undefined) clock.clearTimeout(timer);
}
