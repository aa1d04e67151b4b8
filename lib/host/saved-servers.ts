/**
 * Saving a server starts it: a new or changed config connects at once (HTTP and stdio alike; the
 * stdio launch was shown before saving), so opening a page never has to start anything. The connect
 * runs in the background and its outcome arrives as live status (docs/workbench.md#one-start-rule).
 */
import "server-only";
import { getDb } from "../../db/client";
import { addServerView, changeServerView, type Actor } from "../servers/service";
import { consoleLogger } from "./console-logger";
import { appPool, workspaceServerDefinition } from "./engine";

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
