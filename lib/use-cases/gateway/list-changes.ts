/**
 * `list_changed` relayed to a gateway session's client (docs/gateway.md#list-changes): when a server
 * announces that its tools, resources or prompts changed, the engine re-lists it on the member's
 * connection, and the session tells its client to list again — which it then does through the
 * gateway, so the tool gate decides what it sees (a changed definition is held, and left out, until
 * it is reviewed). Only a 2025-11-25 session can be told: a 2026-07-28 request has no session.
 */
import "server-only";
import type { Server } from "@modelcontextprotocol/server";
import type { Caller } from "../server-ops";
import { watchServerListChanges } from "../server-ops";

type ListKind = "tools" | "resources" | "prompts";

/** Tell `server`'s client that its `kind` list changed, if the server declared that it would. */
function announce(server: Server, kind: ListKind): void {
  const declared = (server.getCapabilities()[kind] as { listChanged?: boolean } | undefined)?.listChanged === true;
  if (!declared) return;
  const sent =
    kind === "tools"
      ? server.sendToolListChanged()
      : kind === "resources"
        ? server.sendResourceListChanged()
        : server.sendPromptListChanged();
  // The session ended meanwhile: nobody to tell.
  void sent.catch(() => undefined);
}

/**
 * Relay the list changes of `serverIds` (the member's own connections) to `server`'s client until
 * the session closes. A server the member cannot reach now is skipped: nothing to relay from it.
 */
export function relayListChanges(server: Server, caller: Caller, serverIds: string[]): void {
  const stops = serverIds.map((serverId) =>
    watchServerListChanges(caller, serverId, (kind) => announce(server, kind)).catch(() => () => undefined),
  );
  onClosed(server, () => {
    for (const stop of stops) void stop.then((run) => run());
  });
}

/** Run `done` when `server` closes, after whatever already ran then. */
export function onClosed(server: Server, done: () => void): void {
  const before = server.onclose;
  server.onclose = () => {
    before?.();
    done();
  };
}
