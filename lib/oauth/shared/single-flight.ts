/**
 * One refresh at a time per (user, server): concurrent callers share the promise of the refresh
 * already running instead of each spending the (possibly rotating) refresh token.
 */

const inFlight = new Map<string, Promise<unknown>>();

/** Run `task` unless one with the same key is running; then share its outcome. */
export function singleFlight<T>(key: string, task: () => Promise<T>): Promise<T> {
  const running = inFlight.get(key);
  if (running !== undefined) return running as Promise<T>;
  const started = task().finally(() => inFlight.delete(key));
  inFlight.set(key, started);
  return started;
}
