/**
 * A sign-in finished on another replica than the one it started on (issue 27, "any request on any
 * replica"): the pending sign-in between password and code, and passkey challenges, are values of
 * the coordination. Two clients of one real Redis stand for two replicas (`onReplica` swaps the
 * process's coordination between them); the database is the test's (SQLite, or Postgres on that lane).
 * Proven: a password step on A is finished by a code on B once and only once; wrong codes sent to
 * both add up; a challenge issued on A is answered on B once; Redis holds no token, challenge, user
 * id or email in clear, and an entry moved to another key does not open; losing Redis means signing
 * in again.
 */
import { createHash } from "node:crypto";
import { generate } from "otplib";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { verifyCredentials } from "@/lib/auth/credentials";
import { challengeIssuedFor, issueChallenge, takeChallenge } from "@/lib/auth/passkey-challenges";
import { finishPasskeyRegistration, passkeyRequestOptions, relyingParty, startPasskeyRegistration } from "@/lib/auth/passkeys";
import { endPendingSignIn, failPendingSignIn, readPendingSignIn, startPendingSignIn } from "@/lib/auth/pending-sign-in";
import { confirmTotpEnrolment, startTotpEnrolment } from "@/lib/auth/second-factors";
import type { SignInContext } from "@/lib/auth/sign-in-context";
import { beginSecondStep, completeSecondStep, passkeySignIn, SIGN_IN_EXPIRED } from "@/lib/auth/sign-in-steps";
import { type Coordination, RedisCoordination } from "@/lib/cluster";
import { clearSingleton, singleton } from "@/lib/singleton";
import { startRedis, type TestRedis } from "../../helpers/redis";
import { registerTestUser } from "../../helpers/register";
import { SoftwareAuthenticator } from "../../helpers/software-authenticator";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

const ORIGIN = "http://localhost:3000";
const rp = relyingParty(ORIGIN);
const PASSWORD = "a long enough password";
const tess = { id: "", email: "tess@example.com" };
const pia = { id: "", email: "pia@example.com" };
const piaKey = new SoftwareAuthenticator({ origin: ORIGIN });
let secret = "";
let recoveryCodes: string[] = [];
let dir = "";
let redis: TestRedis;
let a: RedisCoordination;
let b: RedisCoordination;

/** Serve what follows as replica `replica`: the process's coordination becomes that Redis client. */
function onReplica(replica: Coordination): void {
  clearSingleton("cluster.coordination");
  singleton("cluster.coordination", () => replica);
}

// A code for the time step `offset` steps from now (each code counts once; a code that is never
// checked, its pending sign-in being gone, may be any step).
const codeAt = (offset: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

/** Tess's right password on the current replica: the token of her pending sign-in. */
async function passwordStep(): Promise<string> {
  const check = await verifyCredentials(getDb(), tess.email, PASSWORD);
  if (check.outcome !== "ok") throw new Error("password refused");
  const context: SignInContext = { address: "203.0.113.5", origin: ORIGIN };
  expect(await beginSecondStep(getDb(), check.user, context)).toBe(true);
  return context.startedPending as string;
}

const withToken = (pendingToken: string): SignInContext => ({ address: "203.0.113.5", origin: ORIGIN, pendingToken });

/** Every key and value of the instance in Redis, as raw text. */
async function redisContents(): Promise<string> {
  const client = createClient({ url: redis.url });
  await client.connect();
  try {
    const lines: string[] = [];
    for (const key of await client.keys("switchboard:*")) {
      const type = await client.type(key);
      const value = type === "string" ? await client.get(key) : JSON.stringify(type === "hash" ? await client.hGetAll(key) : type);
      lines.push(`${key} ${value}`);
    }
    return lines.join("\n");
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  dir = useTempDataDir();
  redis = await startRedis();
  a = new RedisCoordination(redis.url);
  b = new RedisCoordination(redis.url);
  onReplica(a);
  tess.id = (await registerTestUser(getDb(), { email: tess.email, password: PASSWORD, name: "Tess" })).id;
  pia.id = (await registerTestUser(getDb(), { email: pia.email, password: PASSWORD, name: "Pia" })).id;
  const started = await startTotpEnrolment(getDb(), tess);
  secret = started.secret;
  ({ recoveryCodes } = await confirmTotpEnrolment(getDb(), tess, started.factorId, await codeAt(0)));
});

afterAll(async () => {
  clearSingleton("cluster.coordination");
  await Promise.all([a?.close(), b?.close()]);
  await redis?.stop();
  removeTempDataDir(dir);
});

describe("a pending sign-in across replicas", () => {
  it("the password on A, the code on B signs in; the pending sign-in is then used up on both", async () => {
    onReplica(a);
    const token = await passwordStep();
    onReplica(b);
    expect(await completeSecondStep(getDb(), await codeAt(1), withToken(token))).toMatchObject({ id: tess.id });
    await expect(completeSecondStep(getDb(), await codeAt(2), withToken(token))).rejects.toThrow(SIGN_IN_EXPIRED);
    onReplica(a);
    await expect(completeSecondStep(getDb(), await codeAt(2), withToken(token))).rejects.toThrow(SIGN_IN_EXPIRED);
  });

  it("ended from two replicas at once, exactly one of them ends it (one sign-in)", async () => {
    for (let round = 0; round < 20; round++) {
      const token = await startPendingSignIn(tess, Date.now(), a);
      const ended = await Promise.all([endPendingSignIn(token, a), endPendingSignIn(token, b), endPendingSignIn(token, b)]);
      expect(ended.filter(Boolean)).toHaveLength(1);
    }
  });

  it("wrong codes sent to both replicas add up: the fifth ends it everywhere", async () => {
    const token = await startPendingSignIn(tess, Date.now(), a);
    await Promise.all([failPendingSignIn(token, a), failPendingSignIn(token, b), failPendingSignIn(token, a), failPendingSignIn(token, b)]);
    expect(await readPendingSignIn(token, Date.now(), a)).toMatchObject({ userId: tess.id, failures: 4 });
    await failPendingSignIn(token, b);
    expect(await readPendingSignIn(token, Date.now(), a)).toBeNull();
    expect(await readPendingSignIn(token, Date.now(), b)).toBeNull();
    onReplica(a);
    await expect(completeSecondStep(getDb(), await codeAt(3), withToken(token))).rejects.toThrow(SIGN_IN_EXPIRED);
  });

  it("Redis holds neither the token nor who is signing in, and an entry moved to another key does not open", async () => {
    const token = await startPendingSignIn(tess, Date.now(), a);
    const contents = await redisContents();
    expect(contents).toContain("pending-sign-in:");
    for (const clear of [token, tess.id, tess.email, "tess"]) expect(contents).not.toContain(clear);
    // Pia, who knows her own password but not Tess's, can write to Redis: she copies Tess's sealed
    // entry (made when Tess typed her password) over her own, hoping to owe only Tess's code.
    const own = await startPendingSignIn(pia, Date.now(), a);
    const keyOf = (t: string) => `switchboard:value:pending-sign-in:${createHash("sha256").update(t).digest("hex")}`;
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const tessEntry = await client.get(keyOf(token));
      expect(tessEntry).toBeTruthy();
      await client.set(keyOf(own), tessEntry as string, { PX: 60_000 });
    } finally {
      await client.close();
    }
    expect(await readPendingSignIn(own, Date.now(), b)).toBeNull();
    onReplica(b);
    await expect(completeSecondStep(getDb(), await codeAt(3), withToken(own))).rejects.toThrow(SIGN_IN_EXPIRED);
    // Tess's own is untouched.
    expect(await readPendingSignIn(token, Date.now(), b)).toMatchObject({ userId: tess.id, email: tess.email });
  });
});

