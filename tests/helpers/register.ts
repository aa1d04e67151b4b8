/** The one way integration tests create accounts through sign-up (the first one needs the setup code). */
import type { Db } from "../../db/client";
import type { UserRecord } from "../../db/queries/users";
import { registerUser, type RegisterOptions } from "../../lib/auth/register";
import { ensureSetupCode } from "../../lib/auth/setup-code";

/** Register through `registerUser`, passing the instance's setup code while it has no account. */
export async function registerTestUser(
  db: Db,
  body: { email: string; password: string; name: string },
  options: RegisterOptions = {},
): Promise<UserRecord> {
  const setupCode = (await ensureSetupCode(db))?.code;
  const user = await registerUser(db, setupCode ? { ...body, setupCode } : body, options);
  if (!user) throw new Error(`registerTestUser: ${body.email} already exists`);
  return user;
}
