/** Server-side sessions on a real SQLite file: what ends a session, and what does not. */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { changePassword, signOutEverywhere } from "@/lib/auth/account";
import { checkCredentials } from "@/lib/auth/credentials";
import { endOneSession, endUserSessions, resolveSession, startSession } from "@/lib/auth/sessions";
import { limiters } from "@/lib/auth/sign-in-throttle";
import { registerTestUser } from "../../helpers/register";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { exec } from "../../../db/exec";

let dir: string;
let n = 0;
const HOUR = 3_600_000;

async function newUser() {
  n += 1;
  return registerTestUser(getDb(), { email: `u${n}@example.com`, password: "a long enough password", name: `U${n}` });
}

beforeAll(() => {
  dir = useTempDataDir();
});
afterAll(() => removeTempDataDir(dir));
afterEach(() => {
  delete process.env.SWITCHBOARD_SESSION_IDLE_MINUTES;
  delete process.env.SWITCHBOARD_SESSION_MAX_AGE_HOURS;
});

describe("sessions", () => {
  it("a started session resolves to its user until it is ended", async () => {
    const user = await newUser();
    const sid = await startSession(getDb(), user.id);
    expect(await resolveSession(getDb(), sid)).toBe(user.id);
    await endOneSession(getDb(), sid);
    expect(await resolveSession(getDb(), sid)).toBeNull();
    expect(await resolveSession(getDb(), "no-such-session")).toBeNull();
  });

  it("sign-out everywhere ends every session of the user and no one else's", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const a1 = await startSession(getDb(), a.id);
    const a2 = await startSession(getDb(), a.id);
    const b1 = await startSession(getDb(), b.id);
    expect(await signOutEverywhere(getDb(), a.id)).toEqual({ endedSessions: 2 });
    expect([await resolveSession(getDb(), a1), await resolveSession(getDb(), a2), await resolveSession(getDb(), b1)]).toEqual([
      null,
      null,
      b.id,
    ]);
  });

  it("a password change keeps the current session and ends the others; the new password works", async () => {
    const user = await newUser();
    const current = await startSession(getDb(), user.id);
    const other = await startSession(getDb(), user.id);
    const actor = { id: user.id, email: user.email, sessionId: current, address: "203.0.113.7" };
    await expect(
      changePassword(getDb(), actor, { currentPassword: "wrong password!", newPassword: "a brand new password" }),
    ).rejects.toMatchObject({
      code: "auth.forbidden",
    });
    expect(
      await changePassword(getDb(), actor, { currentPassword: "a long enough password", newPassword: "a brand new password" }),
    ).toEqual({
      endedSessions: 1,
    });
    expect(await resolveSession(getDb(), current)).toBe(user.id);
    expect(await resolveSession(getDb(), other)).toBeNull();
    expect(await checkCredentials(getDb(), user.email, "a brand new password")).toMatchObject({ id: user.id });
    expect(await checkCredentials(getDb(), user.email, "a long enough password")).toBeNull();
    await limiters.signInAccount.reset(`account:${user.email}`);
  });

  it("a disabled user is out on the next request and cannot sign in", async () => {
    const user = await newUser();
    const sid = await startSession(getDb(), user.id);
    await exec(getDb().update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id)));
    expect(await resolveSession(getDb(), sid)).toBeNull();
    expect(await checkCredentials(getDb(), user.email, "a long enough password")).toBeNull();
  });

  it("a deleted user's sessions go with them", async () => {
    const user = await newUser();
    const sid = await startSession(getDb(), user.id);
    await exec(getDb().delete(users).where(eq(users.id, user.id)));
    expect(await resolveSession(getDb(), sid)).toBeNull();
  });

  it("ends a session idle for longer than SWITCHBOARD_SESSION_IDLE_MINUTES, for good", async () => {
    process.env.SWITCHBOARD_SESSION_IDLE_MINUTES = "30";
    const user = await newUser();
    const t0 = new Date("2026-01-01T00:00:00Z");
    const sid = await startSession(getDb(), user.id, t0);
    // Activity keeps it alive: each request within the timeout moves last-seen forward.
    expect(await resolveSession(getDb(), sid, new Date(t0.getTime() + 20 * 60_000))).toBe(user.id);
    expect(await resolveSession(getDb(), sid, new Date(t0.getTime() + 45 * 60_000))).toBe(user.id);
    expect(await resolveSession(getDb(), sid, new Date(t0.getTime() + 80 * 60_000))).toBeNull();
    process.env.SWITCHBOARD_SESSION_IDLE_MINUTES = "0";
    expect(await resolveSession(getDb(), sid, new Date(t0.getTime() + 81 * 60_000))).toBeNull();
  });

  it("ends a session at SWITCHBOARD_SESSION_MAX_AGE_HOURS however active it is", async () => {
    process.env.SWITCHBOARD_SESSION_MAX_AGE_HOURS = "2";
    process.env.SWITCHBOARD_SESSION_IDLE_MINUTES = "0";
    const user = await newUser();
    const t0 = new Date("2026-01-01T00:00:00Z");
    const sid = await startSession(getDb(), user.id, t0);
    expect(await resolveSession(getDb(), sid, new Date(t0.getTime() + 1.5 * HOUR))).toBe(user.id);
    expect(await resolveSession(getDb(), sid, new Date(t0.getTime() + 2 * HOUR + 1))).toBeNull();
  });

  it("endUserSessions can keep one session (for callers such as an admin area)", async () => {
    const user = await newUser();
    const keep = await startSession(getDb(), user.id);
    const drop = await startSession(getDb(), user.id);
    expect(await endUserSessions(getDb(), user.id, { keepSessionId: keep })).toBe(1);
    expect([await resolveSession(getDb(), keep), await resolveSession(getDb(), drop)]).toEqual([user.id, null]);
  });
});
