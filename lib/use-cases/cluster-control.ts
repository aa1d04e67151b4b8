/**
 * Losing access on every replica. A removed member, a disabled account or a deleted workspace may
 * have connections and running turns on any replica: the replica that makes the change applies it
 * to its own pool and turns and sends the same order over the control channel
 * (lib/cluster/control.ts); every other replica applies it to its own as it arrives. Released
 * servers go the same way (lib/servers/release.ts). In single-node mode nothing is sent.
 *
 * The orders are sent, not acknowledged: the caller answers once this replica let go and the
 * others were told (they let go within milliseconds). An order that cannot be sent (Redis out of
 * reach) is logged; the other replicas still refuse the person's next request, as the membership
 * and session are read from the database, and their connections there close at idle eviction.
 */
import { type ClusterControl, clusterControl } from "../cluster/control";
import type { AccessEffects } from "../domain/access-effects";
import { existingPool, type McpPool } from "../mcp";
import type { ListKind } from "../mcp/discovery";
import { SANDBOX_LIST_CHANGED } from "../runtime/sandbox-placement";
import { stopTurns } from "../runtime/turns";
import { hearServerReleases } from "../servers/release";
import { withdrawServerRequests } from "./withdraw-requests";

/** The control channel's names for the two orders of an access change. */
const STOP_TURNS = "turns.stop";
const CLOSE_CONNECTIONS = "connections.close";

/** What an access change reaches on one replica: its pool, if it made one, and its running turns. */
export interface ReplicaHold {
  pool(): McpPool | undefined;
  stopTurns(userId: string | null, workspaceId: string | null): void;
}

/** This process's pool and turns. */
const HERE: ReplicaHold = { pool: existingPool, stopTurns };

/**
 * The access effects on connections and turns, applied to this replica's and ordered of every other
 * one (lib/use-cases/access-effects.ts wraps them with the withdrawals and the tokens).
 */
export function everywhereEffects(
  control: ClusterControl = clusterControl(),
  hold: ReplicaHold = HERE,
): Pick<AccessEffects, "closeConnections" | "stopTurns"> {
  return {
    async closeConnections(userId, serverIds) {
      await Promise.all([control.send(CLOSE_CONNECTIONS, { userId, serverIds }), closeIn(hold.pool(), userId, serverIds)]);
    },
    async stopTurns(userId, workspaceId) {
      hold.stopTurns(userId, workspaceId);
      await control.send(STOP_TURNS, { userId, workspaceId });
    },
  };
}

/**
 * Apply here what the other replicas order (once per process, at start: instrumentation.ts; tests
 * pass an end and a hold per "replica"). A closing order withdraws the person's pending server
 * requests here first, as on the replica that sent it, so no answer slips in before the close.
 */
export function startClusterControl(control: ClusterControl = clusterControl(), hold: ReplicaHold = HERE): void {
  hearServerReleases(control);
  control.on(STOP_TURNS, (payload) => {
    const { userId, workspaceId } = payload as { userId?: unknown; workspaceId?: unknown };
    // Never "everyone everywhere": a malformed order must not stop every turn of the replica.
    if (!idOrNull(userId) || !idOrNull(workspaceId) || (userId === null && workspaceId === null)) return;
    hold.stopTurns(userId, workspaceId);
  });
  control.on(CLOSE_CONNECTIONS, async (payload) => {
    const { userId, serverIds } = payload as { userId?: unknown; serverIds?: unknown };
    if (!idOrNull(userId) || !(serverIds === undefined || (Array.isArray(serverIds) && serverIds.every((id) => typeof id === "string"))))
      return;
    await withdrawServerRequests(userId, serverIds);
    await closeIn(hold.pool(), userId, serverIds);
  });
  // A stdio server whose sandbox runs on the sender changed a list: a relay to it here lists it again.
  control.on(SANDBOX_LIST_CHANGED, (payload) => {
    const { userId, serverId, kind } = payload as { userId?: unknown; serverId?: unknown; kind?: unknown };
    if (typeof userId !== "string" || typeof serverId !== "string" || !LIST_KINDS.includes(kind as ListKind)) return;
    hold.pool()?.relayedListChanged(userId, serverId, kind as ListKind);
  });
}

const LIST_KINDS: ListKind[] = ["tools", "resources", "prompts"];

/** Close a user's connections to `serverIds` (all theirs when omitted), or every user's to `serverIds` when `userId` is null. */
async function closeIn(pool: McpPool | undefined, userId: string | null, serverIds?: string[]): Promise<void> {
  if (!pool) return;
  if (userId) await pool.closeUser(userId, serverIds);
  else await Promise.all((serverIds ?? []).map((id) => pool.closeServer(id)));
}

function idOrNull(value: unknown): value is string | null {
  return value === null || typeof value === "string";
}
