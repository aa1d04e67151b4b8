/**
 * Checking an email and password for sign-in. An unknown email costs the same hashing work as a
 * wrong password (against a dummy hash), so response time does not reveal which accounts exist. A
 * right password stored under an older scheme or weaker parameters is re-hashed at today's.
 */
import type { Db } from "../../db/client";
import { getUserWithPasswordByEmail, updatePasswordHash, type UserRecord } from "../../db/queries/users";
import { unauthenticatedHashGate } from "../security/hash-gate";
import { hashPassword, needsRehash, verifyPassword } from "../security/password";

// A hash with the same parameters as real ones, for emails that have no account; made once, ahead
// of the first sign-in, so even the first unknown email costs one hash like any other.
const dummyHash: Promise<string> = hashPassword("no account has this password");

/** The `error` next-auth's sign-in answer carries for a disabled account (app/_components/ui/credentials-sign-in.ts). */
export const ACCOUNT_DISABLED_SIGN_IN = "AccountDisabled";

/**
 * What a sign-in attempt proves: the user (right password, enabled account), `disabled` (right
 * password, disabled account) or `wrong`. A wrong password never learns whether the account is
 * disabled, so only its owner is told. Same cost in every case.
 */
export type CredentialsCheck = { outcome: "ok"; user: UserRecord } | { outcome: "disabled" } | { outcome: "wrong" };

/** Check an email and password (see `CredentialsCheck`). */
export async function verifyCredentials(db: Db, email: string, password: string): Promise<CredentialsCheck> {
  const user = await getUserWithPasswordByEmail(db, email);
  const stored = user?.passwordHash ?? (await dummyHash);
  const ok = await unauthenticatedHashGate(() => verifyPassword(password, stored));
  if (!user || !ok) return { outcome: "wrong" };
  if (user.disabledAt) return { outcome: "disabled" };
  // Only now is the password known: the one moment an old hash can be replaced (issue 31).
  if (needsRehash(user.passwordHash)) await updatePasswordHash(db, user.id, await hashPassword(password));
  return { outcome: "ok", user: { id: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin } };
}

/** The user when the email and password match an enabled account, else null. Same cost either way. */
export async function checkCredentials(db: Db, email: string, password: string): Promise<UserRecord | null> {
  const check = await verifyCredentials(db, email, password);
  return check.outcome === "ok" ? check.user : null;
}
