/**
 * Checking an email and password for sign-in. An unknown email costs the same scrypt work as a
 * wrong password (against a dummy hash), so response time does not reveal which accounts exist.
 */
import type { Db } from "../../db/client";
import { getUserWithPasswordByEmail, type UserRecord } from "../../db/queries/users";
import { unauthenticatedHashGate } from "../security/hash-gate";
import { hashPassword, verifyPassword } from "../security/password";

// A hash with the same parameters as real ones, for emails that have no account; made once, ahead
// of the first sign-in, so even the first unknown email costs one hash like any other.
const dummyHash: Promise<string> = hashPassword("no account has this password");

/** The user when the email and password match an enabled account, else null. Same cost either way. */
export async function checkCredentials(db: Db, email: string, password: string): Promise<UserRecord | null> {
  const user = getUserWithPasswordByEmail(db, email);
  const stored = user?.passwordHash ?? (await dummyHash);
  const ok = await unauthenticatedHashGate(() => verifyPassword(password, stored));
  if (!user || !ok || user.disabledAt) return null;
  return { id: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin };
}
