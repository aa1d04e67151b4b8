/**
 * Connect and Disconnect rules for workspace servers, storage side. On a `per_member` server each
 * member connects their own account. A `shared` server uses one account for everyone, and only an
 * explicit "Connect for everyone" by an owner or admin provides it: their tokens for the team are
 * stored apart from their own (lib/oauth/web/for-everyone.ts) and adopted when the flow completes.
 */
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { setSharedCredentialsUserId, type ServerRecord } from "../../db/queries/servers";
import type { WorkspaceRole } from "../domain/workspace";
import { AppError } from "../errors";
import type { ServerDefinition } from "../mcp/config";
import type { OAuthDeps } from "../oauth/web/deps";
import { beginAuthorization, disconnect } from "../oauth/web/flow";
import { forEveryoneDeps } from "../oauth/web/for-everyone";
import { credentialAccountFor, credentialModeOf } from "./credential-mode";

/** The caller of Connect/Disconnect inside a workspace. */
export interface ConnectCaller {
  id: string;
  workspaceId: string;
  role: WorkspaceRole;
}

/** Options of `beginConnect`. */
export interface ConnectOptions {
  /** Connect the caller's account for every member of a `shared` server. Default false. */
  forEveryone?: boolean;
}

/** Whether `role` may connect or disconnect a shared server for everyone (owners and admins). */
export function mayConnectForEveryone(role: WorkspaceRole | null): boolean {
  return role === "owner" || role === "admin";
}

function assertSharedManager(caller: ConnectCaller): void {
  if (!mayConnectForEveryone(caller.role))
    throw new AppError("auth.forbidden", "An owner or admin connects this shared server for everyone.");
}

/**
 * Start the caller's authorization. With `forEveryone` (shared servers, owners/admins) the tokens
 * go to the caller's shared slot; a plain Connect of a shared server is refused, since its calls
 * never use anyone's own tokens.
 */
export async function beginConnect(db: Db, deps: OAuthDeps, caller: ConnectCaller, server: ServerDefinition, options: ConnectOptions = {}) {
  const shared = credentialModeOf(server.config) === "shared";
  if (options.forEveryone) {
    if (!shared) throw new AppError("request.invalid", "Connect for everyone is only for servers whose credentials are shared.");
    assertSharedManager(caller);
    const result = await beginAuthorization(forEveryoneDeps(deps), caller.id, server);
    // No redirect needed (the AS granted at once): the tokens are stored, adopt them now.
    if (result.status === "authorized") await adoptSharedAccount(db, caller.id, { id: server.id, workspaceId: caller.workspaceId });
    return result;
  }
  if (shared) {
    assertSharedManager(caller);
    throw new AppError("request.invalid", "This server uses one account for everyone: use Connect for everyone.");
  }
  return beginAuthorization(deps, caller.id, server);
}

/**
 * A Connect for everyone completed: from now on every member's calls use `userId`'s shared tokens
 * (any other person's shared tokens for the server are forgotten). Audited.
 */
export async function adoptSharedAccount(db: Db, userId: string, server: Pick<ServerRecord, "id" | "workspaceId">): Promise<void> {
  await setSharedCredentialsUserId(db, server, userId);
  await recordAudit(db, { actorId: userId, workspaceId: server.workspaceId, action: "server.shared_connect", target: server.id });
}

/**
 * Revoke (where supported) and forget the tokens the server uses for the caller; on a shared
 * server (owners/admins only) those are the shared account's tokens for everyone, and then nobody's
 * account is used any more. Returns whether every member's connection must close (`shared`).
 */
export async function endConnect(db: Db, deps: OAuthDeps, caller: ConnectCaller, server: ServerDefinition) {
  if (credentialModeOf(server.config) !== "shared") return { ...(await disconnect(deps, caller.id, server)), shared: false };
  assertSharedManager(caller);
  const result = await disconnect(forEveryoneDeps(deps), (await credentialAccountFor(db, caller.id, server)).userId, server);
  await setSharedCredentialsUserId(db, { id: server.id, workspaceId: caller.workspaceId }, null);
  await recordAudit(db, { actorId: caller.id, workspaceId: caller.workspaceId, action: "server.shared_disconnect", target: server.id });
  return { ...result, shared: true };
}
