/**
 * Issue 31: an old-parameter hash is replaced at the next successful sign-in, and a common or
 * breached password is refused at registration and password change (real SQLite).
 */
import { scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { getPasswordHashById, updatePasswordHash } from "@/db/queries/users";
import { changePassword } from "@/lib/auth/account";
import { verifyCredentials } from "@/lib/auth/credentials";
import { registerUser } from "@/lib/auth/register";
import { startSession } from "@/lib/auth/sessions";
import { limiters } from "@/lib/auth/sign-in-throttle";
import { registerTestUser } from "../../helpers/register";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let dir: string;

beforeAll(() => {
  dir = useTempDataDir();
});
afterAll(() => removeTempDataDir(dir));

// How the app stored passwords before issue 31: scrypt at N=2^14.
function oldHash(password: string): string {
  const salt = Buffer.from("an old salt 1234");
  const key = scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return ["scrypt", 16384, 8, 1, salt.toString("base64"), key.toString("base64")].join("$");
}

describe("password hashes", () => {
  it("a user with an old-parameter hash signs in and is stored with today's parameters", async () => {
    const user = await registerTestUser(getDb(), { email: "old@example.com", password: "a long enough password", name: "Old" });
    await updatePasswordHash(getDb(), user.id, oldHash("a long enough password"));

    // A wrong password proves nothing: the old hash stays.
    expect(await verifyCredentials(getDb(), "old@example.com", "not the password at all")).toEqual({ outcome: "wrong" });
    expect(await getPasswordHashById(getDb(), user.id)).toMatch(/^scrypt\$16384\$/);

    expect(await verifyCredentials(getDb(), "old@example.com", "a long enough password")).toMatchObject({ outcome: "ok" });
    const stored = await getPasswordHashById(getDb(), user.id);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // And the password still works against the new hash.
    expect(await verifyCredentials(getDb(), "old@example.com", "a long enough password")).toMatchObject({ outcome: "ok" });
    expect(await getPasswordHashById(getDb(), user.id)).toBe(stored);
  });
});

describe("common and breached passwords", () => {
  it("are refused at registration with auth.breached_password", async () => {
    await registerTestUser(getDb(), { email: "first@example.com", password: "a long enough password", name: "First" }).catch(() => null);
    await expect(
      registerUser(getDb(), { email: "new@example.com", password: "iloveyou123", name: "New" }, { byAdmin: true }),
    ).rejects.toMatchObject({
      code: "auth.breached_password",
      field: "password",
    });
  });

  it("are refused at password change, and the old password keeps working", async () => {
    const user = await registerTestUser(getDb(), { email: "change@example.com", password: "a long enough password", name: "Change" });
    const actor = { id: user.id, email: user.email, sessionId: await startSession(getDb(), user.id), address: "203.0.113.9" };
    await expect(
      changePassword(getDb(), actor, { currentPassword: "a long enough password", newPassword: "Password123!" }),
    ).rejects.toMatchObject({
      code: "auth.breached_password",
      field: "newPassword",
    });
    await limiters.signInAccount.reset("account:change@example.com");
    expect(await verifyCredentials(getDb(), "change@example.com", "a long enough password")).toMatchObject({ outcome: "ok" });
  });
});
