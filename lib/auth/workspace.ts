/**
 * Which workspace a request works on, and may the caller act there. Checked on every request
 * (lib/workspaces/membership-lookup.ts caches the answer only until the next change), so a removal
 * or a role change holds from the very next request.
 */
import "server-only";
import { notFound, redirect } from "next/navigation";
import type { Db } from "../../db/client";
import { PERSONAL_SLUG } from "../../db/queries/workspaces";
import type { WorkspaceRecord, WorkspaceRole } from "../domain/workspace";
import { AppError } from "../errors";
import { WORKSPACE_PATH_HEADER } from "../workspaces/api-path";
import { lostMembershipError, loweredRoleError } from "../workspaces/lost-access";
import { membershipOf, type WorkspaceHint } from "../workspaces/membership-lookup";
import { requirePageUser, requireUser, type SessionUser } from "./session";

/** The header scripts may name the workspace with (by id) instead of the path's `/api/w/<slug>/`. */
export const WORKSPACE_HEADER = "x-workspace-id";

/** The signed-in user acting inside one workspace they belong to. */
export interface WorkspaceCaller extends SessionUser {
  role: WorkspaceRole;
  workspace: WorkspaceRecord;
}

/** Options of `requireWorkspace`. */
export interface RequireWorkspaceOptions {
  /** The least role the action needs (`member` < `admin` < `owner`); default `member`. */
  role?: WorkspaceRole;
}

const RANK: Record<WorkspaceRole, number> = { member: 0, admin: 1, owner: 2 };

/** Whether `role` is at least `least`. */
export function hasRole(role: WorkspaceRole, least: WorkspaceRole): boolean {
  return RANK[role] >= RANK[least];
}

/**
 * The caller and the workspace of this request: the one its path names (`/api/w/<slug>/…`), else
 * the `x-workspace-id` header, else the personal workspace. A workspace the caller is not a member
 * of is a 404 (its existence is not revealed); a role below `options.role` is a 403.
 */
export async function requireWorkspace(db: Db, request: Request, options: RequireWorkspaceOptions = {}): Promise<WorkspaceCaller> {
  const user = await requireUser(db, request);
  return await resolveWorkspace(db, user, workspaceHint(request), options.role ?? "member");
}

/** Like `requireWorkspace` for a workspace named in the path (`/api/workspaces/:id/…`). */
export async function requireWorkspaceById(db: Db, id: string, options: RequireWorkspaceOptions = {}): Promise<WorkspaceCaller> {
  const user = await requireUser(db);
  return await resolveWorkspace(db, user, { id }, options.role ?? "member");
}

/** The signed-in instance administrator, or a 403. */
export async function requireInstanceAdmin(db: Db): Promise<SessionUser> {
  const user = await requireUser(db);
  if (!user.isAdmin) throw new AppError("auth.forbidden", "Only instance administrators can do this.");
  return user;
}

/** The caller inside a workspace named by its URL slug (`personal` is their own), or null when not a member. */
export async function workspaceForSlug(db: Db, user: SessionUser, slug: string): Promise<WorkspaceCaller | null> {
  try {
    return await resolveWorkspace(db, user, { slug }, "member");
  } catch (error) {
    if (error instanceof AppError && (error.code === "workspace.not_found" || error.code === "workspace.removed")) return null;
    throw error;
  }
}

/**
 * A workspace page's caller: redirects to sign-in when signed out, to `/access/<slug>` (which says
 * who removed them and when) for a removed member, 404 for anyone else who is not a member.
 */
export async function requirePageWorkspace(db: Db, slug: string): Promise<WorkspaceCaller> {
  const user = await requirePageUser(db);
  const name = decodeURIComponent(slug);
  const caller = await workspaceForSlug(db, user, name);
  if (caller) return caller;
  if (await lostMembershipError(db, user.id, { slug: name })) redirect(`/access/${encodeURIComponent(name)}`);
  notFound();
}

/** Why the signed-in user lost workspace `slug` (the `workspace.removed` error), or null when they did not. */
export async function lostWorkspaceAccess(db: Db, user: SessionUser, slug: string): Promise<AppError | null> {
  if (await workspaceForSlug(db, user, slug)) return null;
  return await lostMembershipError(db, user.id, { slug });
}

/** The URL slug of a workspace (`personal` for the caller's own). */
export function slugOf(workspace: WorkspaceRecord): string {
  return workspace.personal ? PERSONAL_SLUG : (workspace.slug ?? PERSONAL_SLUG);
}

type Hint = WorkspaceHint;

// The path's workspace (`/api/w/<slug>/…`, handed on by proxy.ts or the direct lane, which drop any
// copy a client sent) wins over the header: a link or a form acts on the workspace it names.
function workspaceHint(request: Request): Hint {
  const fromPath = request.headers.get(WORKSPACE_PATH_HEADER);
  if (fromPath) return { slug: fromPath };
  const header = request.headers.get(WORKSPACE_HEADER)?.trim();
  return header ? { id: header } : null;
}

async function resolveWorkspace(db: Db, user: SessionUser, hint: Hint, least: WorkspaceRole): Promise<WorkspaceCaller> {
  const found = await membershipOf(db, user.id, hint);
  // A former member is told who removed them and when; anyone else learns nothing of the workspace.
  if (!found) throw (await lostMembershipError(db, user.id, hint)) ?? new AppError("workspace.not_found", "No such workspace.");
  const { workspace, role } = found;
  if (!hasRole(role, least))
    throw (
      (await loweredRoleError(db, user.id, workspace, role, least)) ??
      new AppError("auth.forbidden", `This needs the ${least} role in the workspace.`)
    );
  return { ...user, workspaceId: workspace.id, role, workspace };
}
