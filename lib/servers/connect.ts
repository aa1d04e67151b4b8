/**
 * Connect and Disconnect rules for workspace servers, storage side. On a `shared` server only
 * owners and admins connect, and whoever connects becomes the account every member's calls use;
 * on a `per_member` server each member connects their own account.
 */
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { setSharedCredentialsUserId } from "../../db/queries/servers";
import type { WorkspaceRole } from "../../db/queries/workspaces";
import { AppError } from "../errors";
import type { ServerDefinition } from "../mcp/config";
import type { OAuthDeps } from "../oauth/web/deps";
import { beginAuthorization, disconnect } from "../oauth/web/flow";
import { credentialModeOf, credentialsUserFor } from "./credential-mode";

/** The caller of Connect/Disconnect inside a workspace. */
export interface ConnectCaller {
  id: string;
  workspaceId: string;
  role: WorkspaceRole;
}

function isSharedFor(caller: ConnectCaller, server: ServerDefinition): boolean {
  if (credentialModeOf(server.config) !== "shared") return false;
  if (caller.role === "member") throw new AppError("auth.forbidden", "An owner or admin connects this shared server for everyone.");
  return true;
}

/**
 * Start the caller's authorization. For a shared server the caller becomes its credentials
 * account first, so the tokens the callback stores are the ones members' calls use.
 */
export async function beginConnect(db: Db, deps: OAuthDeps, caller: ConnectCaller, server: ServerDefinition) {
  if (isSharedFor(caller, server)) {
    setSharedCredentialsUserId(db, { id: server.id, workspaceId: caller.workspaceId }, caller.id);
    recordAudit(db, { actorId: caller.id, workspaceId: caller.workspaceId, action: "server.shared_connect", target: server.id });
  }
  return beginAuthorization(deps, caller.id, server);
}

/**
 * Revoke (where supported) and forget the tokens the server uses for the caller; on a shared
 * server those are the connecting admin's, and then nobody's account is used any more.
 * Returns whether every member's connection must close (`shared`).
 */
export async function endConnect(db: Db, deps: OAuthDeps, caller: ConnectCaller, server: ServerDefinition) {
  if (!isSharedFor(caller, server)) return { ...(await disconnect(deps, caller.id, server)), shared: false };
  const result = await disconnect(deps, credentialsUserFor(db, caller.id, server), server);
  setSharedCredentialsUserId(db, { id: server.id, workspaceId: caller.workspaceId }, null);
  recordAudit(db, { actorId: caller.id, workspaceId: caller.workspaceId, action: "server.shared_disconnect", target: server.id });
  return { ...result, shared: true };
}
