/** Workspaces: personal and team ones, looked up by id or slug, with the caller's role. */
import { and, asc, count, eq, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { memberships, users, workspaces } from "../schema";
import { bumpGeneration } from "../generation";
import type { WorkspaceRecord, WorkspaceRole } from "../../lib/domain/workspace";
import { gated, stepTransaction, write } from "../transaction";
import { all, exec, one } from "../exec";

/** The slug that always names the caller's own personal workspace in URLs. */
export const PERSONAL_SLUG = "personal";

const columns = { id: workspaces.id, name: workspaces.name, slug: workspaces.slug, owner: workspaces.personalOwnerId };
const toRecord = (row: { id: string; name: string; slug: string | null; owner: string | null }): WorkspaceRecord => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  personal: row.owner !== null,
});

/** The user's personal workspace id. */
export async function getPersonalWorkspaceId(db: Db, userId: string): Promise<string | null> {
  return gated(db, async () => {
    return (await one(db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.personalOwnerId, userId))))?.id ?? null;
  });
}

/** The user's role in a workspace, or null when they are not a member. */
export async function getMembershipRole(db: Db, workspaceId: string, userId: string): Promise<WorkspaceRole | null> {
  return gated(db, async () => {
    return (
      (
        await one(
          db
            .select({ role: memberships.role })
            .from(memberships)
            .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId))),
        )
      )?.role ?? null
    );
  });
}

/** Every workspace the user belongs to, with their role (personal first, then by name). */
export async function listWorkspacesForUser(db: Db, userId: string): Promise<(WorkspaceRecord & { role: WorkspaceRole })[]> {
  return gated(db, async () => {
    return (
      await all(
        db
          .select({ ...columns, role: memberships.role })
          .from(memberships)
          .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
          .where(eq(memberships.userId, userId))
          .orderBy(asc(workspaces.name)),
      )
    )
      .map((row) => ({ ...toRecord(row), role: row.role }))
      .sort((a, b) => Number(b.personal) - Number(a.personal));
  });
}

/** One workspace by id, or null. */
export async function getWorkspaceById(db: Db, id: string): Promise<WorkspaceRecord | null> {
  return gated(db, async () => {
    const row = await one(db.select(columns).from(workspaces).where(eq(workspaces.id, id)));
    return row ? toRecord(row) : null;
  });
}

/** One team workspace by slug, or null. */
export async function getWorkspaceBySlug(db: Db, slug: string): Promise<WorkspaceRecord | null> {
  return gated(db, async () => {
    const row = await one(db.select(columns).from(workspaces).where(eq(workspaces.slug, slug)));
    return row ? toRecord(row) : null;
  });
}

/** Whether a slug is already taken by a workspace. */
export async function slugTaken(db: Db, slug: string): Promise<boolean> {
  return gated(db, async () => {
    return !!(await one(db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.slug, slug))));
  });
}

/** Create a team workspace with its creator as owner (one transaction). */
export async function createTeamWorkspace(db: Db, input: { name: string; slug: string; ownerId: string }): Promise<WorkspaceRecord> {
  return gated(db, async () => {
    bumpGeneration();
    return stepTransaction(db, function* (tx) {
      const id = newId();
      yield* write(tx.insert(workspaces).values({ id, name: input.name, slug: input.slug }));
      yield* write(tx.insert(memberships).values({ workspaceId: id, userId: input.ownerId, role: "owner" }));
      return { id, name: input.name, slug: input.slug, personal: false };
    });
  });
}

/** Rename a workspace. */
export async function renameWorkspace(db: Db, id: string, name: string): Promise<void> {
  return gated(db, async () => {
    bumpGeneration();
    await exec(db.update(workspaces).set({ name }).where(eq(workspaces.id, id)));
  });
}

/** Delete a team workspace; servers, credentials, chats and memberships cascade. */
export async function deleteTeamWorkspace(db: Db, id: string): Promise<boolean> {
  return gated(db, async () => {
    bumpGeneration();
    return (await exec(db.delete(workspaces).where(and(eq(workspaces.id, id), isNull(workspaces.personalOwnerId))))) > 0;
  });
}

/** Every workspace's owners by name and email, for instance administration (`workspaceId` → owners, by name). */
export async function listWorkspaceOwners(db: Db): Promise<Map<string, { name: string; email: string }[]>> {
  return gated(db, async () => {
    const rows = await all(
      db
        .select({ workspaceId: memberships.workspaceId, name: users.name, email: users.email })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(eq(memberships.role, "owner"))
        .orderBy(asc(users.name)),
    );
    const owners = new Map<string, { name: string; email: string }[]>();
    for (const { workspaceId, name, email } of rows) owners.set(workspaceId, [...(owners.get(workspaceId) ?? []), { name, email }]);
    return owners;
  });
}

/** Every workspace of the instance with its member count (instance administration). */
export async function listAllWorkspaces(db: Db) {
  return gated(db, async () => {
    return (
      await all(
        db
          .select({ ...columns, members: count(memberships.userId) })
          .from(workspaces)
          .leftJoin(memberships, eq(memberships.workspaceId, workspaces.id))
          .groupBy(workspaces.id)
          .orderBy(asc(workspaces.name)),
      )
    ).map((row) => ({ ...toRecord(row), members: row.members }));
  });
}
