import { describe, expect, it } from "vitest";
import { hashPassword, passwordWeakness, verifyPassword } from "@/lib/security/password";

describe("password hashing", () => {
  it("verifies the right password and rejects a wrong one", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterz", hash)).toBe(false);
  });

  it("salts: the same password hashes differently", async () => {
    expect(await hashPassword("same password!")).not.toBe(await hashPassword("same password!"));
  });

  it("never verifies against a malformed hash", async () => {
    for (const stored of ["", "plain", "bcrypt$x$y", "scrypt$16384$8$1$$"]) {
      expect(await verifyPassword("anything", stored)).toBe(false);
    }
  });

  it("names why a password is weak", () => {
    expect(passwordWeakness("short")).toMatch(/at least 10/);
    expect(passwordWeakness("aaaaaaaaaaaa")).toMatch(/repetitive/);
    expect(passwordWeakness("a good long passphrase")).toBeNull();
  });
});
