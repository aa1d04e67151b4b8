/**
 * Resource subscriptions a person opened in the inspector: `resources/subscribe` on their own
 * connection, each `notifications/resources/updated` pushed to their browser as a
 * `resource_updated` live event. Bounded per user; ended by unsubscribe or when the server is released.
 */
import "server-only";
import { getDb } from "../../db/client";
import { AppError } from "../errors";
import { singleton } from "../singleton";
import { appPool, workspaceServerDefinition } from "../runtime/engine";
import type { Caller } from "./server-ops";
import { statusEvents } from "../runtime/status-events";

/** Subscriptions one user may hold at once. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20;

function subscriptions(): Map<string, () => Promise<void>> {
  return singleton("host.resourceSubscriptions", () => new Map<string, () => Promise<void>>());
}

const keyOf = (userId: string, serverId: string, uri: string) => `${userId}\u0000${serverId}\u0000${uri}`;

/** Subscribe the caller to `uri` of the server (idempotent); updates arrive on `GET /api/events`. */
export async function subscribeResource(caller: Caller, serverId: string, uri: string): Promise<{ subscribed: string }> {
  const all = subscriptions();
  const key = keyOf(caller.id, serverId, uri);
  if (all.has(key)) return { subscribed: uri };
  const mine = [...all.keys()].filter((k) => k.startsWith(`${caller.id}\u0000`)).length;
  if (mine >= MAX_SUBSCRIPTIONS_PER_USER) {
    throw new AppError(
      "quota.exceeded",
      `At most ${MAX_SUBSCRIPTIONS_PER_USER} resource subscriptions at once; unsubscribe from one first.`,
    );
  }
  const server = await workspaceServerDefinition(getDb(), caller, serverId);
  const stop = await appPool()
    .session(caller.id, server)
    .subscribeResource(uri, (updated) => statusEvents().publish(caller.id, { type: "resource_updated", serverId, uri: updated }));
  all.set(key, stop);
  return { subscribed: uri };
}

/** End the caller's subscription to `uri` (a no-op when there is none). */
export async function unsubscribeResource(caller: Caller, serverId: string, uri: string): Promise<{ unsubscribed: string }> {
  await workspaceServerDefinition(getDb(), caller, serverId); // 404 outside the caller's workspace
  const all = subscriptions();
  const key = keyOf(caller.id, serverId, uri);
  const stop = all.get(key);
  all.delete(key);
  await stop?.();
  return { unsubscribed: uri };
}
