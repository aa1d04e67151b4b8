/**
 * The pure parts of second factors: the pending sign-in between the two steps (5 minutes, 5 wrong
 * codes, single use), recovery codes (ten, distinct, hashed the way they are typed back), and TOTP
 * codes (one step of drift either way, never a step already used).
 */
import { generate } from "otplib";
import { afterAll, describe, expect, it, vi } from "vitest";
import { resetInstanceKey } from "@/db/key-check";
import { endPendingSignIn, failPendingSignIn, PENDING_SIGN_IN_MS, readPendingSignIn, startPendingSignIn } from "@/lib/auth/pending-sign-in";
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes } from "@/lib/auth/recovery-codes";
import { checkTotpCode, newTotpSecret } from "@/lib/auth/totp";

const user = { id: "u1", email: "a@example.com" };

// A pending sign-in is sealed under the instance key: a key of this file's own, no data directory.
vi.stubEnv("SWITCHBOARD_SECRET_KEY", Buffer.alloc(32, 7).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
  resetInstanceKey();
});

describe("pending sign-in", () => {
  it("lasts 5 minutes", async () => {
    const token = await startPendingSignIn(user, 1_000);
    expect(await readPendingSignIn(token, 1_000 + PENDING_SIGN_IN_MS - 1)).toMatchObject({ userId: "u1", email: "a@example.com" });
    expect(await readPendingSignIn(token, 1_000 + PENDING_SIGN_IN_MS)).toBeNull();
  });

  it("ends after 5 wrong codes, or once used; an unknown token is nothing", async () => {
    const token = await startPendingSignIn(user);
    for (let i = 0; i < 4; i++) await failPendingSignIn(token);
    expect(await readPendingSignIn(token)).toMatchObject({ failures: 4 });
    await failPendingSignIn(token);
    expect(await readPendingSignIn(token)).toBeNull();
    expect(await endPendingSignIn(token)).toBe(false);
    const other = await startPendingSignIn(user);
    expect(await endPendingSignIn(other)).toBe(true);
    expect(await endPendingSignIn(other)).toBe(false);
    expect(await readPendingSignIn(other)).toBeNull();
    expect(await readPendingSignIn("made-up")).toBeNull();
    expect(await readPendingSignIn(undefined)).toBeNull();
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
