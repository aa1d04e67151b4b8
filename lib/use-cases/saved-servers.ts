/**
 * The workspace's saved servers: list, view, add, change, remove, import and export, and each
 * member's own values. Saving a server starts it: a new or changed config connects at once (HTTP
 * and stdio alike; the stdio launch was shown before saving), so opening a page never has to start
 * anything. The connect runs in the background and its outcome arrives as live status
 * (docs/workbench.md#one-start-rule).
 */
import "server-only";
import { getDb } from "../../db/client";
import { getServerById } from "../../db/queries/servers";
import { confirmImport, exportWorkspaceServers, type ImportRequest, previewImport } from "../servers/import-service";
import { memberValuesView, setMemberValues } from "../servers/member-values";
import type { NewServerInput, ServerInput } from "../servers/input";
import {
  type AddOptions,
  addServerView,
  changeServerView,
  type Actor,
  listServers,
  removeServerNow,
  sensitiveServerChange,
  serverView,
  serverViewById,
} from "../servers/service";
import { type ReauthActor, requireRecentAuth } from "../auth/reauth";
import { assertFactorForStdio } from "../auth/mfa-policy";
import { transportOf } from "../mcp/config";
import { appAccessEffects } from "./access-effects";

export { newServerSchema, serverChangeSchema } from "../servers/input";
import { consoleLogger } from "../runtime/console-logger";
import { appPool, workspaceServerDefinition } from "../runtime/engine";

/** Connect the caller's (user, server) in the background; a failure lands in the server's status. */
export async function startSavedServer(caller: Actor, serverId: string): Promise<void> {
  const server = await workspaceServerDefinition(getDb(), caller, serverId);
  appPool()
    .discover(caller.id, [server])
    .catch((error: unknown) => consoleLogger.warn("start after save failed", { server: server.name, error: String(error) }));
}

/**
 * Add a server and start it. A stdio server (a program on the host) needs its administrator to have
 * a second factor, whatever the policies (`auth.enrolment_required`).
 */
export async function addAndStartServer(caller: Actor, body: NewServerInput, options: AddOptions = {}) {
  if (transportOf(body.config) === "stdio") await assertFactorForStdio(getDb(), caller);
  const view = await addServerView(getDb(), caller, body, options);
  await startSavedServer(caller, view.id);
  return view;
}

/**
 * Change a server and start it with its new config (the old connection closes). Moving its origin,
 * its credential mode or a secret needs a recent sign-in (`auth.reauth_required`); a stdio config
 * runs a program on the host again, so it needs a second factor as adding one does.
 */
export async function changeAndStartServer(caller: Actor & ReauthActor, id: string, body: ServerInput, catalogVersion?: string) {
  const db = getDb();
  if (body.config && transportOf(body.config) === "stdio") await assertFactorForStdio(db, caller);
  if (await sensitiveServerChange(db, caller, id, body)) await requireRecentAuth(db, caller);
  const view = await changeServerView(db, caller, id, body, catalogVersion);
  await startSavedServer(caller, view.id);
  return view;
}

/** Save the confirmed entries of an import and start each (stdio entries: as `addAndStartServer`). */
export async function importAndStartServers(caller: Actor, request: ImportRequest & { confirm: string[] }) {
  const chosen = (await previewImport(getDb(), caller, request)).servers.filter((entry) => request.confirm.includes(entry.name));
  if (chosen.some((entry) => entry.needsConsent)) await assertFactorForStdio(getDb(), caller);
  const result = await confirmImport(getDb(), caller, request);
  for (const id of result.created) await startSavedServer(caller, id);
  return result;
}

/** The servers of the caller's workspace (secrets masked). */
export async function workspaceServers(caller: Actor) {
  return await listServers(getDb(), caller);
}

/** One server of the caller's workspace (secrets masked); another workspace's id is a 404. */
export async function savedServer(caller: Actor, id: string) {
  return await serverViewById(getDb(), caller, id);
}

/** The inspector page's server of the caller's workspace (secrets masked), or null when it has no such server. */
export async function inspectedServer(caller: Actor, id: string) {
  const record = await getServerById(getDb(), { id, workspaceId: caller.workspaceId });
  return record ? serverView(record) : null;
}

/** Delete a server (owners/admins); every member's connection to it closes. */
export function removeSavedServer(caller: Actor, id: string): Promise<void> {
  return removeServerNow(getDb(), caller, id, appAccessEffects());
}

/** What an import would create (nothing saved). */
export async function previewServerImport(caller: Actor, request: ImportRequest) {
  return await previewImport(getDb(), caller, request);
}

/** The workspace's servers as an `mcp_servers:` document, secret values as `${input:…}` placeholders. */
export async function exportServers(caller: Actor, format: "yaml" | "json"): Promise<string> {
  return await exportWorkspaceServers(getDb(), caller, format);
}

/** Which per-member keys the server has and which of them the caller filled (never the values). */
export async function memberValues(caller: Actor, serverId: string) {
  return await memberValuesView(getDb(), caller, serverId);
}

/** Set the caller's own values for a server (encrypted per user); the mask keeps a stored value. */
export async function setOwnMemberValues(caller: Actor, serverId: string, values: Record<string, string>) {
  return await setMemberValues(getDb(), caller, serverId, values);
}
