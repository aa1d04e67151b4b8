/**
 * The lifecycle states of one (user, server) entry and the moves between them
 * (docs/architecture.md#connection-lifecycle). `ManagedServer` changes state only through
 * `Lifecycle.to`, so every move the engine makes is one listed here.
 */
import type { ServerState } from "./types";

/**
 * Every allowed move. Any state may go to `idle` or `disabled` (close, config change) and to
 * `failed` (a quota refusal or a failed connect); the rest follow connect, drop and authorization.
 */
export const TRANSITIONS: Readonly<Record<ServerState, readonly ServerState[]>> = {
  idle: ["connecting", "failed", "needs_authorization", "idle", "disabled"],
  connecting: ["connected", "failed", "needs_authorization", "idle", "disabled"],
  connected: ["reconnecting", "failed", "idle", "disabled"],
  // A reconnect attempt that fails schedules the next one: reconnecting stays reconnecting.
  reconnecting: ["reconnecting", "connected", "failed", "needs_authorization", "idle", "disabled"],
  // A refusal (quota) can land while a reconnect waits on its timer; the timer then tries again.
  failed: ["connecting", "reconnecting", "failed", "idle", "disabled"],
  needs_authorization: ["connecting", "failed", "needs_authorization", "idle", "disabled"],
  disabled: ["idle", "disabled"],
};

/** Whether the lifecycle allows moving from `from` to `to`. */
export function canMove(from: ServerState, to: ServerState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The current state of one entry; moves are checked against `TRANSITIONS`. */
export class Lifecycle {
  private current: ServerState;

  /** Starts in `initial`; `onRefused` hears of a move the table does not allow (a defect: it is not made). */
  constructor(
    initial: ServerState,
    private readonly onRefused: (from: ServerState, to: ServerState) => void,
  ) {
    this.current = initial;
  }

  /** The state now. */
  get state(): ServerState {
    return this.current;
  }

  /** Move to `next`; false (and the state unchanged) when the table does not allow it. */
  to(next: ServerState): boolean {
    if (!canMove(this.current, next)) {
      this.onRefused(this.current, next);
      return false;
    }
    this.current = next;
    return true;
  }
}
