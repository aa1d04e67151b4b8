/**
 * Which workspace a request names and the caller's role in it, read on every API request. Cached
 * per (user, workspace named) only until the next change to users, workspaces or memberships
 * (db/generation.ts): a removal or a role change holds from the very next request.
 */
import type { Db } from "../../db/client";
import { generationOf } from "../../db/generation";
import {
  getMembershipRole,
  getPersonalWorkspaceId,
  getWorkspaceById,
  getWorkspaceBySlug,
  PERSONAL_SLUG,
} from "../../db/queries/workspaces";
import type { WorkspaceRecord, WorkspaceRole } from "../domain/workspace";
import { LookupCache } from "../lookup-cache";

/** How a request names its workspace: by id, by URL slug, or not at all (the personal one). */
export type WorkspaceHint = { id: string } | { slug: string } | null;

/** A workspace and the caller's role in it. */
export interface Membership {
  workspace: WorkspaceRecord;
  role: WorkspaceRole;
}

// Keyed by the user first: one user's answer is never another's.
const cache = new LookupCache<Membership>(10_000);

async function load(db: Db, userId: string, hint: WorkspaceHint): Promise<Membership | null> {
  let workspace: WorkspaceRecord | null;
  if (!hint || ("slug" in hint && hint.slug === PERSONAL_SLUG)) {
    workspace = await getWorkspaceById(db, (await getPersonalWorkspaceId(db, userId)) ?? "");
  } else {
    workspace = "id" in hint ? await getWorkspaceById(db, hint.id) : await getWorkspaceBySlug(db, hint.slug);
  }
  const role = workspace && (await getMembershipRole(db, workspace.id, userId));
  return workspace && role ? { workspace, role } : null;
}

/** The workspace `hint` names and `userId`'s role there, or null when it does not exist or they are no member. */
export async function membershipOf(db: Db, userId: string, hint: WorkspaceHint): Promise<Membership | null> {
  const named =
    !hint || ("slug" in hint && hint.slug === PERSONAL_SLUG) ? "personal" : "id" in hint ? `id:${hint.id}` : `slug:${hint.slug}`;
  return await cache.readAsync(`${userId}\u0000${named}`, generationOf(db), async () => await load(db, userId, hint));
}
