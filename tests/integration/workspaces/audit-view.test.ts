/**
 * The audit log as people read it, over a real SQLite file: names and emails instead of ids, the
 * filters' lists drawn from the entries in scope (never another workspace's), the target filter,
 * and the CSV export (formula-safe, quoted, scoped).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { recordAudit } from "@/db/queries/audit";
import { createServer } from "@/db/queries/servers";
import { createInvitation } from "@/lib/workspaces/invitations";
import { auditCsv, auditPage, csvCell } from "@/lib/workspaces/audit-view";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { actorIn, person, team, type Person } from "./helpers";

let dir: string;
let owner: Person;
let bob: Person;
let stranger: Person;
let acme = "";
let other = "";

beforeAll(async () => {
  dir = useTempDataDir();
  owner = await person("owner@example.com");
  bob = await person("bob@example.com");
  stranger = await person("stranger@example.com");
  acme = await team(owner, "Acme");
  other = await team(stranger, "Other");
  const db = getDb();
  await recordAudit(db, {
    actorId: owner.id,
    workspaceId: acme,
    action: "member.role",
    target: bob.id,
    detail: { from: "member", to: "admin" },
  });
  await recordAudit(db, { actorId: bob.id, workspaceId: acme, action: "tool.policy_change", target: '=HYPERLINK("x")', detail: null });
  await recordAudit(db, { actorId: stranger.id, workspaceId: other, action: "member.remove", target: stranger.id });
});
afterAll(() => removeTempDataDir(dir));

describe("the audit log view", () => {
  it("names the actor, the target and the workspace instead of ids", async () => {
    const page = await auditPage(getDb(), {}, { workspaceId: acme });
    const role = page.entries.find((e) => e.action === "member.role");
    expect(role).toMatchObject({
      actorName: owner.name,
      actorEmail: owner.email,
      target: bob.id,
      targetSubject: { kind: "user", name: bob.name, email: bob.email },
      workspaceName: "Acme",
    });
    const created = page.entries.find((e) => e.action === "workspace.create");
    expect(created?.targetSubject).toMatchObject({ kind: "workspace", name: "Acme" });
  });

  it("offers the targets used most recently when more than the filter lists were named, by name", async () => {
    const db = getDb();
    const busy = await team(owner, "Busy");
    // 501 older targets whose ids sort before the newest one: listing by id would leave it out.
    for (let i = 0; i < 501; i++) {
      await recordAudit(db, { actorId: owner.id, workspaceId: busy, action: "tools.pinned", target: `0-${String(i).padStart(4, "0")}` });
    }
    await recordAudit(db, { actorId: owner.id, workspaceId: busy, action: "member.role", target: bob.id });
    const { facets } = await auditPage(db, { facets: "1" }, { workspaceId: busy });
    expect(facets?.targets).toHaveLength(500);
    expect(facets?.targets.find((t) => t.id === bob.id)?.subject).toMatchObject({ name: bob.name });
    expect(facets?.targets.some((t) => t.id === "0-0000")).toBe(false);
    const shown = facets?.targets.map((t) => t.subject?.name ?? t.id) ?? [];
    expect(shown).toEqual([...shown].sort((a, b) => a.localeCompare(b)));
  });

  it("names a server given as `server:<id>` and an invitation by the email it was for", async () => {
    const db = getDb();
    // A workspace of its own, so the other tests' counts stay as they are.
    const docs = await team(owner, "Docs");
    const server = await createServer(db, {
      workspaceId: docs,
      name: "docs-server",
      config: { url: "https://mcp.example.com/mcp" },
      createdBy: owner.id,
    });
    const invited = await createInvitation(
      db,
      await actorIn(owner, docs),
      { email: "newcomer@example.com", role: "member" },
      { baseUrl: "http://localhost:3000" },
    );
    await recordAudit(db, { actorId: owner.id, workspaceId: docs, action: "tools.pinned", target: `server:${server.id}`, detail: null });
    const entries = (await auditPage(db, {}, { workspaceId: docs })).entries;
    expect(entries.find((e) => e.action === "tools.pinned")?.targetSubject).toEqual({ kind: "server", name: "docs-server", email: null });
    const invitation = entries.find((e) => e.action === "invitation.create");
    expect(invitation?.target).toBe(invited.id);
    expect(invitation?.targetSubject).toEqual({ kind: "invitation", name: "newcomer@example.com", email: null });
  });

  it("offers as filters only the people, actions and targets of the workspace in scope", async () => {
    const { facets } = await auditPage(getDb(), { facets: "1" }, { workspaceId: acme });
    expect(facets?.actors.map((a) => a.email).sort()).toEqual([bob.email, owner.email]);
    expect(facets?.actions).toEqual(["member.role", "tool.policy_change", "workspace.create"]);
    expect(facets?.targets.find((t) => t.id === bob.id)?.subject).toMatchObject({ name: bob.name, email: bob.email });
    expect(JSON.stringify(facets)).not.toContain(stranger.email);
    expect(facets?.workspaces).toEqual([]);
    // Instance-wide, every workspace is offered by name.
    const all = await auditPage(getDb(), { facets: "1" });
    expect(all.facets?.workspaces.map((w) => w.name).sort()).toEqual(expect.arrayContaining(["Acme", "Other"]));
    expect((await auditPage(getDb(), {})).facets).toBeUndefined();
  });

  it("filters by target, within the scope only", async () => {
    expect((await auditPage(getDb(), { target: bob.id }, { workspaceId: acme })).entries.map((e) => e.action)).toEqual(["member.role"]);
    expect((await auditPage(getDb(), { target: stranger.id }, { workspaceId: acme })).entries).toEqual([]);
    // The scope wins over a `workspace` filter naming another workspace.
    expect((await auditPage(getDb(), { workspace: other }, { workspaceId: acme })).entries.every((e) => e.workspaceId === acme)).toBe(true);
  });

  it("exports the scope as CSV: header, names, quoted JSON, formulas kept as text", async () => {
    const lines = (await auditCsv(getDb(), {}, { workspaceId: acme })).trim().split("\r\n");
    expect(lines[0]).toBe("time,actor_name,actor_email,action,target,target_name,target_email,workspace,detail");
    expect(lines).toHaveLength(4);
    const role = lines.find((l) => l.includes("member.role"));
    expect(role).toContain(
      `${owner.name},${owner.email},member.role,${bob.id},${bob.name},${bob.email},Acme,"{""from"":""member"",""to"":""admin""}"`,
    );
    expect(lines.find((l) => l.includes("tool.policy_change"))).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines.join("\n")).not.toContain(stranger.email);
  });

  it("writes each CSV cell safely", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell(null)).toBe("");
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });
});
