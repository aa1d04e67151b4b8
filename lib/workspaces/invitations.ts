/**
 * Invitations: an owner/admin invites an email with a role; the app makes a single-use link
 * (random token, 7 days, revocable) shown once. Only the token's SHA-256 is stored. Accepting
 * needs the invited email signed in; registering through a link works even with registration closed.
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import {
  getInvitationByTokenHash,
  insertInvitation,
  listPendingInvitations,
  markInvitationAccepted,
  revokeInvitation,
  type InvitationRecord,
} from "../../db/queries/invitations";
import { getMembershipRole, getWorkspaceById } from "../../db/queries/workspaces";
import type { WorkspaceRole } from "../domain/workspace";
import { upsertMembership } from "../../db/queries/memberships";
import { createUserWithWorkspace, getUserById, getUserIdByEmail, normaliseEmail, type UserRecord } from "../../db/queries/users";
import { AppError } from "../errors";
import { hashPassword, passwordRefusal } from "../security/password";
import type { WorkspaceActor } from "../domain/workspace";
import { withTransaction } from "../../db/transaction";

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

/** Body of `POST /api/workspaces/:id/invitations`. */
export const invitationSchema = z
  .object({ email: z.string().trim().email().max(254), role: z.enum(["owner", "admin", "member"]).default("member") })
  .strict();

/** Body of `POST /api/invitations/:token/register`. */
export const invitationRegisterSchema = z.object({ name: z.string().trim().min(1).max(100), password: z.string().max(1000) }).strict();

