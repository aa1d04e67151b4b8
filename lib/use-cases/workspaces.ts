/**
 * The workspace's use cases: the caller's workspaces, renaming and deleting one, its members,
 * invitations, tool-search and default-model settings, and its audit log. Each binds the database
 * handle (and the process's access effects) for lib/workspaces, lib/agent and lib/models.
 */
import "server-only";
import { requireRecentAuth } from "../auth/reauth";
import type { z } from "zod";
import { getDb } from "../../db/client";
import { getToolSearchSettings, setToolSearchSettings, type toolSearchSettingsSchema } from "../agent/tool-search-settings";
import type { SessionUser } from "../auth/session";
import type { WorkspaceCaller } from "../auth/workspace";
import { setWorkspaceModel, workspaceModelView } from "../models/workspace-default";
import type { modelSettingsSchema } from "../models/settings-service";
import { requestPublicOrigin } from "../security/public-url";
import { type auditQuerySchema, auditPage } from "../workspaces/admin";
import {
  acceptInvitation as acceptInvitationIn,
  createInvitation,
  describeInvitation,
  type invitationRegisterSchema,
  listInvitations,
  registerWithInvitation,
  revokeWorkspaceInvitation,
} from "../workspaces/invitations";
import { changeMemberRole, listWorkspaceMembers, removeMember } from "../workspaces/members";
import { loweredRoleNotice, workspaceDeletedNotice } from "../workspaces/lost-access";
import { createWorkspace, deleteWorkspace, listMyWorkspaces, renameTeamWorkspace } from "../workspaces/service";
import { publishMembership } from "../runtime/status-events";
import { appAccessEffects } from "./access-effects";

export { toolSearchSettingsSchema } from "../agent/tool-search-settings";
export { modelSettingsSchema } from "../models/settings-service";
export { auditQuerySchema } from "../workspaces/admin";
export { invitationRegisterSchema, invitationSchema } from "../workspaces/invitations";
export { memberRoleSchema } from "../workspaces/members";
export { workspaceNameSchema, workspaceView } from "../workspaces/service";

/** The user's workspaces: `[{id, slug, name, role, personal}]`. */
export async function myWorkspaces(userId: string) {
  return await listMyWorkspaces(getDb(), userId);
}

/** Create a team workspace owned by the user. */
export async function newWorkspace(userId: string, name: string) {
  return await createWorkspace(getDb(), userId, name);
}

/** Rename a team workspace (owners). */
export async function renameWorkspace(caller: WorkspaceCaller, name: string) {
  return await renameTeamWorkspace(getDb(), caller, name);
}

/**
 * Delete the workspace with its servers, credentials and chats, closing its live connections
 * (owners). Every other member's open pages of it say who deleted it and when (the event stream).
 */
export async function removeWorkspace(caller: WorkspaceCaller): Promise<void> {
  const { memberIds } = await deleteWorkspace(getDb(), caller, appAccessEffects());
  const message = workspaceDeletedNotice(caller.workspace.name, caller.name, new Date());
  for (const userId of memberIds) {
    // The owner who deleted it is already leaving its pages; their switcher still updates.
    const notice = userId === caller.id ? undefined : { code: "workspace.deleted" as const, message };
    publishMembership(userId, caller.workspaceId, notice);
  }
}

/** The workspace's members with their roles. */
export async function workspaceMembers(caller: WorkspaceCaller) {
  return await listWorkspaceMembers(getDb(), caller);
}

/**
 * Change a member's role; a demotion takes effect at once, and the member's open pages say so.
 * Needs a recent sign-in (`auth.reauth_required`): roles are a sensitive act.
 */
export async function setMemberRole(caller: WorkspaceCaller, userId: string, role: "owner" | "admin" | "member") {
  const db = getDb();
  await requireRecentAuth(db, caller);
  const changed = await changeMemberRole(db, caller, userId, role, appAccessEffects());
  const lowered = await loweredRoleNotice(db, userId, caller.workspace);
  publishMembership(userId, caller.workspaceId, lowered ? { code: "workspace.role_changed", message: lowered } : undefined);
  return changed;
}

/** Remove a member: their connections to the workspace's servers close, their pending requests end. */
export async function removeWorkspaceMember(caller: WorkspaceCaller, userId: string): Promise<void> {
  await removeMember(getDb(), caller, userId, appAccessEffects());
  publishMembership(userId, caller.workspaceId);
}

/** The workspace's pending invitations (never their tokens). */
export async function workspaceInvitations(caller: WorkspaceCaller) {
  return await listInvitations(getDb(), caller);
}

/** Invite `{email, role}`; the link, on the origin the request came to, is shown once. */
export async function inviteToWorkspace(
  caller: WorkspaceCaller,
  input: { email: string; role: "owner" | "admin" | "member" },
  request: Request,
) {
  return await createInvitation(getDb(), caller, input, { baseUrl: requestPublicOrigin(request) });
}

/** Revoke a pending invitation of the workspace. */
export async function revokeInvitation(caller: WorkspaceCaller, invitationId: string): Promise<void> {
  await revokeWorkspaceInvitation(getDb(), caller, invitationId);
}

/** What an invitation link offers (workspace, role, email), or an AppError when it is not usable. */
export async function invitationByToken(token: string) {
  return await describeInvitation(getDb(), token);
}

/** Accept an invitation addressed to the signed-in user. */
export async function acceptInvitation(user: SessionUser, token: string) {
  const joined = await acceptInvitationIn(getDb(), user, token);
  if (joined.workspaceId) publishMembership(user.id, joined.workspaceId);
  return joined;
}

/** Create the invited account and its membership in one step (the token is the permission). */
export function registerByInvitation(token: string, body: z.infer<typeof invitationRegisterSchema>) {
  return registerWithInvitation(getDb(), token, body);
}

/** The workspace's tool-search settings. */
export async function workspaceToolSearch(caller: WorkspaceCaller) {
  return await getToolSearchSettings(getDb(), caller.workspaceId);
}

/** Change the workspace's tool-search settings (admins). */
export async function setWorkspaceToolSearch(caller: WorkspaceCaller, input: z.infer<typeof toolSearchSettingsSchema>) {
  return await setToolSearchSettings(getDb(), caller, input);
}

/** The workspace's default model (key masked). */
export async function workspaceModel(caller: WorkspaceCaller) {
  return await workspaceModelView(getDb(), caller.workspaceId);
}

/** Change the workspace's default model (admins). */
export async function setWorkspaceDefaultModel(caller: WorkspaceCaller, input: z.infer<typeof modelSettingsSchema>) {
  return await setWorkspaceModel(getDb(), caller, input);
}

/** One page of the workspace's audit log. */
export async function workspaceAudit(caller: WorkspaceCaller, query: z.infer<typeof auditQuerySchema>) {
  return await auditPage(getDb(), query, { workspaceId: caller.workspaceId });
}
