/**
 * The process-wide fan-out of engine events to the browsers that watch them: the pool's status hook
 * and resource-update listeners publish here, each `GET /api/events` stream subscribes for its user.
 * Events are keyed by user: a (user, server) status never reaches another user's stream.
 */
import type { ServerStatus } from "../mcp";
import { singleton } from "../singleton";

/** One event as the browser receives it (the SSE `event:` name is `type`). */
export type LiveEvent =
  | { type: "status"; serverId: string; status: ServerStatus }
  | { type: "resource_updated"; serverId: string; uri: string }
  /**
   * The user's own membership changed (joined, removed, role, workspace deleted): their workspace
   * list is stale. `notice` is what their open pages of that workspace say at once (a lowered role,
   * a deleted workspace); a removal is explained by the next request instead (`workspace.removed`).
   */
  | { type: "membership"; workspaceId: string; notice?: AccessNotice };

/** An access change said live: the error code the UI already maps, and the sentence (who, what, when). */
export interface AccessNotice {
  code: "workspace.role_changed" | "workspace.deleted";
  message: string;
}

type Listener = (event: LiveEvent) => void;

/** Subscribers per user id. */
class StatusEvents {
  private readonly listeners = new Map<string, Set<Listener>>();

  /** Deliver an event to every stream of `userId`; a failing listener never stops the others. */
  publish(userId: string, event: LiveEvent): void {
    for (const listener of this.listeners.get(userId) ?? []) {
      try {
        listener(event);
      } catch (error) {
        console.warn("live event listener failed", String(error));
      }
    }
  }

  /** Listen for `userId`'s events; returns the function that stops listening. */
  subscribe(userId: string, listener: Listener): () => void {
    const set = this.listeners.get(userId) ?? new Set<Listener>();
    this.listeners.set(userId, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(userId) === set) this.listeners.delete(userId);
    };
  }

  /** Whether `userId` has a stream open (the pool pushes new call figures only then). */
  watching(userId: string): boolean {
    return this.listeners.has(userId);
  }

  /** How many streams are open (for tests and the health view). */
  size(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }
}

/** The process-wide event hub. */
export function statusEvents(): StatusEvents {
  return singleton("host.statusEvents", () => new StatusEvents());
}

/**
 * Tell `userId`'s open pages that their membership of `workspaceId` changed (the switcher re-reads
 * its list); with `notice`, the pages showing that workspace also say what happened.
 */
export function publishMembership(userId: string, workspaceId: string, notice?: AccessNotice): void {
  statusEvents().publish(userId, notice ? { type: "membership", workspaceId, notice } : { type: "membership", workspaceId });
}

/** The pool's `onStatusChange` hook: every status change becomes a `status` event for its user. */
export function publishStatus(status: ServerStatus): void {
  statusEvents().publish(status.userId, { type: "status", serverId: status.serverId, status });
}
