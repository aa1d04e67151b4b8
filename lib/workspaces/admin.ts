/**
 * Instance administration: users (list, search, invite, disable, make/remove admin, delete), all
 * workspaces with member counts, and the audit log. Disabling or deleting someone ends their
 * sessions (the account counts as signed out), connections and running turns at once.
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import {
  countActiveAdmins,
  deleteUser,
  getUserById,
  getUserIdByEmail,
  listUsers,
  setUserAdmin,
  setUserDisabled,
} from "../../db/queries/users";
import { listAllWorkspaces, listWorkspaceOwners } from "../../db/queries/workspaces";
import { clearSharedCredentialsUserEverywhere } from "../../db/queries/servers";
import { AppError } from "../errors";
import type { AccessEffects } from "../domain/access-effects";
import { createInvitation } from "./invitations";
import { ssoProvidersByUser } from "../../db/queries/sso";
import { withTransaction } from "../../db/transaction";

export { auditPage, auditQuerySchema } from "./audit-view";

/** Query of `GET /api/admin/users`. */
export const userSearchSchema = z.object({ q: z.string().max(200).optional() });
/** Body of `POST /api/admin/users`: invite a new account by email. */
export const createUserSchema = z.object({ email: z.string().trim().email().max(254) }).strict();
/** Body of `PATCH /api/admin/users/:id`. */
export const updateUserSchema = z.object({ isAdmin: z.boolean().optional(), disabled: z.boolean().optional() }).strict();
/** The acting administrator. */
interface Admin {
  id: string;
}

/** Users, optionally searched by name or email. */
export async function adminListUsers(db: Db, q?: string) {
  const users = await listUsers(db, q?.trim() || undefined);
  // Which single sign-on providers each user came from (docs/sso.md); empty for password-only accounts.
  const sso = await ssoProvidersByUser(
    db,
    users.map((u) => u.id),
  );
  return {
    users: users.map((u) => ({
      ...u,
      disabledAt: u.disabledAt?.toISOString() ?? null,
      createdAt: u.createdAt.toISOString(),
      sso: sso.get(u.id) ?? [],
    })),
  };
}

/** Create an invitation link for a new account (shown once); registration through it works even when closed. */
export async function adminInviteUser(db: Db, admin: Admin, email: string, baseUrl: string) {
  if (await getUserIdByEmail(db, email)) throw new AppError("auth.email_taken", "An account with this email already exists.", "email");
  return await createInvitation(db, { id: admin.id, workspaceId: null }, { email, role: "member" }, { baseUrl });
}

async function assertKeepsAnAdmin(db: Db, admin: Admin, targetId: string): Promise<void> {
  if (targetId === admin.id) throw new AppError("user.self_action", "You cannot disable, demote or delete your own account here.");
  // Only losing an enabled administrator can leave the instance without one.
  if ((await getUserById(db, targetId))?.isAdmin && (await countActiveAdmins(db)) <= 1)
    throw new AppError("user.last_admin", "The instance must keep at least one administrator.");
}

/** Make/remove admin and disable/enable; disabling closes the user's connections and turns now. */
export async function adminUpdateUser(db: Db, admin: Admin, id: string, input: z.infer<typeof updateUserSchema>, effects: AccessEffects) {
  // Check and change in one transaction: two administrators demoting or disabling each other at
  // once must not both pass the last-admin check (another request can run between async queries).
  await withTransaction(db, async (tx) => {
    if (input.isAdmin === false || input.disabled === true) await assertKeepsAnAdmin(tx, admin, id);
    if (input.isAdmin !== undefined && !(await setUserAdmin(tx, id, input.isAdmin))) throw new AppError("user.not_found", "No such user.");
    if (input.disabled !== undefined && !(await setUserDisabled(tx, id, input.disabled ? new Date() : null)))
      throw new AppError("user.not_found", "No such user.");
  });
  if (input.isAdmin !== undefined)
    await recordAudit(db, { actorId: admin.id, action: input.isAdmin ? "user.make_admin" : "user.remove_admin", target: id });
  if (input.disabled !== undefined) {
    if (input.disabled) await endEverything(db, id, effects);
    await recordAudit(db, { actorId: admin.id, action: input.disabled ? "user.disable" : "user.enable", target: id });
  }
  return { id, ...input };
}

/** Delete a user with their personal data (personal workspace, chats, settings, credentials). */
export async function adminDeleteUser(db: Db, admin: Admin, id: string, effects: AccessEffects): Promise<void> {
  await assertKeepsAnAdmin(db, admin, id);
  await endEverything(db, id, effects);
  if (!(await deleteUser(db, id))) throw new AppError("user.not_found", "No such user.");
  await recordAudit(db, { actorId: admin.id, action: "user.delete", target: id });
}

// The account stops working everywhere: its turns, its connections, and every shared server that
// used its credentials (members' connections to those close, so nothing keeps using its tokens).
async function endEverything(db: Db, userId: string, effects: AccessEffects): Promise<void> {
  await effects.stopTurns(userId, null);
  await effects.closeConnections(userId);
  const shared = await clearSharedCredentialsUserEverywhere(db, userId);
  if (shared.length) await effects.closeConnections(null, shared);
}

/**
 * Every workspace with its member count and its owners' names and emails (a personal workspace's
 * owner is its person), so the table names people, not ids.
 */
export async function adminListWorkspaces(db: Db) {
  const owners = await listWorkspaceOwners(db);
  return { workspaces: (await listAllWorkspaces(db)).map((w) => ({ ...w, owners: owners.get(w.id) ?? [] })) };
}
