/**
 * A second factor before any stdio server (docs/second-factors.md#policies): an instance
 * administrator without a confirmed factor is refused whatever the policies say, and one with a
 * factor is not (adding, testing or changing a stdio config alike); a member is left to the stdio
 * check of the servers service.
 */
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { assertFactorForStdio, setMfaPolicy } from "@/lib/auth/mfa-policy";
import { confirmTotpEnrolment, startTotpEnrolment } from "@/lib/auth/second-factors";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { addServerView } from "@/lib/servers/service";
import { changeAndStartServer } from "@/lib/use-cases/saved-servers";
import { testServerConnection } from "@/lib/use-cases/test-connection";
import { registerTestUser } from "../../helpers/register";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

// The use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

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
  it("refuses an administrator without one with the policies unset, off, or on", async () => {
    const refused = async () => await assertFactorForStdio(getDb(), admin);
    await expect(refused()).rejects.toThrow(expect.objectContaining({ code: "auth.enrolment_required", field: "command" }));
    await setMfaPolicy(getDb(), admin.id, { requiredForAdmins: false, requiredForEveryone: false });
    await expect(refused()).rejects.toThrow(expect.objectContaining({ code: "auth.enrolment_required" }));
    await setMfaPolicy(getDb(), admin.id, { requiredForAdmins: true, requiredForEveryone: false });
    await expect(refused()).rejects.toThrow(expect.objectContaining({ code: "auth.enrolment_required" }));
    // A member never creates stdio servers at all: that refusal is the servers service's (auth.forbidden).
    await assertFactorForStdio(getDb(), member);
  });

  it("refuses to test, or change to, a stdio config for an administrator without one", async () => {
    const workspaceId = (await getPersonalWorkspaceId(getDb(), admin.id))!;
    const actor = { ...admin, workspaceId, sessionId: "no-session" };
    const config = { command: process.execPath, args: ["--version"] };
    // Saved below the use case (which would refuse it): a stdio server another administrator added.
    const saved = await addServerView(getDb(), actor, { name: "local", config });
    await expect(testServerConnection(actor, { config })).rejects.toMatchObject({ code: "auth.enrolment_required", field: "command" });
    await expect(changeAndStartServer(actor, saved.id, { name: "local", config: { ...config, args: ["-e", "1"] } })).rejects.toThrow(
      expect.objectContaining({ code: "auth.enrolment_required", field: "command" }),
    );
  });

  it("lets an administrator with a confirmed factor through, the policies off", async () => {
    await setMfaPolicy(getDb(), admin.id, { requiredForAdmins: false, requiredForEveryone: false });
    const started = await startTotpEnrolment(getDb(), admin);
    // Started but not confirmed is no factor yet.
    await expect(assertFactorForStdio(getDb(), admin)).rejects.toThrow(expect.objectContaining({ code: "auth.enrolment_required" }));
    await confirmTotpEnrolment(getDb(), admin, started.factorId, await generate({ secret: started.secret }));
    await assertFactorForStdio(getDb(), admin);
  });
});
