/**
 * How long a session lasts: an absolute lifetime from sign-in and an idle timeout since the last
 * request, both from the environment, and the pure rule that decides whether a session still counts.
 */
import type { SessionState } from "../../db/queries/sessions";
import { sessionIdleMinutesSetting, sessionMaxAgeHoursSetting } from "../env";

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

function positiveNumber(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** Absolute session lifetime (`SWITCHBOARD_SESSION_MAX_AGE_HOURS`, default 720 = 30 days). */
export function sessionLifetimeMs(): number {
  return Math.max(1, positiveNumber(sessionMaxAgeHoursSetting(), 720)) * HOUR_MS;
}

/** Idle timeout (`SWITCHBOARD_SESSION_IDLE_MINUTES`, default 10080 = 7 days; 0 = none). */
export function sessionIdleMs(): number {
  return positiveNumber(sessionIdleMinutesSetting(), 10_080) * MINUTE_MS;
}

/** Why a session no longer counts, or null while it is valid. */
export function sessionRefusal(state: SessionState | null, now: Date, idleMs = sessionIdleMs()): string | null {
  if (!state) return "unknown";
  if (state.endedAt) return "ended";
  if (state.userDisabledAt) return "user_disabled";
  if (state.expiresAt.getTime() <= now.getTime()) return "expired";
  if (idleMs > 0 && now.getTime() - state.lastSeenAt.getTime() > idleMs) return "idle";
  return null;
}
