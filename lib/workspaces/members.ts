/**
 * Members of a workspace: list, change a role, remove (or leave). Owners manage everyone; admins
 * manage members and admins but never owners; the last owner can neither leave nor be demoted.
 * Losing access takes effect at once: live connections close, tokens go, running turns stop, and
 * the invitations the person sent are revoked when they are removed or demoted.
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { revokeInvitationsBy } from "../../db/queries/invitations";
import { countOwners, deleteMembership, listMembers, setMembershipRole } from "../../db/queries/memberships";
import { clearSharedCredentialsUser, listServersByWorkspace, toServerDefinition } from "../../db/queries/servers";
import { getMembershipRole } from "../../db/queries/workspaces";
import type { WorkspaceRole } from "../domain/workspace";
import { AppError } from "../errors";
import type { AccessEffects } from "../domain/access-effects";
import type { WorkspaceActor } from "../domain/workspace";
import { withTransaction } from "../../db/transaction";

/** Body of `PATCH /api/workspaces/:id/members/:userId`. */
export const memberRoleSchema = z.object({ role: z.enum(["owner", "admin", "member"]) }).strict();

/** The workspace's members as the API returns them (every member may see who else is in it). */
export async function listWorkspaceMembers(db: Db, actor: WorkspaceActor) {
  return (await listMembers(db, actor.workspaceId)).map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() }));
}

async function targetRole(db: Db, actor: WorkspaceActor, userId: string): Promise<WorkspaceRole> {
  const role = await getMembershipRole(db, actor.workspaceId, userId);
  if (!role) throw new AppError("workspace.member_not_found", "No such member.");
  return role;
}

function assertMayManage(actor: WorkspaceActor, current: WorkspaceRole, next?: WorkspaceRole): void {
  if (actor.workspace.personal) throw new AppError("auth.forbidden", "A personal workspace has no other members.");
  if (actor.role === "owner") return;
  if (actor.role === "admin" && current !== "owner" && next !== "owner") return;
  throw new AppError(
    "auth.forbidden",
    actor.role === "admin" ? "Only owners can manage owners." : "Only owners and admins manage members.",
  );
}

async function assertNotLastOwner(db: Db, workspaceId: string, current: WorkspaceRole): Promise<void> {
  if (current === "owner" && (await countOwners(db, workspaceId)) <= 1)
    throw new AppError("workspace.last_owner", "The last owner cannot leave or be demoted; make someone else an owner first.");
}

/** Change a member's role. Lowering an admin or owner to member closes their connections to the workspace's servers. */
export async function changeMemberRole(db: Db, actor: WorkspaceActor, userId: string, role: WorkspaceRole, effects: AccessEffects) {
  // Check and change in one transaction: two owners stepping down at once must not both pass the
  // last-owner check (the queries are async, so another request can run between them).
  const current = await withTransaction(db, async (tx) => {
    const current = await targetRole(tx, actor, userId);
    assertMayManage(actor, current, role);
    if (role !== "owner") await assertNotLastOwner(tx, actor.workspaceId, current);
    await setMembershipRole(tx, { workspaceId: actor.workspaceId, userId, role });
    return current;
  });
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "member.role",
    target: userId,
    detail: { from: current, to: role },
  });
  if (RANK[role] < RANK[current]) await revokeInvitationsOf(db, actor, userId);
  if (current !== "member" && role === "member") await dropManagerAccess(db, actor.workspaceId, userId, effects);
  return { userId, role };
}

/**
 * Remove a member, or leave (`userId` is the caller). Their running turns in the workspace stop,
 * their live connections to its servers close and their own tokens for them are deleted (revoked
 * where supported).
 */
export async function removeMember(db: Db, actor: WorkspaceActor, userId: string, effects: AccessEffects): Promise<void> {
  // Check and delete in one transaction (as in changeMemberRole: the last two owners leaving at once).
  const { current, servers } = await withTransaction(db, async (tx) => {
    const current = await targetRole(tx, actor, userId);
    if (userId !== actor.id) assertMayManage(actor, current);
    else if (actor.workspace.personal) throw new AppError("auth.forbidden", "You cannot leave your personal workspace.");
    await assertNotLastOwner(tx, actor.workspaceId, current);
    const servers = await listServersByWorkspace(tx, actor.workspaceId);
    await deleteMembership(tx, { workspaceId: actor.workspaceId, userId });
    return { current, servers };
  });
  await revokeInvitationsOf(db, actor, userId);
  await effects.stopTurns(userId, actor.workspaceId);
  const shared = await clearSharedCredentialsUser(db, actor.workspaceId, userId);
  await effects.closeConnections(
    userId,
    servers.map((s) => s.id),
  );
  if (shared.length) await effects.closeConnections(null, shared);
  await effects.forgetTokens(userId, await Promise.all(servers.map(async (s) => await toServerDefinition(db, s))));
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: userId === actor.id ? "member.leave" : "member.remove",
    target: userId,
    detail: { role: current },
  });
}

const RANK: Record<WorkspaceRole, number> = { member: 0, admin: 1, owner: 2 };

// Authority ends with the role: links a removed or demoted person sent can no longer bring anyone
// in (not even themselves, back as admin). Acceptance also caps by the inviter's role (invitations.ts).
async function revokeInvitationsOf(db: Db, actor: WorkspaceActor, userId: string): Promise<void> {
  const revoked = await revokeInvitationsBy(db, { workspaceId: actor.workspaceId, invitedBy: userId }, new Date());
  if (revoked.length)
    await recordAudit(db, {
      actorId: actor.id,
      workspaceId: actor.workspaceId,
      action: "invitation.revoke_by_role",
      target: userId,
      detail: { invitations: revoked },
    });
}

// A member no longer manages servers: shared servers stop using their credentials, and their own
// connections are rebuilt on the next request under the member rules.
async function dropManagerAccess(db: Db, workspaceId: string, userId: string, effects: AccessEffects): Promise<void> {
  const shared = await clearSharedCredentialsUser(db, workspaceId, userId);
  if (shared.length) await effects.closeConnections(null, shared);
  await effects.closeConnections(
    userId,
    (await listServersByWorkspace(db, workspaceId)).map((s) => s.id),
  );
}
