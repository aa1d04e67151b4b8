/**
 * SSO-only mode (docs/sso.md#sso-only-mode): passwords are off for everyone but one named
 * break-glass administrator, so a lost identity provider never locks the instance out. Changing it
 * is a sensitive act (re-authentication, like the second-factor policies).
 */
import { z } from "zod";
import type { Db } from "../../../db/client";
import { recordAudit } from "../../../db/queries/audit";
import { getInstanceMeta, setInstanceMeta } from "../../../db/queries/instance-meta";
import { getUserById, getUserIdByEmail, normaliseEmail } from "../../../db/queries/users";
import { AppError } from "../../errors";

const MODE_KEY = "sso.only";
const BREAK_GLASS_KEY = "sso.break_glass_user";

/** The mode and who may still use a password. */
export interface SsoOnlySetting {
  ssoOnly: boolean;
  /** The break-glass administrator's email, or null. */
  breakGlassEmail: string | null;
}

/** The body of `PUT /api/admin/sso-settings`. */
export const ssoOnlySchema = z.object({ ssoOnly: z.boolean(), breakGlassEmail: z.string().trim().email().max(254).nullable() }).strict();

/** The setting in force. */
export async function ssoOnlySetting(db: Db): Promise<SsoOnlySetting> {
  const id = await getInstanceMeta(db, BREAK_GLASS_KEY);
  const user = id ? await getUserById(db, id) : null;
  return { ssoOnly: (await getInstanceMeta(db, MODE_KEY)) === "on", breakGlassEmail: user?.email ?? null };
}

/** Set the mode (an instance administrator, re-authenticated by the caller); the break-glass account must be an active administrator. Audited. */
export async function setSsoOnly(db: Db, adminId: string, input: z.infer<typeof ssoOnlySchema>): Promise<SsoOnlySetting> {
  const breakGlassId = input.breakGlassEmail ? await getUserIdByEmail(db, normaliseEmail(input.breakGlassEmail)) : null;
  const breakGlass = breakGlassId ? await getUserById(db, breakGlassId) : null;
  if (input.breakGlassEmail && !breakGlass?.isAdmin)
    throw new AppError("sso.invalid_provider", "The break-glass account must be an active instance administrator.", "breakGlassEmail");
  if (input.ssoOnly && !breakGlass)
    throw new AppError("sso.invalid_provider", "Name a break-glass administrator before turning passwords off.", "breakGlassEmail");
  const before = await ssoOnlySetting(db);
  await setInstanceMeta(db, MODE_KEY, input.ssoOnly ? "on" : "off");
  await setInstanceMeta(db, BREAK_GLASS_KEY, breakGlass?.id ?? "");
  const after = await ssoOnlySetting(db);
  await recordAudit(db, { actorId: adminId, action: "instance.sso_only", detail: { from: before, to: after } });
  return after;
}

/** Whether a password may be used for `email` (always, unless SSO-only mode is on and it is not the break-glass account). */
export async function passwordAllowed(db: Db, email: string): Promise<boolean> {
  if ((await getInstanceMeta(db, MODE_KEY)) !== "on") return true;
  const breakGlass = await getInstanceMeta(db, BREAK_GLASS_KEY);
  return !!breakGlass && (await getUserIdByEmail(db, normaliseEmail(email))) === breakGlass;
}

/** Throw `auth.sso_only` when passwords are off for `email`. */
export async function assertPasswordAllowed(db: Db, email: string): Promise<void> {
  if (!(await passwordAllowed(db, email)))
    throw new AppError("auth.sso_only", "This instance signs in with single sign-on only: use your organisation's sign-in button.");
}
