/**
 * Reconnect schedule after an unexpected drop (docs/architecture.md#connection-lifecycle): at most 5 tries, 1, 2, 4, 8, 16 s,
 * never more than 60 s. Pure, so the schedule is tested as a table.
 */

/** Shape of a backoff schedule; defaults follow docs/architecture.md#connection-lifecycle. */
export interface BackoffPolicy {
  /** Default 1000 ms. */
  initialMs: number;
  /** Default 2. */
  factor: number;
  /** Default 60000 ms. */
  capMs: number;
  /** Default 5. */
  maxAttempts: number;
}

/** The reconnect policy of docs/architecture.md#connection-lifecycle. */
export const RECONNECT_POLICY: BackoffPolicy = { initialMs: 1000, factor: 2, capMs: 60_000, maxAttempts: 5 };

/** Delay before `attempt` (1-based), or null when the attempts are used up. */
export function backoffDelay(attempt: number, policy: BackoffPolicy = RECONNECT_POLICY): number | null {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt > policy.maxAttempts) return null;
  return Math.min(policy.initialMs * policy.factor ** (attempt - 1), policy.capMs);
}

/** The whole schedule, e.g. [1000, 2000, 4000, 8000, 16000]. */
export function backoffSchedule(policy: BackoffPolicy = RECONNECT_POLICY): number[] {
  const out: number[] = [];
  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) out.push(backoffDelay(attempt, policy)!);
  return out;
}
