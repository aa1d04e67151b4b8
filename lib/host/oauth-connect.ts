/**
 * Connect and Disconnect of a workspace server for the caller. On a `shared` server only owners
 * and admins connect, and the one who connects becomes the account every member's calls use; on
 * a `per_member` server each member connects their own account.
 */
import "server-only";
import { getDb } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { getServerByIdUnscoped, getSharedCredentialsUserId, setSharedCredentialsUserId } from "../../db/queries/servers";
import type { WorkspaceRole } from "../../db/queries/workspaces";
import { hasRole } from "../auth/workspace";
import { AppError } from "../errors";
import type { ServerDefinition } from "../mcp";
import { appOAuthDeps } from "../oauth/app-deps";
import { beginAuthorization, disconnect } from "../oauth/web-flow";
import { credentialModeOf } from "../servers/credential-mode";
import { appPool, memberServerDefinition, workspaceServerDefinition } from "./engine";

/** The caller of Connect/Disconnect. */
interface Caller {
  id: string;
  workspaceId: string;
  role: WorkspaceRole;
}

function sharedServerGuard(caller: Caller, server: ServerDefinition): boolean {
  if (credentialModeOf(server.config) !== "shared") return false;
  if (!hasRole(caller.role, "admin")) throw new AppError("forbidden", "An owner or admin connects this shared server for everyone.");
  return true;
}

/** Start the caller's authorization: `{status: "redirect", url}` or `{status: "authorized"}`. */
export async function connectServer(caller: Caller, serverId: string) {
  const db = getDb();
  const server = workspaceServerDefinition(db, caller, serverId);
  const shared = sharedServerGuard(caller, server);
  if (shared) {
    // From now on members' calls use this admin's tokens (once the authorization completes).
    setSharedCredentialsUserId(db, { id: serverId, workspaceId: caller.workspaceId }, caller.id);
    recordAudit(db, { actorId: caller.id, workspaceId: caller.workspaceId, action: "server.shared_connect", target: serverId });
  }
  const result = await beginAuthorization(appOAuthDeps(), caller.id, server);
  if (result.status === "authorized") await afterAuthorized(caller.id, server);
  return result;
}

/** Revoke (where supported) and forget the tokens this server uses for the caller, and close. */
export async function disconnectServer(caller: Caller, serverId: string) {
  const db = getDb();
  const server = workspaceServerDefinition(db, caller, serverId);
  const pool = appPool();
  if (sharedServerGuard(caller, server)) {
    const owner = getSharedCredentialsUserId(db, serverId) ?? caller.id;
    const result = await disconnect(appOAuthDeps(), owner, server);
    setSharedCredentialsUserId(db, { id: serverId, workspaceId: caller.workspaceId }, null);
    await pool.closeServer(serverId);
    recordAudit(db, { actorId: caller.id, workspaceId: caller.workspaceId, action: "server.shared_disconnect", target: serverId });
    return { ...result, status: pool.status(caller.id, server) };
  }
  const result = await disconnect(appOAuthDeps(), caller.id, server);
  await pool.close(caller.id, serverId);
  return { ...result, status: pool.status(caller.id, server) };
}

/** The server the OAuth callback completes for `userId` (any workspace they belong to), or null. */
export function callbackServer(userId: string | null, serverId: string): ServerDefinition | null {
  return userId ? memberServerDefinition(getDb(), userId, serverId) : null;
}

/**
 * After an authorization: reconnect the user; for a shared server whose account this is, every
 * member's connection is closed so their next call uses the new tokens.
 */
export async function afterAuthorized(userId: string, server: ServerDefinition): Promise<void> {
  const db = getDb();
  const record = getServerByIdUnscoped(db, server.id);
  if (record && credentialModeOf(record.config) === "shared" && record.sharedCredentialsUserId === userId)
    await appPool().closeServer(server.id);
  await appPool().reconnect(userId, server);
}
