/**
 * Claims to roles (docs/sso.md#claims-to-roles): the configured claim's values (for example the
 * `groups` of the ID token) make a user instance administrator and a member of workspaces with a
 * role. Applied at every sign-in and by an administrator's "sync now": a workspace the mapping
 * manages is left when no group of the user maps to it any more.
 */
import type { Db } from "../../../db/client";
import { recordAudit } from "../../../db/queries/audit";
import { upsertMembership } from "../../../db/queries/memberships";
import type { SsoClaimMapping } from "../../../db/queries/sso";
import { countActiveAdmins, getUserById, setUserAdmin } from "../../../db/queries/users";
import { getMembershipRole, getWorkspaceById } from "../../../db/queries/workspaces";
import type { AccessEffects } from "../../domain/access-effects";
import type { WorkspaceRole } from "../../domain/workspace";
import { AppError } from "../../errors";
import { changeMemberRole, removeMember } from "../../workspaces/members";

const RANK: Record<WorkspaceRole, number> = { member: 0, admin: 1, owner: 2 };

/** The claim's values as strings: a list, or one string (some providers send a single group so). */
export function claimValues(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

/** What the groups grant: `isAdmin` null when the mapping names no admin group (left as it is). */
export interface MappedAccess {
  isAdmin: boolean | null;
  /** Every workspace the mapping manages, with the highest role a group grants, or null (not a member). */
  workspaces: Map<string, WorkspaceRole | null>;
}

/** The access `groups` grant under `mapping` (pure). */
export function mappedAccess(mapping: SsoClaimMapping, groups: string[]): MappedAccess {
  const held = new Set(groups);
  const workspaces = new Map<string, WorkspaceRole | null>();
  for (const entry of mapping.workspaces) {
    const current = workspaces.get(entry.workspaceId) ?? null;
    if (!held.has(entry.group)) {
      if (!workspaces.has(entry.workspaceId)) workspaces.set(entry.workspaceId, null);
      continue;
    }
    workspaces.set(entry.workspaceId, current && RANK[current] >= RANK[entry.role] ? current : entry.role);
  }
  const isAdmin = mapping.adminGroups.length ? mapping.adminGroups.some((g) => held.has(g)) : null;
  return { isAdmin, workspaces };
}

/** Who applies the mapping: the user signing in, or the administrator who asked for a sync. */
export interface MappingActor {
  id: string;
  providerId: string;
}

/**
 * Bring the user's administrator flag and managed memberships in line with `groups`; each change is
 * audited like the same change by hand (`user.make_admin`, `member.add`, `member.role`, `member.remove`),
 * and the whole as `user.sso_sync`. The last active administrator and a workspace's last owner stay.
 */
export async function applyClaimMapping(
  db: Db,
  userId: string,
  mapping: SsoClaimMapping,
  groups: string[],
  actor: MappingActor,
  effects: AccessEffects,
): Promise<{ changes: string[] }> {
  const access = mappedAccess(mapping, groups);
  const changes: string[] = [];
  const user = await getUserById(db, userId);
  if (!user) return { changes };
  if (access.isAdmin !== null && access.isAdmin !== user.isAdmin && (access.isAdmin || (await countActiveAdmins(db)) > 1)) {
    await setUserAdmin(db, userId, access.isAdmin);
    await recordAudit(db, {
      actorId: actor.id,
      action: access.isAdmin ? "user.make_admin" : "user.remove_admin",
      target: userId,
      detail: { via: "sso" },
    });
    changes.push(access.isAdmin ? "admin granted" : "admin removed");
  }
  for (const [workspaceId, role] of access.workspaces) {
    const workspace = await getWorkspaceById(db, workspaceId);
    // A deleted workspace, or someone's personal one, is never managed by a mapping.
    if (!workspace || workspace.personal) continue;
    const current = await getMembershipRole(db, workspaceId, userId);
    if (current === role) continue;
    // The changes go through the same code as an owner's (connections close, tokens go, invitations end).
    const owner = { id: actor.id, workspaceId, role: "owner" as const, workspace };
    try {
      if (!current && role) {
        await upsertMembership(db, { workspaceId, userId, role });
        await recordAudit(db, { actorId: actor.id, workspaceId, action: "member.add", target: userId, detail: { role, via: "sso" } });
      } else if (current && role) await changeMemberRole(db, owner, userId, role, effects);
      // At sign-in the user is the actor, so the removal reads `member.leave`; `user.sso_sync` says why.
      else if (current) await removeMember(db, owner, userId, effects);
      changes.push(`${workspace.name}: ${current ?? "none"} → ${role ?? "none"}`);
    } catch (error) {
      // The last owner keeps the workspace: a group change must not orphan it.
      if (!(error instanceof AppError && error.code === "workspace.last_owner")) throw error;
    }
  }
  if (changes.length)
    await recordAudit(db, { actorId: actor.id, action: "user.sso_sync", target: userId, detail: { provider: actor.providerId, changes } });
  return { changes };
}
