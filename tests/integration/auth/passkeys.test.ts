/**
 * Passkeys over a real SQLite file and @simplewebauthn/server, answered by a software authenticator
 * (tests/helpers/software-authenticator.ts, node:crypto): registration, a passwordless sign-in
 * (user verification required), the second step of a sign-in, re-authentication and removal; a
 * challenge answered twice, of another purpose, for another origin, expired, or a counter going
 * back are refused; and failed answers count on the sign-in throttle like wrong passwords.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { listRecentAudit } from "@/db/queries/audit";
import { passkeyCredentials } from "@/db/schema";
import { verifyCredentials } from "@/lib/auth/credentials";
import { mfaPolicy, mustEnrol, setMfaPolicy } from "@/lib/auth/mfa-policy";
import { PASSKEY_CHALLENGE_MS } from "@/lib/auth/passkey-challenges";
import { finishPasskeyRegistration, passkeyRequestOptions, relyingParty, startPasskeyRegistration } from "@/lib/auth/passkeys";
import { factorsView, hasSecondFactor, removeFactor } from "@/lib/auth/second-factors";
import type { SignInContext } from "@/lib/auth/sign-in-context";
import { beginSecondStep, passkeyAttemptEmail, passkeySignIn, SIGN_IN_EXPIRED } from "@/lib/auth/sign-in-steps";
import { attemptRetryAfterSeconds, clearAccountAttempts, limiters, takeAttempt } from "@/lib/auth/sign-in-throttle";
import { registerTestUser } from "../../helpers/register";
import { SoftwareAuthenticator } from "../../helpers/software-authenticator";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { all } from "../../../db/exec";

const ORIGIN = "http://localhost:3000";
const rp = relyingParty(ORIGIN);
const PASSWORD = "a long enough password";
let dir: string;
const ada = { id: "", email: "ada@example.com" };
const bob = { id: "", email: "bob@example.com" };
const adaKey = new SoftwareAuthenticator({ origin: ORIGIN });
const bobKey = new SoftwareAuthenticator({ origin: ORIGIN });

/** The credentials callback's slot for a request from `address` (and its pending sign-in's cookie). */
const slot = (pendingToken?: string): SignInContext => ({ address: "203.0.113.7", origin: ORIGIN, pendingToken });

/** A passwordless attempt with the answer `answer` gives to a fresh sign-in challenge. */
async function passwordless(key: SoftwareAuthenticator, answer?: Parameters<SoftwareAuthenticator["get"]>[1]) {
  const options = await passkeyRequestOptions(getDb(), rp, "sign-in");
  expect(options.userVerification).toBe("required");
  return { raw: JSON.stringify(key.get(options, answer)), options };
}

async function register(owner: { id: string; email: string }, key: SoftwareAuthenticator, name = "Laptop") {
  const options = await startPasskeyRegistration(getDb(), owner, rp);
  return finishPasskeyRegistration(getDb(), owner, rp, name, key.create(options));
}

beforeAll(async () => {
  dir = useTempDataDir();
  ada.id = (await registerTestUser(getDb(), { email: ada.email, password: PASSWORD, name: "Ada" })).id;
  bob.id = (await registerTestUser(getDb(), { email: bob.email, password: PASSWORD, name: "Bob" })).id;
});
afterAll(() => {
  vi.useRealTimers();
  removeTempDataDir(dir);
});

