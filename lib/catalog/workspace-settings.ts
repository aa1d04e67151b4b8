/**
 * A workspace's catalog setting (docs/catalog.md#who-adds): whether its members, not only its owners
 * and admins, may add remote servers from the catalog. Off by default; stdio entries stay for
 * instance administrators whatever it says. Members read it; owners and admins change it.
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { getCatalogMembersAdd, saveCatalogMembersAdd } from "../../db/queries/workspace-settings";
import { getMembershipRole } from "../../db/queries/workspaces";
import { AppError } from "../errors";

/** Body of `PUT /api/settings/catalog`. */
export const catalogSettingsSchema = z.object({ membersAddRemote: z.boolean() }).strict();

/** Who reads or changes it: a user in a workspace. */
export interface CatalogSettingsActor {
  id: string;
  workspaceId: string;
}

/** Whether members may add remote catalog entries in this workspace (false when never set). */
export async function membersAddFromCatalog(db: Db, workspaceId: string): Promise<boolean> {
  return getCatalogMembersAdd(db, workspaceId);
}

/** The setting, and whether the caller may change it (owners and admins). */
export async function catalogSettingsView(db: Db, actor: CatalogSettingsActor) {
  const role = await getMembershipRole(db, actor.workspaceId, actor.id);
  return { membersAddRemote: await membersAddFromCatalog(db, actor.workspaceId), canChange: role === "owner" || role === "admin" };
}

/** Turn it on or off (owners and admins, checked here on the membership); audited as `workspace.catalog_members`. */
export async function setCatalogSettings(db: Db, actor: CatalogSettingsActor, input: z.infer<typeof catalogSettingsSchema>) {
  const role = await getMembershipRole(db, actor.workspaceId, actor.id);
  if (role !== "owner" && role !== "admin")
    throw new AppError("auth.forbidden", "Only workspace owners and admins can change who adds servers from the catalog.");
  await saveCatalogMembersAdd(db, actor.workspaceId, input.membersAddRemote, actor.id);
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "workspace.catalog_members",
    target: actor.workspaceId,
    detail: { membersAddRemote: input.membersAddRemote },
  });
  return await catalogSettingsView(db, actor);
}
