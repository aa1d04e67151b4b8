/**
 * Authority ends with the role (issue 28), over a real SQLite file: a removed or demoted admin's
 * invitations are dead (they cannot bring themselves back in), a current member cannot be invited,
 * acceptance grants at most the inviter's role at that moment, and the list names who invited.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { deleteMembership, setMembershipRole } from "@/db/queries/memberships";
import { getMembershipRole } from "@/db/queries/workspaces";
import { McpPool } from "@/lib/mcp";
import { acceptInvitation, createInvitation, describeInvitation, listInvitations } from "@/lib/workspaces/invitations";
import { changeMemberRole, removeMember } from "@/lib/workspaces/members";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { actorIn, person, recordingEffects, team, type Person } from "./helpers";

const BASE = "http://app.test";
let dir: string;
let owner: Person;
let mallory: Person;
let dana: Person;
let erin: Person;
let acme: string;
const pool = new McpPool();
const { effects } = recordingEffects(pool);

beforeAll(async () => {
  dir = useTempDataDir();
  owner = await person("owner@example.com");
  mallory = await person("mallory@example.com");
  dana = await person("dana@example.com");
  erin = await person("erin@example.com");
  acme = await team(owner, "Acme");
});
afterAll(async () => {
  await pool.closeAll();
  removeTempDataDir(dir);
});

async function invite(by: Person, email: string, role: "owner" | "admin" | "member") {
  return await createInvitation(getDb(), await actorIn(by, acme), { email, role }, { baseUrl: BASE });
}

/** Make `user` a member of Acme with `role` through an owner's invitation. */
async function join(user: Person, role: "owner" | "admin" | "member") {
  await acceptInvitation(getDb(), user, (await invite(owner, user.email, role)).token);
}

describe("authority ends with the role", () => {
  it("refuses an invitation to a current member, whatever the role asked", async () => {
    await join(mallory, "admin");
    await expect(invite(owner, "Mallory@Example.com", "owner")).rejects.toThrow(
      expect.objectContaining({ code: "invitation.already_member" }),
    );
    await expect(invite(mallory, mallory.email, "admin")).rejects.toThrow(expect.objectContaining({ code: "invitation.already_member" }));
  });

  it("a removed admin's invitation is dead, also the one to their own address", async () => {
    // Their own address is refused while they are a member (above); a link sent to another address
    // of theirs must die with their role.
    const spare = await invite(mallory, dana.email, "admin");
    await removeMember(getDb(), await actorIn(owner, acme), mallory.id, effects);
    expect((await listInvitations(getDb(), await actorIn(owner, acme))).map((i) => i.id)).not.toContain(spare.id);
    await expect(acceptInvitation(getDb(), dana, spare.token)).rejects.toThrow(expect.objectContaining({ code: "invitation.used" }));
    expect(await getMembershipRole(getDb(), acme, dana.id)).toBeNull();
    expect((await listAudit(getDb(), { workspaceId: acme, action: "invitation.revoke_by_role" })).entries[0]).toMatchObject({
      target: mallory.id,
      detail: { invitations: [spare.id] },
    });
  });

  it("a demoted admin's invitation to their own address no longer brings them back as admin", async () => {
    await join(mallory, "admin");
    const toSelfLater = await invite(mallory, erin.email, "admin");
    await changeMemberRole(getDb(), await actorIn(owner, acme), mallory.id, "member", effects);
    await expect(acceptInvitation(getDb(), erin, toSelfLater.token)).rejects.toThrow(expect.objectContaining({ code: "invitation.used" }));
    expect(await getMembershipRole(getDb(), acme, erin.id)).toBeNull();
    expect(await getMembershipRole(getDb(), acme, mallory.id)).toBe("member");
  });

  it("acceptance grants at most the inviter's role at that moment", async () => {
    await changeMemberRole(getDb(), await actorIn(owner, acme), mallory.id, "admin", effects);
    // An owner's invitation as owner, while that owner is still an owner: granted as asked.
    const second = await person("second-owner@example.com");
    const asOwner = await invite(owner, second.email, "owner");
    await acceptInvitation(getDb(), second, asOwner.token);
    expect(await getMembershipRole(getDb(), acme, second.id)).toBe("owner");
    // A demotion revokes the inviter's links; the cap is the second line of defence, seen here by
    // lowering the inviter's role without that sweep (as a link created concurrently would be).
    const third = await person("third@example.com");
    const link = await invite(second, third.email, "owner");
    await setMembershipRole(getDb(), { workspaceId: acme, userId: second.id, role: "admin" });
    expect((await describeInvitation(getDb(), link.token)).role).toBe("admin"); // the page shows what accepting grants
    await acceptInvitation(getDb(), third, link.token);
    expect(await getMembershipRole(getDb(), acme, third.id)).toBe("admin");
    expect((await listAudit(getDb(), { workspaceId: acme, action: "invitation.accept" })).entries[0]).toMatchObject({
      detail: { role: "admin", invitedAs: "owner" },
    });
  });

  it("an invitation whose inviter is no longer a member grants nothing", async () => {
    const fourth = await person("fourth@example.com");
    const link = await invite(mallory, fourth.email, "member");
    await deleteMembership(getDb(), { workspaceId: acme, userId: mallory.id });
    await expect(describeInvitation(getDb(), link.token)).rejects.toThrow(expect.objectContaining({ code: "invitation.revoked" }));
    await expect(acceptInvitation(getDb(), fourth, link.token)).rejects.toThrow(expect.objectContaining({ code: "invitation.revoked" }));
    expect(await getMembershipRole(getDb(), acme, fourth.id)).toBeNull();
  });

  it("the invitation list names who invited", async () => {
    const fifth = await person("fifth@example.com");
    const link = await invite(owner, fifth.email, "member");
    const listed = (await listInvitations(getDb(), await actorIn(owner, acme))).find((i) => i.id === link.id);
    expect(listed?.invitedBy).toEqual({ id: owner.id, name: owner.name });
  });
});
