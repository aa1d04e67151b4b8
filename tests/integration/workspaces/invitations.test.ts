/**
 * Invitations and memberships over a real SQLite file: the lifecycle of a link (accept, expired,
 * reused, revoked, wrong email, register through it with registration closed), who may manage
 * whom, and the last owner who can neither leave nor be demoted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { invitations } from "@/db/schema";
import { listAudit } from "@/db/queries/audit";
import { getMembershipRole } from "@/db/queries/workspaces";
import { McpPool } from "@/lib/mcp";
import {
  acceptInvitation,
  createInvitation,
  hashToken,
  INVITATION_TTL_MS,
  listInvitations,
  registerWithInvitation,
  revokeWorkspaceInvitation,
} from "@/lib/workspaces/invitations";
import { changeMemberRole, listWorkspaceMembers, removeMember } from "@/lib/workspaces/members";
import { listMyWorkspaces } from "@/lib/workspaces/service";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { actorIn, person, recordingEffects, team, type Person } from "./helpers";
import { one } from "../../../db/exec";

const BASE = "http://app.test";
let dir: string;
let owner: Person;
let bob: Person;
let carol: Person;
let acme: string;
const pool = new McpPool();
const { effects } = recordingEffects(pool);

beforeAll(async () => {
  dir = useTempDataDir();
  owner = await person("owner@example.com");
  bob = await person("bob@example.com");
  carol = await person("carol@example.com");
  acme = await team(owner, "Acme");
});
afterAll(async () => {
  await pool.closeAll();
  removeTempDataDir(dir);
});

async function invite(email: string, role: "owner" | "admin" | "member" = "member", now?: Date) {
  return await createInvitation(getDb(), await actorIn(owner, acme), { email, role }, { baseUrl: BASE, now });
}

describe("invitation lifecycle", () => {
  it("creates a single-use link stored only as a hash, and accepting joins with the role", async () => {
    const created = await invite("Bob@Example.com", "admin");
    expect(created.url).toBe(`${BASE}/invite/${created.token}`);
    expect(created.token.length).toBeGreaterThanOrEqual(40);
    const raw = (await one(getDb().select().from(invitations).where(eq(invitations.id, created.id))))!;
    expect(raw.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(raw)).not.toContain(created.token);
    expect((await listInvitations(getDb(), await actorIn(owner, acme))).map((i) => i.email)).toContain("bob@example.com");

    expect(await acceptInvitation(getDb(), bob, created.token)).toEqual({ workspaceId: acme });
    expect(await getMembershipRole(getDb(), acme, bob.id)).toBe("admin");
    expect((await listMyWorkspaces(getDb(), bob.id)).map((w) => w.slug)).toEqual(["personal", "acme"]);
    expect((await listInvitations(getDb(), await actorIn(owner, acme))).map((i) => i.email)).not.toContain("bob@example.com");
  });

  it("refuses a reused link", async () => {
    const created = await invite("carol@example.com");
    await acceptInvitation(getDb(), carol, created.token);
    await expect(acceptInvitation(getDb(), carol, created.token)).rejects.toThrow(/already used/);
  });

  it("refuses an expired link (7 days)", async () => {
    const dave = await person("dave@example.com");
    const weekAgo = new Date(Date.now() - INVITATION_TTL_MS - 1000);
    const created = await invite(dave.email, "member", weekAgo);
    await expect(acceptInvitation(getDb(), dave, created.token)).rejects.toThrow(/expired/);
    expect(await getMembershipRole(getDb(), acme, dave.id)).toBeNull();
  });

  it("refuses a revoked link, and revoking twice is a 404", async () => {
    const erin = await person("erin@example.com");
    const created = await invite(erin.email);
    await revokeWorkspaceInvitation(getDb(), await actorIn(owner, acme), created.id);
    await expect(acceptInvitation(getDb(), erin, created.token)).rejects.toThrow(/revoked/);
    await expect(revokeWorkspaceInvitation(getDb(), await actorIn(owner, acme), created.id)).rejects.toThrow(
      expect.objectContaining({ code: "invitation.not_found" }),
    );
  });

  it("refuses the wrong signed-in email, and leaves the link usable for the right one", async () => {
    const frank = await person("frank@example.com");
    const created = await invite("someone-else@example.com");
    await expect(acceptInvitation(getDb(), frank, created.token)).rejects.toThrow(
      expect.objectContaining({ code: "invitation.wrong_email" }),
    );
    expect(await getMembershipRole(getDb(), acme, frank.id)).toBeNull();
    expect((await listInvitations(getDb(), await actorIn(owner, acme))).map((i) => i.id)).toContain(created.id);
  });

  it("registers the invited email through the link even when registration is closed", async () => {
    const created = await invite("newcomer@example.com");
    const before = process.env.SWITCHBOARD_REGISTRATION;
    process.env.SWITCHBOARD_REGISTRATION = "closed";
    try {
      const user = await registerWithInvitation(getDb(), created.token, { name: "Newcomer", password: "a long enough password" });
      expect(user.email).toBe("newcomer@example.com");
      expect(await getMembershipRole(getDb(), acme, user.id)).toBe("member");
      await expect(registerWithInvitation(getDb(), created.token, { name: "Again", password: "a long enough password" })).rejects.toThrow(
        /already used/,
      );
    } finally {
      process.env.SWITCHBOARD_REGISTRATION = before;
    }
  });

  it("an unknown token is a 404", async () => {
    await expect(acceptInvitation(getDb(), bob, "not-a-token")).rejects.toThrow(expect.objectContaining({ code: "invitation.not_found" }));
  });

  it("only owners invite owners; a personal workspace takes no invitations", async () => {
    await expect(
      createInvitation(getDb(), await actorIn(bob, acme), { email: "x@example.com", role: "owner" }, { baseUrl: BASE }),
    ).rejects.toThrow(expect.objectContaining({ code: "auth.forbidden" }));
    await expect(
      createInvitation(
        getDb(),
        await actorIn(owner, owner.personalWorkspaceId),
        { email: "x@example.com", role: "member" },
        { baseUrl: BASE },
      ),
    ).rejects.toThrow(expect.objectContaining({ code: "auth.forbidden" }));
  });

  it("audits invitations without their tokens", async () => {
    const entries = (await listAudit(getDb(), { workspaceId: acme, limit: 200 })).entries;
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(["invitation.create", "invitation.accept", "invitation.revoke"]));
    const created = await invite("audited@example.com");
    expect(JSON.stringify((await listAudit(getDb(), { limit: 200 })).entries)).not.toContain(created.token);
  });
});

describe("roles and the last owner", () => {
  it("the last owner can neither leave nor be demoted", async () => {
    await expect(removeMember(getDb(), await actorIn(owner, acme), owner.id, effects)).rejects.toMatchObject({
      code: "workspace.last_owner",
    });
    await expect(changeMemberRole(getDb(), await actorIn(owner, acme), owner.id, "admin", effects)).rejects.toMatchObject({
      code: "workspace.last_owner",
    });
    expect(await getMembershipRole(getDb(), acme, owner.id)).toBe("owner");
  });

  it("with a second owner, the first may step down", async () => {
    await changeMemberRole(getDb(), await actorIn(owner, acme), carol.id, "owner", effects);
    await changeMemberRole(getDb(), await actorIn(owner, acme), owner.id, "admin", effects);
    expect(await getMembershipRole(getDb(), acme, owner.id)).toBe("admin");
    await expect(changeMemberRole(getDb(), await actorIn(carol, acme), carol.id, "member", effects)).rejects.toMatchObject({
      code: "workspace.last_owner",
    });
    await changeMemberRole(getDb(), await actorIn(carol, acme), owner.id, "owner", effects);
  });

  it("admins manage members but never owners; members manage nobody", async () => {
    // bob is an admin (accepted above), carol an owner.
    await expect(changeMemberRole(getDb(), await actorIn(bob, acme), carol.id, "member", effects)).rejects.toMatchObject({
      code: "auth.forbidden",
    });
    await expect(removeMember(getDb(), await actorIn(bob, acme), carol.id, effects)).rejects.toMatchObject({ code: "auth.forbidden" });
    await expect(changeMemberRole(getDb(), await actorIn(bob, acme), bob.id, "owner", effects)).rejects.toMatchObject({
      code: "auth.forbidden",
    });
    const members = await listWorkspaceMembers(getDb(), await actorIn(bob, acme));
    const newcomer = members.find((m) => m.email === "newcomer@example.com")!;
    await changeMemberRole(getDb(), await actorIn(bob, acme), newcomer.userId, "admin", effects);
    await changeMemberRole(getDb(), await actorIn(bob, acme), newcomer.userId, "member", effects);
    const asMember = { ...(await actorIn(owner, acme)), id: newcomer.userId, role: "member" as const };
    await expect(removeMember(getDb(), asMember, bob.id, effects)).rejects.toMatchObject({ code: "auth.forbidden" });
    // Anyone may leave.
    await removeMember(getDb(), asMember, newcomer.userId, effects);
    expect(await getMembershipRole(getDb(), acme, newcomer.userId)).toBeNull();
  });

  it("nobody leaves their personal workspace", async () => {
    await expect(removeMember(getDb(), await actorIn(bob, bob.personalWorkspaceId), bob.id, effects)).rejects.toMatchObject({
      code: "auth.forbidden",
    });
  });

  it("audits role changes and removals", async () => {
    const actions = (await listAudit(getDb(), { workspaceId: acme, limit: 200 })).entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["member.role", "member.leave", "workspace.create"]));
  });
});
