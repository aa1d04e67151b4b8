import { scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { passwordStrength } from "@/lib/domain/password-strength";
import { ARGON2_PARAMS, hashPassword, needsRehash, passwordRefusal, verifyPassword } from "@/lib/security/password";

// A hash as the app stored them before issue 31: scrypt at N=2^14.
function legacyScryptHash(password: string): string {
  const salt = Buffer.from("0123456789abcdef");
  return ["scrypt", 16384, 8, 1, salt.toString("base64"), scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 }).toString("base64")].join(
    "$",
  );
}

describe("password hashing", () => {
  it("hashes with argon2id at OWASP's parameters, self-described in the PHC string", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(ARGON2_PARAMS).toEqual({ memory: 19_456, passes: 2, parallelism: 1 });
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterz", hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it("salts: the same password hashes differently", async () => {
    expect(await hashPassword("same password!")).not.toBe(await hashPassword("same password!"));
  });

  it("still verifies the older scrypt hashes, and marks them (and weaker argon2id ones) for re-hashing", async () => {
    const legacy = legacyScryptHash("an older password");
    expect(await verifyPassword("an older password", legacy)).toBe(true);
    expect(await verifyPassword("another password", legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
    const weaker = (await hashPassword("x")).replace("m=19456,t=2", "m=8192,t=2");
    expect(needsRehash(weaker)).toBe(true);
  });

  it("verifies scrypt hashes that need more than Node's default maxmem of 32 MiB (N=2^16: 64 MiB)", async () => {
    const salt = Buffer.from("fedcba9876543210");
    const key = scryptSync("a strong password", salt, 32, { N: 2 ** 16, r: 8, p: 1, maxmem: 128 * 1024 * 1024 });
    const stored = ["scrypt", 2 ** 16, 8, 1, salt.toString("base64"), key.toString("base64")].join("$");
    expect(await verifyPassword("a strong password", stored)).toBe(true);
  }, 30_000);

  it("never verifies against a malformed hash", async () => {
    for (const stored of [
      "",
      "plain",
      "bcrypt$x$y",
      "scrypt$16384$8$1$$",
      "scrypt$99999999999$8$1$c2FsdA$a2V5",
      "$argon2id$v=19$m=99999999,t=2,p=1$c2FsdHNhbHQ$a2V5a2V5",
    ]) {
      expect(await verifyPassword("anything", stored)).toBe(false);
    }
  });
});

describe("new-password rules", () => {
  it("names why a password is weak", () => {
    expect(passwordRefusal("short")).toEqual({ code: "auth.weak_password", message: expect.stringMatching(/at least 10/) });
    expect(passwordRefusal("aaaaaaaaaaaa")?.message).toMatch(/repetitive/);
    expect(passwordRefusal("a good long passphrase")).toBeNull();
  });

  it("refuses common and breached passwords from the shipped list, with their own code", () => {
    for (const password of ["qwertyuiop", "1234567890", "iloveyou123", "Password123!", "football1234"]) {
      expect(passwordRefusal(password), password).toMatchObject({ code: "auth.breached_password" });
    }
  });

  it("scores strength for the meter: weak to strong", () => {
    expect(passwordStrength("qwertyuiop")).toMatchObject({ score: 0, common: true });
    expect(passwordStrength("correct horse battery staple")).toMatchObject({ score: 4, common: false, hint: "" });
  });
});
