/**
 * The pure parts of second factors: the pending sign-in between the two steps (5 minutes, 5 wrong
 * codes, single use), recovery codes (ten, distinct, hashed the way they are typed back), and TOTP
 * codes (one step of drift either way, never a step already used).
 */
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { endPendingSignIn, failPendingSignIn, PENDING_SIGN_IN_MS, readPendingSignIn, startPendingSignIn } from "@/lib/auth/pending-sign-in";
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes } from "@/lib/auth/recovery-codes";
import { checkTotpCode, newTotpSecret } from "@/lib/auth/totp";

const user = { id: "u1", email: "a@example.com" };

describe("pending sign-in", () => {
  it("lasts 5 minutes", () => {
    const token = startPendingSignIn(user, 1_000);
    expect(readPendingSignIn(token, 1_000 + PENDING_SIGN_IN_MS - 1)).toMatchObject({ userId: "u1", email: "a@example.com" });
    expect(readPendingSignIn(token, 1_000 + PENDING_SIGN_IN_MS)).toBeNull();
  });

  it("ends after 5 wrong codes, or once used; an unknown token is nothing", () => {
    const token = startPendingSignIn(user);
    for (let i = 0; i < 4; i++) failPendingSignIn(token);
    expect(readPendingSignIn(token)).not.toBeNull();
    failPendingSignIn(token);
    expect(readPendingSignIn(token)).toBeNull();
    const other = startPendingSignIn(user);
    endPendingSignIn(other);
    expect(readPendingSignIn(other)).toBeNull();
    expect(readPendingSignIn("made-up")).toBeNull();
    expect(readPendingSignIn(undefined)).toBeNull();
  });
});

describe("recovery codes", () => {
  it("ten distinct codes, each recognised and hashed alike however it is typed back", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      expect(looksLikeRecoveryCode(code)).toBe(true);
      expect(hashRecoveryCode(` ${code.toUpperCase().replace("-", "")} `)).toBe(hashRecoveryCode(code));
    }
    expect(hashRecoveryCode(codes[0])).not.toBe(hashRecoveryCode(codes[1]));
    expect(looksLikeRecoveryCode("123456")).toBe(false);
  });
});

describe("TOTP codes", () => {
  it("accepts one step of drift either way, not two, and never a step already used", async () => {
    const secret = newTotpSecret();
    const now = new Date(1_800_000_000_000);
    const at = (seconds: number) => generate({ secret, epoch: now.getTime() / 1000 + seconds });
    const step = await checkTotpCode(secret, await at(0), null, now);
    expect(step).toBe(Math.floor(now.getTime() / 30_000));
    expect(await checkTotpCode(secret, await at(-30), null, now)).toBe(step! - 1);
    expect(await checkTotpCode(secret, await at(30), null, now)).toBe(step! + 1);
    expect(await checkTotpCode(secret, await at(60), null, now)).toBeNull();
    expect(await checkTotpCode(secret, await at(0), step, now)).toBeNull();
    expect(await checkTotpCode(secret, await at(30), step, now)).toBe(step! + 1);
    expect(await checkTotpCode(secret, "12345", null, now)).toBeNull();
  });
});
