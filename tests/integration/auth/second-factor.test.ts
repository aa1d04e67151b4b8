/**
 * TOTP second factors over a real SQLite file: enrolment
 * (codes computed here with otplib), a sign-in that owes a code, a recovery code that works once,
 * wrong and reused codes refused, a pending sign-in ended by wrong codes, and removal needing a code.
 */
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listRecentAudit } from "@/db/queries/audit";
import { recoveryCodes as recoveryCodeRows, userFactors } from "@/db/schema";
import { removeFactor, confirmTotpEnrolment, factorsView, hasSecondFactor, startTotpEnrolment } from "@/lib/auth/second-factors";
import { verifyCredentials } from "@/lib/auth/credentials";
import type { SignInContext } from "@/lib/auth/sign-in-context";
import { beginSecondStep, completeSecondStep, SIGN_IN_EXPIRED } from "@/lib/auth/sign-in-steps";
import { registerTestUser } from "../../helpers/register";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { all } from "../../../db/exec";

const PASSWORD = "a long enough password";
let dir: string;
let secret: string;
let recoveryCodes: string[];
const user = { id: "", email: "totp@example.com" };

/**
 * One sign-in's two steps as the credentials provider runs them (lib/auth/sign-in-steps.ts), with
 * the slot our next-auth handler gives each request. The handler's cookie and throttle in front of
 * them are exercised in the browser (tests/e2e/second-factor.spec.ts).
 */
async function signIn(password = PASSWORD) {
  const slot: SignInContext = { address: "203.0.113.9" };
  const check = await verifyCredentials(getDb(), user.email, password);
  if (check.outcome !== "ok") return { owed: false, code: async () => null };
  const owed = await beginSecondStep(getDb(), check.user, slot);
  return { owed, code: (code: string) => completeSecondStep(getDb(), code, { address: slot.address, pendingToken: slot.startedPending }) };
}

// A code for the time step `offset` steps from now (each code counts once, so tests move forward).
const codeAt = (offset: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

beforeAll(async () => {
  dir = useTempDataDir();
  const registered = await registerTestUser(getDb(), { email: user.email, password: PASSWORD, name: "Tess" });
  user.id = registered.id;
});
afterAll(() => removeTempDataDir(dir));

describe("TOTP enrolment", () => {
  it("counts only once confirmed with a code from the app, then answers ten recovery codes once", async () => {
    const started = await startTotpEnrolment(getDb(), user);
    secret = started.secret;
    expect(started.uri).toMatch(/^otpauth:\/\/totp\/Switchboard:totp%40example\.com\?secret=/);
    expect(await hasSecondFactor(getDb(), user.id)).toBe(false);
    await expect(confirmTotpEnrolment(getDb(), user, started.factorId, "123456")).rejects.toMatchObject({ code: "auth.invalid_code" });
    ({ recoveryCodes } = await confirmTotpEnrolment(getDb(), user, started.factorId, await codeAt(0)));
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await hasSecondFactor(getDb(), user.id)).toBe(true);
    expect(await factorsView(getDb(), user.id)).toMatchObject({
      factors: [{ kind: "totp", name: "Authenticator app" }],
      recoveryCodesLeft: 10,
    });
    // The secret is sealed at rest, and the recovery codes are stored hashed.
    const raw = JSON.stringify([await all(getDb().select().from(userFactors)), await all(getDb().select().from(recoveryCodeRows))]);
    expect(raw).not.toContain(secret);
    for (const code of recoveryCodes) expect(raw).not.toContain(code);
    expect((await listRecentAudit(getDb())).some((e) => e.action === "user.factor_enrolled" && e.target === user.id)).toBe(true);
  });
});

describe("sign-in with a second factor", () => {
  it("a right password owes a code instead of signing in; the right code signs in", async () => {
    const attempt = await signIn();
    expect(attempt.owed).toBe(true);
    expect(await attempt.code(await codeAt(1))).toMatchObject({ id: user.id });
  });

  it("a code used once is refused the next time, and a wrong one always", async () => {
    const used = await codeAt(1);
    const attempt = await signIn();
    expect(await attempt.code(used)).toBeNull();
    expect(await attempt.code("000000")).toBeNull();
    // Still pending after wrong codes: a recovery code completes it (the next TOTP step is 30 s away).
    expect(await attempt.code(recoveryCodes[4])).toMatchObject({ id: user.id });
  });

  it("a code without a right password first, or for a finished sign-in, signs nobody in", async () => {
    expect((await signIn("not the password at all")).owed).toBe(false);
    await expect(completeSecondStep(getDb(), await codeAt(0), { address: "203.0.113.9" })).rejects.toThrow(SIGN_IN_EXPIRED);
    const attempt = await signIn();
    expect(await attempt.code(recoveryCodes[2])).toMatchObject({ id: user.id });
    await expect(attempt.code(recoveryCodes[3])).rejects.toThrow(SIGN_IN_EXPIRED);
  });

  it("a recovery code signs in once; the same code again is refused", async () => {
    expect(await (await signIn()).code(recoveryCodes[0].toUpperCase())).toMatchObject({ id: user.id });
    expect((await factorsView(getDb(), user.id)).recoveryCodesLeft).toBe(7);
    expect(await (await signIn()).code(recoveryCodes[0])).toBeNull();
    expect((await listRecentAudit(getDb())).some((e) => e.action === "user.recovery_code_used" && e.target === user.id)).toBe(true);
  });

  it("five wrong codes end the pending sign-in: even the right code then needs the password again", async () => {
    const attempt = await signIn();
    for (let i = 0; i < 5; i++) expect(await attempt.code("111111")).toBeNull();
    await expect(attempt.code(await codeAt(3))).rejects.toThrow(SIGN_IN_EXPIRED);
  });
});

describe("removing a factor", () => {
  it("needs a current code; without one the factor stays, with one it goes with the recovery codes", async () => {
    const [factor] = (await factorsView(getDb(), user.id)).factors;
    await expect(removeFactor(getDb(), user, factor.id, "222222")).rejects.toMatchObject({ code: "auth.invalid_code" });
    expect(await hasSecondFactor(getDb(), user.id)).toBe(true);
    await removeFactor(getDb(), user, factor.id, recoveryCodes[1]);
    expect(await factorsView(getDb(), user.id)).toEqual({ factors: [], recoveryCodesLeft: 0 });
    expect((await listRecentAudit(getDb())).some((e) => e.action === "user.factor_removed" && e.target === user.id)).toBe(true);
    // Without a factor the password alone signs in again.
    expect((await signIn()).owed).toBe(false);
  });
});
