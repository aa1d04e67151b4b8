/** Workspaces and memberships. */
import { and, eq } from "drizzle-orm";
import type { Db } from "../client";
import { memberships, workspaces } from "../schema";

/** A role inside a workspace. */
export type WorkspaceRole = "owner" | "admin" | "member";

/** The user's personal workspace id. */
export function getPersonalWorkspaceId(db: Db, userId: string): string | null {
  return db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.personalOwnerId, userId)).get()?.id ?? null;
}

/** The user's role in a workspace, or null when they are not a member. */
export function getMembershipRole(db: Db, workspaceId: string, userId: string): WorkspaceRole | null {
  return (
    db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
      .get()?.role ?? null
  );
}

/** Every workspace the user belongs to, with their role. */
export function listWorkspacesForUser(db: Db, userId: string) {
  return db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role, personal: workspaces.personalOwnerId })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .all();
}
