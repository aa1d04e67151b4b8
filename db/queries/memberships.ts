/** Memberships: who belongs to a workspace, with which role. */
import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "../client";
import { memberships, users } from "../schema";
import type { WorkspaceRole } from "../../lib/domain/workspace";
import { bumpGeneration } from "../generation";
import { gated } from "../transaction";
import { all, exec, one } from "../exec";

/** A member as listed to the workspace's members (never a password hash). */
export interface MemberRecord {
  userId: string;
  email: string;
  name: string;
  role: WorkspaceRole;
  joinedAt: Date;
}

/** Members of a workspace, by name. */
export async function listMembers(db: Db, workspaceId: string): Promise<MemberRecord[]> {
  return gated(db, async () => {
    return await all(
      db
        .select({ userId: users.id, email: users.email, name: users.name, role: memberships.role, joinedAt: memberships.createdAt })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(eq(memberships.workspaceId, workspaceId))
        .orderBy(asc(users.name)),
    );
  });
}

/** User ids of every member of a workspace. */
export async function listMemberIds(db: Db, workspaceId: string): Promise<string[]> {
  return gated(db, async () => {
    return (await all(db.select({ id: memberships.userId }).from(memberships).where(eq(memberships.workspaceId, workspaceId)))).map(
      (r) => r.id,
    );
  });
}

/** How many owners a workspace has. */
export async function countOwners(db: Db, workspaceId: string): Promise<number> {
  return gated(db, async () => {
    return (
      (
        await one(
          db
            .select({ n: count() })
            .from(memberships)
            .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, "owner"))),
        )
      )?.n ?? 0
    );
  });
}

/** Add a member, or change the role of an existing one. */
export async function upsertMembership(db: Db, input: { workspaceId: string; userId: string; role: WorkspaceRole }): Promise<void> {
  return gated(db, async () => {
    bumpGeneration();
    await exec(
      db
        .insert(memberships)
        .values(input)
        .onConflictDoUpdate({ target: [memberships.workspaceId, memberships.userId], set: { role: input.role } }),
    );
  });
}

/** Change a member's role; false when they are not a member. */
export async function setMembershipRole(db: Db, input: { workspaceId: string; userId: string; role: WorkspaceRole }): Promise<boolean> {
  return gated(db, async () => {
    bumpGeneration();
    return (
      (await exec(
        db
          .update(memberships)
          .set({ role: input.role })
          .where(and(eq(memberships.workspaceId, input.workspaceId), eq(memberships.userId, input.userId))),
      )) > 0
    );
  });
}

/** Remove a member; false when they were not one. */
export async function deleteMembership(db: Db, ref: { workspaceId: string; userId: string }): Promise<boolean> {
  return gated(db, async () => {
    bumpGeneration();
    return (
      (await exec(db.delete(memberships).where(and(eq(memberships.workspaceId, ref.workspaceId), eq(memberships.userId, ref.userId))))) > 0
    );
  });
}