describe("adding a passkey", () => {
  it("asks for a discoverable credential on the app's origin, stores it as a factor, answers recovery codes for a first factor", async () => {
    const options = await startPasskeyRegistration(getDb(), ada, rp);
    expect(options.rp.id).toBe("localhost");
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required" });
    const added = await finishPasskeyRegistration(getDb(), ada, rp, "Laptop", adaKey.create(options));
    expect(added.recoveryCodes).toHaveLength(10);
    expect(await hasSecondFactor(getDb(), ada.id)).toBe(true);
    expect(await factorsView(getDb(), ada.id)).toMatchObject({ factors: [{ kind: "passkey", name: "Laptop" }], recoveryCodesLeft: 10 });
    expect((await listRecentAudit(getDb())).some((e) => e.action === "user.factor_enrolled" && e.target === ada.id)).toBe(true);
  });

  it("a second passkey is added beside the first, excluded from being registered twice, and answers no new codes", async () => {
    const second = new SoftwareAuthenticator({ origin: ORIGIN });
    const options = await startPasskeyRegistration(getDb(), ada, rp);
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([Buffer.from(adaKey.credentials[0].id).toString("base64url")]);
    const added = await finishPasskeyRegistration(getDb(), ada, rp, "Phone", second.create(options));
    expect(added.recoveryCodes).toBeNull();
    expect((await factorsView(getDb(), ada.id)).factors.map((f) => f.name).sort()).toEqual(["Laptop", "Phone"]);
    expect((await factorsView(getDb(), ada.id)).recoveryCodesLeft).toBe(10);
  });

  it("refuses a reused challenge, another user's challenge, another origin, and a response the library cannot verify", async () => {
    const options = await startPasskeyRegistration(getDb(), bob, rp);
    const answer = bobKey.create(options);
    // Ada's session answering Bob's challenge.
    await expect(finishPasskeyRegistration(getDb(), ada, rp, "x", answer)).rejects.toMatchObject({ code: "auth.passkey_refused" });
    // That attempt used the challenge up: Bob's own answer to it is refused too.
    await expect(finishPasskeyRegistration(getDb(), bob, rp, "x", answer)).rejects.toMatchObject({ code: "auth.passkey_refused" });
    const elsewhere = bobKey.create(await startPasskeyRegistration(getDb(), bob, rp), { origin: "http://evil.localhost:3000" });
    await expect(finishPasskeyRegistration(getDb(), bob, rp, "x", elsewhere)).rejects.toMatchObject({ code: "auth.passkey_refused" });
    const tampered = bobKey.create(await startPasskeyRegistration(getDb(), bob, rp));
    // The client data of an assertion (webauthn.get) where a creation's belongs.
    const clientData = JSON.parse(Buffer.from(tampered.response.clientDataJSON, "base64url").toString());
    tampered.response.clientDataJSON = Buffer.from(JSON.stringify({ ...clientData, type: "webauthn.get" })).toString("base64url");
    await expect(finishPasskeyRegistration(getDb(), bob, rp, "x", tampered)).rejects.toMatchObject({ code: "auth.passkey_refused" });
    expect(await hasSecondFactor(getDb(), bob.id)).toBe(false);
    bobKey.credentials.length = 0;
  });
});

describe("passwordless sign-in", () => {
  it("a user-verified passkey signs its user in with no email or password", async () => {
    const { raw } = await passwordless(adaKey);
    expect(await passkeySignIn(getDb(), raw, slot())).toMatchObject({ id: ada.id, email: ada.email });
  });

  it("the same answer again is refused: the challenge was used up", async () => {
    const { raw } = await passwordless(adaKey);
    expect(await passkeySignIn(getDb(), raw, slot())).toMatchObject({ id: ada.id });
    expect(await passkeySignIn(getDb(), raw, slot())).toBeNull();
  });

  it("refuses an answer without user verification, for another origin, or with a counter that went back (a clone)", async () => {
    expect(await passkeySignIn(getDb(), (await passwordless(adaKey, { verified: false })).raw, slot())).toBeNull();
    expect(await passkeySignIn(getDb(), (await passwordless(adaKey, { origin: "http://127.0.0.1:3000" })).raw, slot())).toBeNull();
    // The app served on another origin than the one the challenge's answer names.
    expect(await passkeySignIn(getDb(), (await passwordless(adaKey)).raw, { ...slot(), origin: "http://localhost:4000" })).toBeNull();
    const stored = await all(getDb().select().from(passkeyCredentials));
    const counter = Math.max(...stored.map((row) => row.counter));
    expect(await passkeySignIn(getDb(), (await passwordless(adaKey, { counter: 1 })).raw, slot())).toBeNull();
    expect(counter).toBeGreaterThan(1);
  });

  it("refuses a challenge that has expired (2 minutes)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { raw } = await passwordless(adaKey);
    vi.setSystemTime(Date.now() + PASSKEY_CHALLENGE_MS + 1);
    expect(await passkeySignIn(getDb(), raw, slot())).toBeNull();
    vi.useRealTimers();
  });

  it("refuses an answer to a challenge issued for a second step: a passkey of its own is no password", async () => {
    const options = await passkeyRequestOptions(getDb(), rp, "second-factor");
    await expect(passkeySignIn(getDb(), JSON.stringify(adaKey.get(options)), slot())).rejects.toThrow(SIGN_IN_EXPIRED);
  });

  it("failed answers count on the account's sign-in throttle like wrong passwords; a success clears it", async () => {
    const keys = { email: "", address: "198.51.100.40" };
    for (let i = 0; i < 5; i++) {
      const { raw } = await passwordless(adaKey, { verified: false });
      keys.email = await passkeyAttemptEmail(getDb(), raw, undefined);
      await takeAttempt("signIn", keys);
      expect(await passkeySignIn(getDb(), raw, slot())).toBeNull();
    }
    expect(keys.email).toBe(ada.email);
    await expect(takeAttempt("signIn", keys)).rejects.toThrow(expect.objectContaining({ code: "auth.rate_limited" }));
    await clearAccountAttempts(ada.email, keys.address);
    expect(await attemptRetryAfterSeconds("signIn", keys)).toBe(0);
    await limiters.signInAddress.reset(`address:${keys.address}`);
  });
});