/** The stored form of a token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The link a token opens (the invitation page). */
export function invitationUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/invite/${token}`;
}

/** Create an invitation (owners may invite owners; admins invite admins and members). */
export async function createInvitation(
  db: Db,
  actor: WorkspaceActor | { id: string; workspaceId: null },
  input: { email: string; role: "owner" | "admin" | "member" },
  options: { baseUrl: string; now?: Date },
) {
  if ("workspace" in actor) {
    if (actor.workspace.personal) throw new AppError("auth.forbidden", "Create a team workspace to invite people.");
    if (input.role === "owner" && actor.role !== "owner") throw new AppError("auth.forbidden", "Only owners can invite owners.");
    // A member's role changes through the member list, where the rules on who may change whom hold;
    // an invitation to them would be a second way around those rules (and a way back in once removed).
    const existing = await getUserIdByEmail(db, input.email);
    if (existing && (await getMembershipRole(db, actor.workspaceId, existing)))
      throw new AppError("invitation.already_member", "This person is already a member; change their role in the member list.", "email");
  }
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const record = await insertInvitation(db, {
    workspaceId: actor.workspaceId,
    email: normaliseEmail(input.email),
    role: input.role,
    tokenHash: hashToken(token),
    invitedBy: actor.id,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
  });
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "invitation.create",
    target: record.id,
    detail: { email: record.email, role: record.role },
  });
  return { id: record.id, token, url: invitationUrl(options.baseUrl, token) };
}

/** Pending invitations of the workspace with who sent each (never their tokens). */
export async function listInvitations(db: Db, actor: WorkspaceActor, now = new Date()) {
  return (await listPendingInvitations(db, actor.workspaceId, now)).map((i) => ({
    id: i.id,
    email: i.email,
    role: i.role,
    invitedBy: i.invitedBy ? { id: i.invitedBy, name: i.inviterName } : null,
    expiresAt: i.expiresAt.toISOString(),
    createdAt: i.createdAt.toISOString(),
  }));
}

/** Revoke a pending invitation of the workspace, or 404. */
export async function revokeWorkspaceInvitation(db: Db, actor: WorkspaceActor, invitationId: string, now = new Date()): Promise<void> {
  if (!(await revokeInvitation(db, { id: invitationId, workspaceId: actor.workspaceId }, now)))
    throw new AppError("invitation.not_found", "No such pending invitation.");
  await recordAudit(db, { actorId: actor.id, workspaceId: actor.workspaceId, action: "invitation.revoke", target: invitationId });
}

/** The invitation behind a token if it can still be used; otherwise an error saying why. */
export async function usableInvitation(db: Db, token: string, now = new Date()): Promise<InvitationRecord> {
  const invitation = await getInvitationByTokenHash(db, hashToken(token));
  if (!invitation) throw new AppError("invitation.not_found", "This invitation link is not valid.");
  if (invitation.revokedAt) throw new AppError("invitation.used", "This invitation was revoked.");
  if (invitation.acceptedAt) throw new AppError("invitation.used", "This invitation was already used.");
  if (invitation.expiresAt <= now) throw new AppError("invitation.expired", "This invitation has expired; ask for a new one.");
  return invitation;
}

/** What the invitation page shows before accepting: the workspace, the invited email and the role. */
export async function describeInvitation(db: Db, token: string, now = new Date()) {
  const invitation = await usableInvitation(db, token, now);
  const workspace = invitation.workspaceId ? await getWorkspaceById(db, invitation.workspaceId) : null;
  // The role accepting would grant now (capped by the inviter's current role), not the one asked.
  const role = invitation.workspaceId ? await grantedRole(db, invitation) : invitation.role;
  if (!role) throw new AppError("invitation.revoked", "This invitation was withdrawn: whoever sent it no longer manages the workspace.");
  return {
    email: invitation.email,
    role,
    workspace: workspace && { id: workspace.id, name: workspace.name, slug: workspace.slug },
  };
}

const RANK: Record<WorkspaceRole, number> = { member: 0, admin: 1, owner: 2 };

/**
 * The role an invitation grants now: at most the inviter's current role in the workspace. An
 * inviter who no longer manages it (removed, demoted to member, disabled, deleted) grants nothing:
 * the invitation is dead (null).
 */
export async function grantedRole(
  db: Db,
  invitation: Pick<InvitationRecord, "workspaceId" | "invitedBy" | "role">,
): Promise<WorkspaceRole | null> {
  if (!invitation.workspaceId || !invitation.invitedBy || !(await getUserById(db, invitation.invitedBy))) return null;
  const inviterRole = await getMembershipRole(db, invitation.workspaceId, invitation.invitedBy);
  if (inviterRole !== "owner" && inviterRole !== "admin") return null;
  return RANK[invitation.role] <= RANK[inviterRole] ? invitation.role : inviterRole;
}

/**
 * Accept an invitation as the signed-in user, whose email must be the invited one. Single use:
 * the pending → accepted update is conditional, so two racing accepts cannot both join. A
 * workspace invitation grants at most its inviter's role at this moment (`grantedRole`).
 */
export async function acceptInvitation(db: Db, user: Pick<UserRecord, "id" | "email">, token: string, now = new Date()) {
  const invitation = await usableInvitation(db, token, now);
  if (normaliseEmail(user.email) !== invitation.email)
    throw new AppError("invitation.wrong_email", `This invitation is for ${invitation.email}; sign in with that account.`);
  return await withTransaction(db, async (tx) => {
    const workspaceId = invitation.workspaceId;
    const role = workspaceId ? await grantedRole(tx, invitation) : invitation.role;
    if (!role) throw new AppError("invitation.revoked", "This invitation was withdrawn: whoever sent it no longer manages the workspace.");
    if (!(await markInvitationAccepted(tx, { id: invitation.id, userId: user.id }, now)))
      throw new AppError("invitation.used", "This invitation was already used.");
    // Accepting never changes the role of someone who already is a member (lower or higher).
    if (workspaceId && !(await getMembershipRole(tx, workspaceId, user.id)))
      await upsertMembership(tx, { workspaceId, userId: user.id, role });
    await recordAudit(tx, {
      actorId: user.id,
      workspaceId,
      action: "invitation.accept",
      target: invitation.id,
      detail: { role, ...(role !== invitation.role ? { invitedAs: invitation.role } : {}) },
    });
    return { workspaceId };
  });
}

/**
 * Register the invited email through the link and accept the invitation, even when
 * self-registration is closed: the invitation is the permission.
 */
export async function registerWithInvitation(db: Db, token: string, body: z.infer<typeof invitationRegisterSchema>, now = new Date()) {
  const invitation = await usableInvitation(db, token, now);
  if (await getUserIdByEmail(db, invitation.email))
    throw new AppError("auth.email_taken", "An account with this email exists; sign in to accept.", "email");
  const refusal = passwordRefusal(body.password, [invitation.email, body.name]);
  if (refusal) throw new AppError(refusal.code, refusal.message, "password");
  const user = await createUserWithWorkspace(db, {
    email: invitation.email,
    name: body.name,
    passwordHash: await hashPassword(body.password),
  });
  if (!user) throw new AppError("auth.email_taken", "An account with this email exists; sign in to accept.", "email");
  await recordAudit(db, { actorId: user.id, action: "user.register", target: user.id, detail: { invitation: invitation.id } });
  const { workspaceId } = await acceptInvitation(db, user, token, now);
  return { id: user.id, email: user.email, name: user.name, workspaceId };
}
