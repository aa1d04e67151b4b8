/**
 * Issue 31: an administrator's one-time password-reset link, on a real SQLite file. Single use,
 * one hour (the clock is passed in), every session ends when it is used, only the token's hash is
 * stored, the new password meets the same rules, and the issue is in the audit log.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { passwordResets } from "@/db/schema";
import { verifyCredentials } from "@/lib/auth/credentials";
import { completePasswordReset, describePasswordReset, issuePasswordReset, PASSWORD_RESET_TTL_MS } from "@/lib/auth/password-reset";
import { resolveSession, startSession } from "@/lib/auth/sessions";
import { adminUpdateUser } from "@/lib/workspaces/admin";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { type Person, person } from "../workspaces/helpers";
import { one } from "../../../db/exec";

const BASE = "http://localhost:3000";
let dir: string;
let admin: Person;

beforeAll(async () => {
  dir = useTempDataDir();
  admin = await person("admin@example.com");
});
afterAll(() => removeTempDataDir(dir));

const tokenOf = (url: string) => url.slice(`${BASE}/reset/`.length);

describe("password-reset links", () => {
  it("work once: the new password counts, the old one no longer, and every session of the user ends", async () => {
    const user = await person("forgetful@example.com");
    const sessions = [await startSession(getDb(), user.id), await startSession(getDb(), user.id)];
    const other = await startSession(getDb(), admin.id);
    const issued = await issuePasswordReset(getDb(), { userId: user.id, issuedBy: admin.id }, { baseUrl: BASE });
    expect(issued.url).toMatch(/^http:\/\/localhost:3000\/reset\/[A-Za-z0-9_-]{43}$/);
    expect(issued.expiresAt.getTime() - Date.now()).toBeGreaterThan(PASSWORD_RESET_TTL_MS - 60_000);
    const token = tokenOf(issued.url);
    expect(await describePasswordReset(getDb(), token)).toEqual({ email: "forgetful@example.com" });

    // Only the token's SHA-256 is stored.
    const row = (await one(getDb().select().from(passwordResets).where(eq(passwordResets.userId, user.id))))!;
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);

    expect(await completePasswordReset(getDb(), token, { password: "a fresh strong password" })).toEqual({
      email: "forgetful@example.com",
      endedSessions: 2,
    });
    expect(await Promise.all(sessions.map(async (sid) => await resolveSession(getDb(), sid)))).toEqual([null, null]);
    expect(await resolveSession(getDb(), other)).toBe(admin.id);
    expect(await verifyCredentials(getDb(), user.email, "a fresh strong password")).toMatchObject({ outcome: "ok" });
    expect(await verifyCredentials(getDb(), user.email, "a long enough password")).toEqual({ outcome: "wrong" });

    // Single use: the same link is refused afterwards, for reading and for setting.
    await expect(describePasswordReset(getDb(), token)).rejects.toThrow(expect.objectContaining({ code: "reset.used" }));
    await expect(completePasswordReset(getDb(), token, { password: "yet another good password" })).rejects.toMatchObject({
      code: "reset.used",
    });
    expect(await verifyCredentials(getDb(), user.email, "a fresh strong password")).toMatchObject({ outcome: "ok" });
  });

  it("expire after one hour", async () => {
    const user = await person("late@example.com");
    const issuedAt = new Date("2026-03-01T10:00:00Z");
    const token = tokenOf(
      (await issuePasswordReset(getDb(), { userId: user.id, issuedBy: admin.id }, { baseUrl: BASE, now: issuedAt })).url,
    );
    const at = (minutes: number) => new Date(issuedAt.getTime() + minutes * 60_000);
    expect(await describePasswordReset(getDb(), token, at(59))).toEqual({ email: "late@example.com" });
    await expect(describePasswordReset(getDb(), token, at(60))).rejects.toThrow(expect.objectContaining({ code: "reset.expired" }));
    await expect(completePasswordReset(getDb(), token, { password: "a fresh strong password" }, at(61))).rejects.toMatchObject({
      code: "reset.expired",
    });
    expect(await verifyCredentials(getDb(), user.email, "a long enough password")).toMatchObject({ outcome: "ok" });
  });

  it("a newer link closes the older one; an unknown token is not found", async () => {
    const user = await person("twice@example.com");
    const first = tokenOf((await issuePasswordReset(getDb(), { userId: user.id, issuedBy: admin.id }, { baseUrl: BASE })).url);
    const second = tokenOf((await issuePasswordReset(getDb(), { userId: user.id, issuedBy: admin.id }, { baseUrl: BASE })).url);
    await expect(describePasswordReset(getDb(), first)).rejects.toThrow(expect.objectContaining({ code: "reset.used" }));
    expect(await describePasswordReset(getDb(), second)).toEqual({ email: "twice@example.com" });
    await expect(describePasswordReset(getDb(), "not-a-token")).rejects.toThrow(expect.objectContaining({ code: "reset.not_found" }));
  });

  it("the new password meets the same rules (a breached one is refused and the link stays usable)", async () => {
    const user = await person("weak@example.com");
    const token = tokenOf((await issuePasswordReset(getDb(), { userId: user.id, issuedBy: admin.id }, { baseUrl: BASE })).url);
    await expect(completePasswordReset(getDb(), token, { password: "iloveyou123" })).rejects.toMatchObject({
      code: "auth.breached_password",
      field: "password",
    });
    await expect(completePasswordReset(getDb(), token, { password: "short" })).rejects.toMatchObject({ code: "auth.weak_password" });
    expect(await describePasswordReset(getDb(), token)).toEqual({ email: "weak@example.com" });
  });

  it("is not issued for a disabled account, and is audited with who issued it", async () => {
    const user = await person("audited@example.com");
    await issuePasswordReset(getDb(), { userId: user.id, issuedBy: admin.id }, { baseUrl: BASE });
    const { entries } = await listAudit(getDb(), { action: "user.password_reset_issued" });
    expect(entries.find((e) => e.target === user.id)).toMatchObject({ actorId: admin.id, action: "user.password_reset_issued" });
    expect(JSON.stringify(entries)).not.toMatch(/\/reset\//);

    const effects = { closeConnections: async () => {}, forgetTokens: async () => {}, stopTurns: async () => {} };
    await adminUpdateUser(getDb(), admin, user.id, { disabled: true }, effects);
    await expect(issuePasswordReset(getDb(), { userId: user.id, issuedBy: admin.id }, { baseUrl: BASE })).rejects.toThrow(
      expect.objectContaining({ code: "user.not_found" }),
    );
  });
});
