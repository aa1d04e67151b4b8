/**
 * Who may change a server's trust settings and review its held tools, and who may set
 * workspace-wide tool policies. Both follow the workspace roles (docs/workspaces.md).
 */
import type { Db } from "../../db/client";
import { getMembershipRole } from "../../db/queries/workspaces";

/** The caller as these checks need them. */
export interface TrustActor {
  id: string;
  isAdmin: boolean;
  workspaceId: string;
}

/** Workspace owners and admins: the roles that manage the workspace's servers (in a personal workspace, its owner). */
async function managesWorkspace(db: Db, user: TrustActor): Promise<boolean> {
  const role = await getMembershipRole(db, user.workspaceId, user.id);
  return role === "owner" || role === "admin";
}

/** Whoever may mark the server trusted and review its held tools: the workspace's owners and admins. */
export async function canManageServer(db: Db, user: TrustActor): Promise<boolean> {
  return await managesWorkspace(db, user);
}

/** Workspace owners and admins set the policies members cannot loosen. */
export async function canManageWorkspacePolicies(db: Db, user: TrustActor): Promise<boolean> {
  return await managesWorkspace(db, user);
}
