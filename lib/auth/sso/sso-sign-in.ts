/**
 * Who an OpenID Connect sign-in is (docs/sso.md#who-signs-in): the user already linked to the
 * provider's subject; else the account with the same email, only when the provider says the email
 * is verified; else a new account, only for the provider's allowed domains (just-in-time). Then the
 * claim mapping is applied. A refusal names its reason for the sign-in page.
 */
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db/client";
import { recordAudit } from "../../../db/queries/audit";
import { getSsoIdentityUser, saveSsoIdentity } from "../../../db/queries/sso";
import {
  createUserWithWorkspace,
  getUserById,
  getUserWithPasswordByEmail,
  hasAnyUser,
  normaliseEmail,
  type UserRecord,
} from "../../../db/queries/users";
import type { AccessEffects } from "../../domain/access-effects";
import { hashPassword } from "../../security/password";
import { applyClaimMapping, claimValues } from "./claim-roles";
import type { SsoProviderConfig } from "./provider-config";

/** Why a sign-in was refused; the sign-in page words each (`?error=sso.<reason>`). */
export type SsoRefusal = "no_email" | "unverified_email" | "domain_not_allowed" | "account_disabled" | "setup_pending";

/** The outcome of one provider sign-in. */
export type SsoSignIn = { ok: true; user: UserRecord; created: boolean } | { ok: false; reason: SsoRefusal };

/** Whether the ID token says the email is verified (some providers send the string "true"). */
function emailVerified(claims: Record<string, unknown>): boolean {
  return claims.email_verified === true || claims.email_verified === "true";
}

/** Resolve the user of a validated ID token's `claims` at `provider`, link the identity and apply the mapping. */
export async function resolveSsoSignIn(
  db: Db,
  provider: SsoProviderConfig,
  claims: Record<string, unknown>,
  effects: AccessEffects,
  now = new Date(),
): Promise<SsoSignIn> {
  const subject = typeof claims.sub === "string" ? claims.sub : "";
  const email = typeof claims.email === "string" ? normaliseEmail(claims.email) : "";
  let userId = subject ? await getSsoIdentityUser(db, provider.id, subject) : null;
  let created = false;
  if (!userId) {
    if (!subject || !email.includes("@")) return { ok: false, reason: "no_email" };
    // An address the provider has not verified could be anyone's: it never reaches an account.
    if (!emailVerified(claims)) return { ok: false, reason: "unverified_email" };
    const existing = await getUserWithPasswordByEmail(db, email);
    if (existing) userId = existing.id;
    else {
      const domain = email.slice(email.lastIndexOf("@") + 1);
      if (!provider.allowedDomains.includes(domain)) return { ok: false, reason: "domain_not_allowed" };
      // The first account is the administrator and needs the setup code; never by SSO.
      if (!(await hasAnyUser(db))) return { ok: false, reason: "setup_pending" };
      // No password anyone knows: a hash of random bytes keeps sign-in timing like any account's.
      const passwordHash = await hashPassword(randomBytes(32).toString("base64url"));
      const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 100) : email;
      const user = await createUserWithWorkspace(db, { email, name, passwordHash });
      if (!user) return { ok: false, reason: "account_disabled" };
      await recordAudit(db, { actorId: user.id, action: "user.register", target: user.id, detail: { sso: provider.id } });
      userId = user.id;
      created = true;
    }
  }
  if (!(await getUserById(db, userId))) return { ok: false, reason: "account_disabled" };
  const groups = provider.claimMapping ? claimValues(claims, provider.claimMapping.claim) : [];
  await saveSsoIdentity(db, { providerId: provider.id, subject, userId, groups }, now);
  if (provider.claimMapping)
    await applyClaimMapping(db, userId, provider.claimMapping, groups, { id: userId, providerId: provider.id }, effects);
  return { ok: true, user: (await getUserById(db, userId)) as UserRecord, created };
}
