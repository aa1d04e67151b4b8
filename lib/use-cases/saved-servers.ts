/**
 * Saving a server starts it: a new or changed config connects at once (HTTP and stdio alike; the
 * stdio launch was shown before saving), so opening a page never has to start anything. The connect
 * runs in the background and its outcome arrives as live status (docs/workbench.md#one-start-rule).
 */
import "server-only";
import { getDb } from "../../db/client";
import { confirmImport, type ImportRequest } from "../servers/import-service";
import { addServerView, changeServerView, type Actor } from "../servers/service";
import { consoleLogger } from "../runtime/console-logger";
import { appPool, workspaceServerDefinition } from "../runtime/engine";

/** Connect the caller's (user, server) in the background; a failure lands in the server's status. */
export function startSavedServer(caller: Actor, serverId: string): void {
  const server = workspaceServerDefinition(getDb(), caller, serverId);
  appPool()
    .discover(caller.id, [server])
    .catch((error: unknown) => consoleLogger.warn("start after save failed", { server: server.name, error: String(error) }));
}

/** Add a server and start it. */
export function addAndStartServer(caller: Actor, body: unknown) {
  const view = addServerView(getDb(), caller, body);
  startSavedServer(caller, view.id);
  return view;
}

/** Change a server and start it with its new config (the old connection closes). */
export function changeAndStartServer(caller: Actor, id: string, body: unknown) {
  const view = changeServerView(getDb(), caller, id, body);
  startSavedServer(caller, view.id);
  return view;
}

/** Save the confirmed entries of an import and start each. */
export function importAndStartServers(caller: Actor, request: ImportRequest & { confirm: string[] }) {
  const result = confirmImport(getDb(), caller, request);
  for (const id of result.created) startSavedServer(caller, id);
  return result;
}
