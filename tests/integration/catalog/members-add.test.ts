/**
 * The workspace setting that lets members add remote servers from the catalog (docs/catalog.md#who-adds),
 * on the run's database (a SQLite file, or Postgres): off by default (a member's Add is refused), changed only by owners and
 * admins (audited); once on, a member adds a remote entry, while a package (stdio) stays for
 * instance administrators and someone outside the workspace is refused whatever they send.
 */
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { flushAudit, listAudit } from "@/db/queries/audit";
import { saveEntryVersion, updateCatalogEntry } from "@/db/queries/catalog";
import { upsertMembership } from "@/db/queries/memberships";
import { createUserWithWorkspace } from "@/db/queries/users";
import { createTeamWorkspace } from "@/db/queries/workspaces";
import { addFromEntry } from "@/lib/catalog/workspace-catalog";
import { catalogSettingsView, membersAddFromCatalog, setCatalogSettings } from "@/lib/catalog/workspace-settings";
import { addServer } from "@/lib/servers/service";
import { exampleServers } from "../../fixtures/registry/registry-server.mjs";

// The process database of a fresh data directory: a SQLite file, or on a Postgres run a new database.
const dir = useTempDataDir();
const db = getDb();
afterAll(async () => {
  await flushAudit(db);
  removeTempDataDir(dir);
});

const person = async (email: string) => (await createUserWithWorkspace(db, { email, name: email, passwordHash: "x" }))!;
const owner = await person("owner@example.com");
const member = await person("member@example.com");
const outsider = await person("outsider@example.com");
const team = await createTeamWorkspace(db, { name: "Team", slug: "team", ownerId: owner.id });
await upsertMembership(db, { workspaceId: team.id, userId: member.id, role: "member" });
const ownerCaller = { id: owner.id, isAdmin: false, workspaceId: team.id };
const memberCaller = { id: member.id, isAdmin: false, workspaceId: team.id };
const outsiderCaller = { id: outsider.id, isAdmin: false, workspaceId: team.id };

const [weather, issues] = exampleServers();
const entryOf = async (server: Record<string, unknown>) => {
  const { entry } = await saveEntryVersion(db, {
    name: server.name as string,
    version: server.version as string,
    serverJson: server,
    source: "manual",
    isLatest: true,
  });
  return (await updateCatalogEntry(db, entry.id, { visibility: "all" }))!;
};
const weatherEntry = await entryOf(weather);
const issuesEntry = await entryOf(issues);
const remoteBody = (name: string) => ({
  option: "remote.0",
  name,
  credentials: "per_member" as const,
  values: { "header.Authorization.api_key": "member-key" },
});
const addAs = async (caller: typeof memberCaller, entryId: string, body: Parameters<typeof addFromEntry>[3]) => {
  const made = await addFromEntry(db, caller, entryId, body);
  return await addServer(db, caller, made.input, { catalog: made.catalog, membersMay: made.membersMay });
};

describe("members adding from the catalog", () => {
  it("is off by default: a member's Add of a remote entry is refused", async () => {
    expect(await membersAddFromCatalog(db, team.id)).toBe(false);
    expect(await catalogSettingsView(db, memberCaller)).toEqual({ membersAddRemote: false, canChange: false });
    await expect(addAs(memberCaller, weatherEntry.id, remoteBody("weather"))).rejects.toThrow(
      expect.objectContaining({ code: "auth.forbidden" }),
    );
  });

  it("only owners and admins change the setting, and the change is audited", async () => {
    await expect(setCatalogSettings(db, memberCaller, { membersAddRemote: true })).rejects.toThrow(
      expect.objectContaining({ code: "auth.forbidden" }),
    );
    await expect(setCatalogSettings(db, outsiderCaller, { membersAddRemote: true })).rejects.toThrow(
      expect.objectContaining({ code: "auth.forbidden" }),
    );
    expect(await membersAddFromCatalog(db, team.id)).toBe(false);
    expect(await setCatalogSettings(db, ownerCaller, { membersAddRemote: true })).toEqual({ membersAddRemote: true, canChange: true });
    expect((await listAudit(db, { action: "workspace.catalog_members", workspaceId: team.id })).entries[0]).toMatchObject({
      actorId: owner.id,
      detail: { membersAddRemote: true },
    });
  });

  it("once on, a member adds a remote entry: an ordinary server that remembers its entry", async () => {
    expect(await catalogSettingsView(db, memberCaller)).toEqual({ membersAddRemote: true, canChange: false });
    const record = await addAs(memberCaller, weatherEntry.id, remoteBody("weather"));
    expect(record).toMatchObject({
      createdBy: member.id,
      transport: "http",
      catalogEntryId: weatherEntry.id,
      memberKeys: ["headers.Authorization"],
    });
    expect(record.config.headers?.Authorization).toBe("********");
  });

  it("a package (stdio) stays for instance administrators, even if the service is told members may", async () => {
    const body = { option: "package.0", name: "issues", credentials: "shared" as const, values: { "env.ISSUES_TOKEN": "t" } };
    await expect(addAs(memberCaller, issuesEntry.id, body)).rejects.toThrow(expect.objectContaining({ code: "auth.forbidden" }));
    const made = await addFromEntry(db, memberCaller, issuesEntry.id, body);
    expect(made.membersMay).toBe(false);
    await expect(addServer(db, memberCaller, made.input, { membersMay: true })).rejects.toThrow(
      expect.objectContaining({ code: "auth.forbidden" }),
    );
    await expect(addServer(db, ownerCaller, made.input, { membersMay: true })).rejects.toThrow(
      expect.objectContaining({ code: "auth.forbidden", field: "command" }),
    );
  });

  it("someone outside the workspace is refused, whatever the setting", async () => {
    await expect(addAs(outsiderCaller, weatherEntry.id, remoteBody("outside"))).rejects.toThrow(
      expect.objectContaining({ code: "auth.forbidden" }),
    );
  });

  it("turned off again, members are refused again", async () => {
    await setCatalogSettings(db, ownerCaller, { membersAddRemote: false });
    await expect(addAs(memberCaller, weatherEntry.id, remoteBody("weather-2"))).rejects.toThrow(
      expect.objectContaining({ code: "auth.forbidden" }),
    );
  });
});
