/**
 * Re-authentication before sensitive acts, over the use cases the routes call and a real SQLite
 * file: each act answers `auth.reauth_required` when the session's sign-in is older than 10 minutes
 * and succeeds after `POST /api/account/reauth`'s use case (password or code); acts that are not
 * sensitive never ask. Sessions are real rows; only their sign-in time is moved back.
 */
import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { exec } from "@/db/exec";
import { listRecentAudit } from "@/db/queries/audit";
import { upsertMembership } from "@/db/queries/memberships";
import { createServer } from "@/db/queries/servers";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { sessions } from "@/db/schema";
import { confirmTotpEnrolment, startTotpEnrolment } from "@/lib/auth/second-factors";
import { startSession } from "@/lib/auth/sessions";
import type { WorkspaceCaller } from "@/lib/auth/workspace";
import { deleteUser, updateUser } from "@/lib/use-cases/admin";
import { changeAndStartServer } from "@/lib/use-cases/saved-servers";
import { instanceMfaPolicy, reauth, setInstanceMfaPolicy } from "@/lib/use-cases/second-factors";
import { setMemberRole } from "@/lib/use-cases/workspaces";
import { appPool } from "@/lib/runtime/engine";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { person, type Person, team } from "../workspaces/helpers";

// The use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const PASSWORD = "a long enough password";
const request = () => new Request("http://localhost:3000/api/account/reauth", { method: "POST" });
let dir: string;
let admin: Person;
let bob: Person;
let cleo: Person;
let teamId: string;
let serverId: string;

/** `who` signed in, acting in workspace `workspaceId`, as `requireWorkspace` builds the caller. */
async function signedIn(who: Person, workspaceId: string, isAdmin = false): Promise<WorkspaceCaller> {
  const workspace = (await getWorkspaceById(getDb(), workspaceId))!;
  return {
    id: who.id,
    email: who.email,
    name: who.name,
    isAdmin,
    workspaceId,
    sessionId: await startSession(getDb(), who.id),
    role: "owner",
    workspace,
  };
}

/** Move the session's last sign-in `minutes` back. */
async function signedInAgo(caller: WorkspaceCaller, minutes: number): Promise<WorkspaceCaller> {
  await exec(
    getDb()
      .update(sessions)
      .set({ authenticatedAt: new Date(Date.now() - minutes * 60_000) })
      .where(eq(sessions.id, caller.sessionId)),
  );
  return caller;
}

/** Each sensitive act, run by a caller whose sign-in is 11 minutes old, then again after re-authenticating. */
async function refusedThenAllowed(act: (caller: WorkspaceCaller) => unknown, isAdmin = false) {
  const caller = await signedInAgo(await signedIn(admin, teamId, isAdmin), 11);
  await expect(Promise.resolve().then(() => act(caller))).rejects.toMatchObject({ code: "auth.reauth_required" });
  await reauth(caller, request(), { password: PASSWORD });
  await Promise.resolve().then(() => act(caller));
}

beforeAll(async () => {
  dir = useTempDataDir();
  admin = await person("admin@example.com"); // the first account: the instance administrator
  bob = await person("bob@example.com");
  cleo = await person("cleo@example.com");
  teamId = await team(admin, "Acme");
  await upsertMembership(getDb(), { workspaceId: teamId, userId: bob.id, role: "member" });
  serverId = (
    await createServer(getDb(), {
      workspaceId: teamId,
      name: "api",
      config: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer one" } },
      createdBy: admin.id,
    })
  ).id;
});
afterAll(async () => {
  await appPool().closeAll();
  removeTempDataDir(dir);
});

describe("sensitive acts need a recent sign-in", () => {
  it("a fresh sign-in counts; one older than 10 minutes does not", async () => {
    await setMemberRole(await signedInAgo(await signedIn(admin, teamId), 9), bob.id, "admin");
    await expect(setMemberRole(await signedInAgo(await signedIn(admin, teamId), 11), bob.id, "member")).rejects.toMatchObject({
      code: "auth.reauth_required",
    });
  });

  it("changing a member's role", () => refusedThenAllowed((caller) => setMemberRole(caller, bob.id, "member")));

  it("changing another user's account (admin, disabled) and deleting it", async () => {
    await refusedThenAllowed((caller) => updateUser(caller, bob.id, { disabled: true }), true);
    await refusedThenAllowed((caller) => deleteUser(caller, cleo.id), true);
  });

  it("a server's secret, credential mode and origin; a rename is not sensitive", async () => {
    const masked = { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "********" } };
    const stale = await signedInAgo(await signedIn(admin, teamId), 30);
    expect((await changeAndStartServer(stale, serverId, { name: "api-renamed", config: masked })).name).toBe("api-renamed");
    await refusedThenAllowed(
      async (caller) => await changeAndStartServer(caller, serverId, { config: { ...masked, headers: { Authorization: "Bearer two" } } }),
    );
    await refusedThenAllowed(
      async (caller) => await changeAndStartServer(caller, serverId, { config: { ...masked, credentials: "shared" } }),
    );
    await refusedThenAllowed(async (caller) => await changeAndStartServer(caller, serverId, { config: { url: "http://127.0.0.2:9/mcp" } }));
  });

  it("the instance's second-factor policies; the change is audited", async () => {
    await refusedThenAllowed(
      async (caller) => await setInstanceMfaPolicy(caller, { requiredForAdmins: false, requiredForEveryone: false }),
      true,
    );
    expect(await instanceMfaPolicy()).toMatchObject({ requiredForAdmins: false, adminsExplicit: true, requiredForEveryone: false });
    expect((await listRecentAudit(getDb())).some((e) => e.action === "instance.mfa_policy")).toBe(true);
  });
});

describe("re-authenticating", () => {
  it("a wrong password is refused and renews nothing; a second-factor code renews the session", async () => {
    const caller = await signedInAgo(await signedIn(admin, teamId), 11);
    await expect(reauth(caller, request(), { password: "not the password at all" })).rejects.toMatchObject({ code: "auth.forbidden" });
    await expect(setMemberRole(caller, bob.id, "admin")).rejects.toMatchObject({ code: "auth.reauth_required" });
    const started = await startTotpEnrolment(getDb(), admin);
    const now = Math.floor(Date.now() / 1000);
    await confirmTotpEnrolment(getDb(), admin, started.factorId, await generate({ secret: started.secret, epoch: now }));
    await expect(reauth(caller, request(), { code: "000000" })).rejects.toMatchObject({ code: "auth.forbidden" });
    await reauth(caller, request(), { code: await generate({ secret: started.secret, epoch: now + 30 }) });
    await setMemberRole(caller, bob.id, "admin");
  });
});
