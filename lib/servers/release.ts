/**
 * Prompt release of a server that was deleted, disabled or edited: every listener (the engine's
 * pool, the brokers holding its pending requests) lets go of it, on every replica: the replica that
 * changed the server releases it here and sends the same order to the others over the control
 * channel (lib/cluster/control.ts), each of which releases it from its own listeners. Listeners
 * register from the host wiring, so this module needs neither the engine nor Next; a failure is
 * logged, never swallowed.
 */
import { type ClusterControl, clusterControl } from "../cluster/control";
import { redact } from "../redact";

/** Lets go of everything held for one server (connections, processes, pending requests). */
export type ServerReleaseListener = (serverId: string) => Promise<void> | void;

/** The control channel's name for "release this server". */
const RELEASE = "server.release";

const slot = globalThis as { __switchboardReleaseListeners?: Set<ServerReleaseListener> };

function listeners(): Set<ServerReleaseListener> {
  slot.__switchboardReleaseListeners ??= new Set();
  return slot.__switchboardReleaseListeners;
}

/** Register a listener (idempotent for the same function). */
export function onServerReleased(listener: ServerReleaseListener): void {
  listeners().add(listener);
}

/**
 * Release a server on every replica; resolves when this replica's listeners finished (failures are
 * logged) and the order to the others is sent (they apply it as it arrives, within milliseconds).
 */
export async function releaseServer(serverId: string, control: ClusterControl = clusterControl()): Promise<void> {
  await Promise.all([releaseHere(serverId), control.send(RELEASE, { serverId })]);
}

/** Apply the releases other replicas send, here (once per process, at start; tests pass their own end). */
export function hearServerReleases(control: ClusterControl = clusterControl()): void {
  control.on(RELEASE, async (payload) => {
    const { serverId } = payload as { serverId?: unknown };
    if (typeof serverId === "string") await releaseHere(serverId);
  });
}

/** Release a server from this replica's listeners. */
async function releaseHere(serverId: string): Promise<void> {
  const results = await Promise.allSettled([...listeners()].map(async (listener) => listener(serverId)));
  for (const result of results) {
    if (result.status === "rejected") {
      const error = result.reason;
      console.error("[switchboard] releasing a server failed:", redact(error instanceof Error ? error.message : String(error)));
    }
  }
}
