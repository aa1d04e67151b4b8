/**
 * Who may change a server's trust settings and review its held tools, and who may set
 * workspace-wide tool policies. One function each, so team roles can replace the bodies alone.
 */
import type { Db } from "../../db/client";
import { getMembershipRole } from "../../db/queries/workspaces";

/** The caller as these checks need them. */
export interface TrustActor {
  id: string;
  isAdmin: boolean;
  workspaceId: string;
}

/** Whoever may manage the server: the person who added it, or an instance administrator. */
export function canManageServer(user: Pick<TrustActor, "id" | "isAdmin">, server: { createdBy: string | null }): boolean {
  return user.isAdmin || (server.createdBy !== null && server.createdBy === user.id);
}

/** Workspace owners and admins (and instance administrators) set the policies members cannot loosen. */
export function canManageWorkspacePolicies(db: Db, user: TrustActor): boolean {
  if (user.isAdmin) return true;
  const role = getMembershipRole(db, user.workspaceId, user.id);
  return role === "owner" || role === "admin";
}
