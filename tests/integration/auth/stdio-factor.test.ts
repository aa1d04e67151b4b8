/**
 * A second factor before any stdio server (docs/second-factors.md#policies): an instance
 * administrator without a confirmed factor is refused whatever the policies say, and one with a
 * factor is not; a member is left to the stdio check of the servers service.
 */
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { assertFactorForStdio, setMfaPolicy } from "@/lib/auth/mfa-policy";
import { confirmTotpEnrolment, startTotpEnrolment } from "@/lib/auth/second-factors";
import { registerTestUser } from "../../helpers/register";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

let dir: string;
const admin = { id: "", email: "stdio-admin@example.com", isAdmin: true };
const member = { id: "", email: "stdio-member@example.com", isAdmin: false };

beforeAll(async () => {
  dir = useTempDataDir();
  // The first account is the instance administrator.
  admin.id = (await registerTestUser(getDb(), { email: admin.email, password: "a long enough password", name: "Ada" })).id;
  member.id = (await registerTestUser(getDb(), { email: member.email, password: "a long enough password", name: "Mo" })).id;
});
afterAll(() => removeTempDataDir(dir));

describe("a second factor before a stdio server", () => {
  it("refuses an administrator without one with the policies unset, off, or on", () => {
    const refused = () => assertFactorForStdio(getDb(), admin);
    expect(refused).toThrow(expect.objectContaining({ code: "auth.enrolment_required", field: "command" }));
    setMfaPolicy(getDb(), admin.id, { requiredForAdmins: false, requiredForEveryone: false });
    expect(refused).toThrow(expect.objectContaining({ code: "auth.enrolment_required" }));
    setMfaPolicy(getDb(), admin.id, { requiredForAdmins: true, requiredForEveryone: false });
    expect(refused).toThrow(expect.objectContaining({ code: "auth.enrolment_required" }));
    // A member never creates stdio servers at all: that refusal is the servers service's (auth.forbidden).
    expect(() => assertFactorForStdio(getDb(), member)).not.toThrow();
  });

  it("lets an administrator with a confirmed factor through, the policies off", async () => {
    setMfaPolicy(getDb(), admin.id, { requiredForAdmins: false, requiredForEveryone: false });
    const started = startTotpEnrolment(getDb(), admin);
    // Started but not confirmed is no factor yet.
    expect(() => assertFactorForStdio(getDb(), admin)).toThrow(expect.objectContaining({ code: "auth.enrolment_required" }));
    await confirmTotpEnrolment(getDb(), admin, started.factorId, await generate({ secret: started.secret }));
    expect(() => assertFactorForStdio(getDb(), admin)).not.toThrow();
  });
});
