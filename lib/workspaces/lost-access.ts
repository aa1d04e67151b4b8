/**
 * Why a request lost the access it had: the person was removed from the workspace (or left it), or
 * their role was lowered below what the action needs. Read from the audit log only when a request
 * is refused, so the answer can say who did it and when ("You were removed from Acme by Ada on …").
 * Someone who was never a member learns nothing: they still get `workspace.not_found`.
 */
import type { Db } from "../../db/client";
import { type AccessChange, latestAccessChange } from "../../db/queries/access-history";
import { getWorkspaceById, getWorkspaceBySlug, PERSONAL_SLUG } from "../../db/queries/workspaces";
import type { WorkspaceRecord, WorkspaceRole } from "../domain/workspace";
import { AppError } from "../errors";
import type { WorkspaceHint } from "./membership-lookup";

const WHEN = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

/** A moment as the explanations write it: "27 Nov 2026, 01:50 UTC" (the same for every reader). */
export function accessChangeTime(at: Date): string {
  return `${WHEN.format(at)} UTC`;
}

function byWhom(change: AccessChange): string {
  return change.actorName ? ` by ${change.actorName}` : "";
}

async function namedWorkspace(db: Db, hint: WorkspaceHint): Promise<WorkspaceRecord | null> {
  if (!hint || ("slug" in hint && hint.slug === PERSONAL_SLUG)) return null;
  const workspace = "id" in hint ? await getWorkspaceById(db, hint.id) : await getWorkspaceBySlug(db, hint.slug);
  return workspace && !workspace.personal ? workspace : null;
}

/**
 * The `workspace.removed` error for a person no longer in the workspace `hint` names, when the
 * audit log says they were removed or left; null otherwise (never a member, or no such workspace).
 */
export async function lostMembershipError(db: Db, userId: string, hint: WorkspaceHint): Promise<AppError | null> {
  const workspace = await namedWorkspace(db, hint);
  if (!workspace) return null;
  const change = await latestAccessChange(db, { workspaceId: workspace.id, userId });
  if (!change || change.action === "member.role") return null;
  const when = accessChangeTime(change.createdAt);
  const message =
    change.action === "member.leave"
      ? `You left ${workspace.name} on ${when}. Ask one of its owners or admins for a new invitation to come back.`
      : `You were removed from ${workspace.name}${byWhom(change)} on ${when}. Its chats and servers are no longer available to you; ask one of its owners or admins if you need them back.`;
  return new AppError("workspace.removed", message);
}

/**
 * The `workspace.role_changed` error for a person whose role is below `least` because it was
 * lowered (the audit log's latest role change brought them to `role`); null when it never was.
 */
export async function loweredRoleError(
  db: Db,
  userId: string,
  workspace: WorkspaceRecord,
  role: WorkspaceRole,
  least: WorkspaceRole,
): Promise<AppError | null> {
  if (workspace.personal) return null;
  const change = await latestAccessChange(db, { workspaceId: workspace.id, userId });
  const detail = change?.detail as { from?: string; to?: string } | null | undefined;
  if (change?.action !== "member.role" || detail?.to !== role || !detail.from) return null;
  return new AppError(
    "workspace.role_changed",
    `Your role in ${workspace.name} was changed from ${detail.from} to ${role}${byWhom(change)} on ${accessChangeTime(change.createdAt)}; this needs the ${least} role. Ask an owner if you need it back.`,
  );
}

const ORDER: readonly WorkspaceRole[] = ["member", "admin", "owner"];

/**
 * What a demoted member's open pages say at once (the live `membership` event): "Your role in Acme
 * was changed from admin to member by Ada on …". Null when the latest change of `userId` in the
 * workspace is not a lowered role (a promotion needs no explanation).
 */
export async function loweredRoleNotice(db: Db, userId: string, workspace: WorkspaceRecord): Promise<string | null> {
  if (workspace.personal) return null;
  const change = await latestAccessChange(db, { workspaceId: workspace.id, userId });
  const detail = change?.detail as { from?: WorkspaceRole; to?: WorkspaceRole } | null | undefined;
  if (change?.action !== "member.role" || !detail?.from || !detail.to) return null;
  if (ORDER.indexOf(detail.to) >= ORDER.indexOf(detail.from)) return null;
  return `Your role in ${workspace.name} was changed from ${detail.from} to ${detail.to}${byWhom(change)} on ${accessChangeTime(change.createdAt)}. Its pages now offer what a ${detail.to} can do; ask an owner if you need the ${detail.from} role back.`;
}

/** What the open pages of a deleted workspace's members say: "Acme was deleted by Ada on …". */
export function workspaceDeletedNotice(name: string, actorName: string | null, at: Date): string {
  const by = actorName ? ` by ${actorName}` : "";
  return `${name} was deleted${by} on ${accessChangeTime(at)}, with its servers and chats. Your other workspaces are as they were.`;
}
