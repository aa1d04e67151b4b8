/**
 * Workspace use cases: list the caller's workspaces, create a team, rename it, delete it (owner
 * only, with everything in it and every live connection to its servers).
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { listMemberIds } from "../../db/queries/memberships";
import { listServersByWorkspace } from "../../db/queries/servers";
import { createTeamWorkspace, deleteTeamWorkspace, listWorkspacesForUser, renameWorkspace, slugTaken } from "../../db/queries/workspaces";
import type { WorkspaceActor } from "../domain/workspace";
import { AppError } from "../errors";
import type { AccessEffects } from "../domain/access-effects";
import { uniqueSlug } from "./slug";
import { withTransaction } from "../../db/transaction";

/** Body of `POST /api/workspaces` and `PATCH /api/workspaces/:id`. */
export const workspaceNameSchema = z.object({ name: z.string().trim().min(1).max(80) }).strict();

/** The caller's workspaces as the API returns them. */
export async function listMyWorkspaces(db: Db, userId: string) {
  return (await listWorkspacesForUser(db, userId)).map((w) => ({
    id: w.id,
    slug: w.slug ?? "personal",
    name: w.name,
    role: w.role,
    personal: w.personal,
  }));
}

/** One workspace as the API returns it, with the caller's role. */
export function workspaceView(actor: WorkspaceActor) {
  const w = actor.workspace;
  return { id: w.id, slug: w.slug ?? "personal", name: w.name, role: actor.role, personal: w.personal };
}

/** Create a team workspace owned by the caller, with a unique slug from its name. */
export async function createWorkspace(db: Db, userId: string, name: string) {
  // The free slug is chosen and taken in one transaction: two creations of one name at once would
  // otherwise both find the same slug free (the lookups are async) and the second would fail.
  const { slug, workspace } = await withTransaction(db, async (tx) => {
    const slug = await uniqueSlug(name, async (s) => await slugTaken(tx, s));
    return { slug, workspace: await createTeamWorkspace(tx, { name, slug, ownerId: userId }) };
  });
  await recordAudit(db, { actorId: userId, workspaceId: workspace.id, action: "workspace.create", target: workspace.id, detail: { name } });
  return { id: workspace.id, slug, name: workspace.name };
}

/** Rename (owners only: the caller must come from `requireWorkspaceById(…, {role: "owner"})`). */
export async function renameTeamWorkspace(db: Db, actor: WorkspaceActor, name: string) {
  await renameWorkspace(db, actor.workspaceId, name);
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "workspace.rename",
    target: actor.workspaceId,
    detail: { name },
  });
  return { id: actor.workspaceId, slug: actor.workspace.slug ?? "personal", name };
}

/**
 * Delete a team workspace (owners only): its servers, credentials, chats and invitations go with
 * it, every member's live connection to its servers is closed and running turns stop. Returns who
 * the members were, so their open pages can be told.
 */
export async function deleteWorkspace(db: Db, actor: WorkspaceActor, effects: AccessEffects): Promise<{ memberIds: string[] }> {
  if (actor.workspace.personal) throw new AppError("auth.forbidden", "A personal workspace cannot be deleted.");
  const memberIds = await listMemberIds(db, actor.workspaceId);
  const serverIds = (await listServersByWorkspace(db, actor.workspaceId)).map((s) => s.id);
  await effects.stopTurns(null, actor.workspaceId);
  if (!(await deleteTeamWorkspace(db, actor.workspaceId))) throw new AppError("workspace.not_found", "No such workspace.");
  await effects.closeConnections(null, serverIds);
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "workspace.delete",
    target: actor.workspaceId,
    detail: { name: actor.workspace.name },
  });
  return { memberIds };
}
