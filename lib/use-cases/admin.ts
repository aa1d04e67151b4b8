/**
 * The instance administrator's use cases: users (invite, promote, disable, delete), every
 * workspace, and the instance's audit log. Each binds the database handle (and the process's
 * access effects) for lib/workspaces/admin.ts.
 */
import "server-only";
import type { z } from "zod";
import { getDb } from "../../db/client";
import { requireRecentAuth } from "../auth/reauth";
import type { SessionUser } from "../auth/session";
import { requestPublicOrigin } from "../security/public-url";
import {
  adminDeleteUser,
  adminInviteUser,
  adminListUsers,
  adminListWorkspaces,
  adminUpdateUser,
  type auditQuerySchema,
  auditPage,
  type updateUserSchema,
} from "../workspaces/admin";
import { appAccessEffects } from "./access-effects";

export { auditQuerySchema, createUserSchema, updateUserSchema, userSearchSchema } from "../workspaces/admin";

/** Every user, optionally searched by name or email. */
export async function instanceUsers(q?: string) {
  return await adminListUsers(getDb(), q);
}

/** An invitation link for a new account, on the origin the request came to (shown once). */
export async function inviteUser(admin: SessionUser, email: string, request: Request) {
  return await adminInviteUser(getDb(), admin, email, requestPublicOrigin(request));
}

/**
 * Make/remove admin, disable/enable; disabling ends the user's sessions, connections and turns now.
 * Another user's account is a sensitive act: it needs a recent sign-in (`auth.reauth_required`).
 */
export async function updateUser(admin: SessionUser, id: string, input: z.infer<typeof updateUserSchema>) {
  await requireRecentAuth(getDb(), admin);
  return adminUpdateUser(getDb(), admin, id, input, appAccessEffects());
}

/** Delete a user with their personal data (needs a recent sign-in, like every change to another account). */
export async function deleteUser(admin: SessionUser, id: string): Promise<void> {
  await requireRecentAuth(getDb(), admin);
  return adminDeleteUser(getDb(), admin, id, appAccessEffects());
}

/** Every workspace of the instance. */
export async function instanceWorkspaces() {
  return await adminListWorkspaces(getDb());
}

/** One page of the instance's audit log. */
export async function instanceAudit(query: z.infer<typeof auditQuerySchema>) {
  return await auditPage(getDb(), query);
}