describe("passkey challenges across replicas", () => {
  it("a passkey added with options from A and the answer to B; a passwordless sign-in the same way, once", async () => {
    onReplica(a);
    const creation = await startPasskeyRegistration(getDb(), pia, rp);
    onReplica(b);
    await finishPasskeyRegistration(getDb(), pia, rp, "Laptop", piaKey.create(creation));
    onReplica(a);
    const options = await passkeyRequestOptions(getDb(), rp, "sign-in");
    const raw = JSON.stringify(piaKey.get(options));
    onReplica(b);
    expect(await passkeySignIn(getDb(), raw, withToken(""))).toMatchObject({ id: pia.id });
    onReplica(a);
    expect(await passkeySignIn(getDb(), raw, withToken(""))).toBeNull();
  });

  it("answered on two replicas at once, a challenge is taken once; one of another purpose is left alone", async () => {
    for (let round = 0; round < 20; round++) {
      const challenge = await issueChallenge("reauth", pia.id, Date.now(), a);
      expect(await challengeIssuedFor(challenge, "reauth", Date.now(), b)).toBe(true);
      expect(await takeChallenge(challenge, "sign-in", null, Date.now(), b)).toBe(false);
      const taken = await Promise.all([
        takeChallenge(challenge, "reauth", pia.id, Date.now(), a),
        takeChallenge(challenge, "reauth", pia.id, Date.now(), b),
        takeChallenge(challenge, "reauth", pia.id, Date.now(), b),
      ]);
      expect(taken.filter(Boolean)).toHaveLength(1);
      expect(await challengeIssuedFor(challenge, "reauth", Date.now(), a)).toBe(false);
    }
  });

  it("stays bound to its user and holds no challenge in Redis", async () => {
    const challenge = await issueChallenge("reauth", pia.id, Date.now(), a);
    expect(await redisContents()).not.toContain(challenge);
    expect(await takeChallenge(challenge, "reauth", tess.id, Date.now(), b)).toBe(false);
    // That try used it up, as on one process.
    expect(await takeChallenge(challenge, "reauth", pia.id, Date.now(), a)).toBe(false);
  });
});

describe("when Redis is lost", () => {
  it("a half-finished sign-in is gone (the password again); while it is away, sign-in steps answer 503", async () => {
    onReplica(a);
    const token = await passwordStep();
    await redis.kill();
    await expect(startPendingSignIn(tess, Date.now(), a)).rejects.toMatchObject({ code: "cluster.unavailable" });
    await expect(issueChallenge("sign-in", null, Date.now(), b)).rejects.toMatchObject({ code: "cluster.unavailable" });
    await redis.start();
    const deadline = Date.now() + 10_000;
    while ((await readPendingSignIn(token, Date.now(), b).catch(() => "down")) === "down") {
      if (Date.now() > deadline) throw new Error("Redis did not come back");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    onReplica(b);
    await expect(completeSecondStep(getDb(), await codeAt(4), withToken(token))).rejects.toThrow(SIGN_IN_EXPIRED);
    // Signing in again works at once (a recovery code: this minute's TOTP code was spent above).
    const again = await passwordStep();
    expect(await completeSecondStep(getDb(), recoveryCodes[0], withToken(again))).toMatchObject({ id: tess.id });
  }, 30_000);
});
