/**
 * Single sign-on for pages and routes (docs/sso.md): the sign-in page's buttons and mode, and the
 * admin area's providers, SSO-only setting and "sync now". Each binds the database handle for
 * lib/auth/sso; every change is a sensitive act, so it needs a recent sign-in.
 */
import "server-only";
import type { z } from "zod";
import { getDb } from "../../db/client";
import { requireRecentAuth } from "../auth/reauth";
import type { SessionUser } from "../auth/session";
import {
  createSsoProvider,
  editSsoProvider,
  removeSsoProvider,
  ssoButtons,
  type ssoProviderSchema,
  type ssoProviderUpdateSchema,
  ssoProviderViews,
} from "../auth/sso/providers";
import { setSsoOnly, ssoOnlySetting, type ssoOnlySchema } from "../auth/sso/sso-only";
import { syncUserFromSso } from "../auth/sso/sync";
import { appAccessEffects } from "./access-effects";

export { ssoProviderSchema, ssoProviderUpdateSchema } from "../auth/sso/providers";
export { ssoOnlySchema } from "../auth/sso/sso-only";

/** The sign-in page: the providers' buttons, and whether the password form is hidden. */
export async function signInOptions() {
  const db = getDb();
  return { providers: await ssoButtons(db), passwordsOff: (await ssoOnlySetting(db)).ssoOnly };
}

/** The providers for the admin area (no secrets). */
export async function adminSsoProviders() {
  return await ssoProviderViews(getDb());
}

/** Add a provider. */
export async function addSsoProvider(admin: SessionUser, input: z.infer<typeof ssoProviderSchema>) {
  const db = getDb();
  await requireRecentAuth(db, admin);
  return await createSsoProvider(db, admin.id, input);
}

/** Change an admin-configured provider. */
export async function changeSsoProvider(admin: SessionUser, id: string, input: z.infer<typeof ssoProviderUpdateSchema>) {
  const db = getDb();
  await requireRecentAuth(db, admin);
  return await editSsoProvider(db, admin.id, id, input);
}

/** Remove an admin-configured provider. */
export async function deleteSsoProvider(admin: SessionUser, id: string): Promise<void> {
  const db = getDb();
  await requireRecentAuth(db, admin);
  await removeSsoProvider(db, admin.id, id);
}

/** The SSO-only setting. */
export async function ssoSettings() {
  return await ssoOnlySetting(getDb());
}

/** Turn SSO-only mode on or off, naming the break-glass administrator. */
export async function setSsoSettings(admin: SessionUser, input: z.infer<typeof ssoOnlySchema>) {
  const db = getDb();
  await requireRecentAuth(db, admin);
  return await setSsoOnly(db, admin.id, input);
}

/** Re-apply a user's claim mappings from their latest sign-in's groups. */
export async function syncUserNow(admin: SessionUser, userId: string) {
  const db = getDb();
  await requireRecentAuth(db, admin);
  return syncUserFromSso(db, admin.id, userId, appAccessEffects());
}