describe("a passkey as the second step of a sign-in", () => {
  async function passwordStep() {
    const check = await verifyCredentials(getDb(), ada.email, PASSWORD);
    if (check.outcome !== "ok") throw new Error("password refused");
    const context = slot();
    expect(await beginSecondStep(getDb(), check.user, context)).toBe(true);
    return context.startedPending as string;
  }

  it("answers the pending sign-in instead of a code", async () => {
    const token = await passwordStep();
    const options = await passkeyRequestOptions(getDb(), rp, "second-factor");
    expect(options.userVerification).toBe("preferred");
    // User presence is enough here: the password was the other factor.
    const raw = JSON.stringify(adaKey.get(options, { verified: false }));
    expect(await passkeyAttemptEmail(getDb(), raw, token)).toBe(ada.email);
    expect(await passkeySignIn(getDb(), raw, slot(token))).toMatchObject({ id: ada.id });
  });

  it("refuses another user's passkey and counts it against the pending sign-in", async () => {
    const other = new SoftwareAuthenticator({ origin: ORIGIN });
    await register(bob, other, "Bob's key");
    const token = await passwordStep();
    for (let i = 0; i < 5; i++) {
      const options = await passkeyRequestOptions(getDb(), rp, "second-factor");
      expect(await passkeySignIn(getDb(), JSON.stringify(other.get(options)), slot(token))).toBeNull();
    }
    // Five wrong answers end it: even Ada's own passkey now needs the password again.
    const options = await passkeyRequestOptions(getDb(), rp, "second-factor");
    await expect(passkeySignIn(getDb(), JSON.stringify(adaKey.get(options)), slot(token))).rejects.toThrow(SIGN_IN_EXPIRED);
  });
});

describe("policies, re-authentication and removal", () => {
  it("a passkey satisfies the administrators' and everyone's policies", async () => {
    await setMfaPolicy(getDb(), ada.id, { requiredForAdmins: true, requiredForEveryone: true });
    expect((await mfaPolicy(getDb())).requiredForEveryone).toBe(true);
    expect(await mustEnrol(getDb(), { id: ada.id, isAdmin: true })).toBe(false);
    expect(await mustEnrol(getDb(), { id: bob.id, isAdmin: false })).toBe(false);
    await setMfaPolicy(getDb(), ada.id, { requiredForAdmins: false, requiredForEveryone: false });
  });

  it("removing a factor needs a passkey answer to a re-authentication challenge of the same user", async () => {
    const [laptop] = (await factorsView(getDb(), ada.id)).factors.filter((f) => f.name === "Laptop");
    // Bob's challenge answered by Ada's passkey: refused, and the factor stays.
    const bobs = await passkeyRequestOptions(getDb(), rp, "reauth", bob.id);
    await expect(removeFactor(getDb(), ada, laptop.id, { passkey: adaKey.get(bobs), rp })).rejects.toMatchObject({
      code: "auth.passkey_refused",
    });
    // A sign-in challenge is not a re-authentication one.
    const signIn = await passkeyRequestOptions(getDb(), rp, "sign-in");
    await expect(removeFactor(getDb(), ada, laptop.id, { passkey: adaKey.get(signIn), rp })).rejects.toMatchObject({
      code: "auth.passkey_refused",
    });
    const own = await passkeyRequestOptions(getDb(), rp, "reauth", ada.id);
    expect(own.allowCredentials).toHaveLength(2);
    await removeFactor(getDb(), ada, laptop.id, { passkey: adaKey.get(own), rp });
    expect((await factorsView(getDb(), ada.id)).factors.map((f) => f.name)).toEqual(["Phone"]);
    // Its credential went with it: the removed passkey signs nobody in.
    expect(await passkeySignIn(getDb(), (await passwordless(adaKey)).raw, slot())).toBeNull();
  });
});
