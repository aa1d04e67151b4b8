/**
 * Prompt release of a server that was deleted, disabled or edited: every listener (the engine's
 * pool, the brokers holding its pending requests) lets go of it. Listeners register from the host
 * wiring, so this module needs neither the engine nor Next; a failure is logged, never swallowed.
 */
import { redact } from "../redact";

/** Lets go of everything held for one server (connections, processes, pending requests). */
export type ServerReleaseListener = (serverId: string) => Promise<void> | void;

const slot = globalThis as { __switchboardReleaseListeners?: Set<ServerReleaseListener> };

function listeners(): Set<ServerReleaseListener> {
  slot.__switchboardReleaseListeners ??= new Set();
  return slot.__switchboardReleaseListeners;
}

/** Register a listener (idempotent for the same function). */
export function onServerReleased(listener: ServerReleaseListener): void {
  listeners().add(listener);
}

/** Release a server everywhere; resolves when every listener finished (failures are logged). */
export async function releaseServer(serverId: string): Promise<void> {
  const results = await Promise.allSettled([...listeners()].map(async (listener) => listener(serverId)));
  for (const result of results) {
    if (result.status === "rejected") {
      const error = result.reason;
      console.error("[switchboard] releasing a server failed:", redact(error instanceof Error ? error.message : String(error)));
    }
  }
}
