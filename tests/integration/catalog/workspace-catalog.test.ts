/**
 * The catalog as workspaces see it (docs/catalog.md#in-a-workspace), on the run's database (a SQLite file, or Postgres): each
 * member sees only the entries shown to their workspace (deleted ones never), Add makes an ordinary
 * server through the same checks as one typed by hand (owners/admins; stdio packages for instance
 * administrators only), secrets stored masked and secret headers per member.
 */
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { flushAudit } from "@/db/queries/audit";
import { saveEntryVersion, updateCatalogEntry } from "@/db/queries/catalog";
import { upsertMembership } from "@/db/queries/memberships";
import { readServerSecrets } from "@/db/queries/servers";
import { createUserWithWorkspace } from "@/db/queries/users";
import { createTeamWorkspace } from "@/db/queries/workspaces";
import { serverFromEntry, workspaceCatalog } from "@/lib/catalog/workspace-catalog";
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
const admin = await person("admin@example.com");
const owner = await person("owner@example.com");
const member = await person("member@example.com");
const other = await person("other@example.com");
const team = await createTeamWorkspace(db, { name: "Team", slug: "team", ownerId: owner.id });
const elsewhere = await createTeamWorkspace(db, { name: "Elsewhere", slug: "elsewhere", ownerId: other.id });
await upsertMembership(db, { workspaceId: team.id, userId: member.id, role: "member" });

const [weather, issues, time, database] = exampleServers();
const entryOf = async (server: Record<string, unknown>, visibility: "all" | "workspaces" | "admins", extra: object = {}) => {
  const { entry } = await saveEntryVersion(db, {
    name: server.name as string,
    version: server.version as string,
    serverJson: server,
    source: "manual",
    isLatest: true,
  });
  return (await updateCatalogEntry(db, entry.id, { visibility, ...extra }))!;
};
const weatherEntry = await entryOf(weather, "workspaces", { workspaceIds: [team.id] });
const issuesEntry = await entryOf(issues, "all");
await entryOf(time, "admins");
await entryOf(database, "all", { status: "deleted", statusMessage: "withdrawn" });

const names = async (caller: { id: string; isAdmin: boolean; workspaceId: string }, q?: string) =>
  (await workspaceCatalog(db, caller, q)).map((e) => e.name).sort();
const remoteValues = {
  option: "remote.0",
  name: "weather",
  credentials: "per_member" as const,
  values: { "header.Authorization.api_key": "secret-key" },
};

describe("the workspace catalog", () => {
  it("shows each caller what their workspace may see; administrators see every entry but deleted ones", async () => {
    expect(await names({ id: member.id, isAdmin: false, workspaceId: team.id })).toEqual([issues.name, weather.name].sort());
    expect(await names({ id: other.id, isAdmin: false, workspaceId: elsewhere.id })).toEqual([issues.name]);
    expect(await names({ id: admin.id, isAdmin: true, workspaceId: elsewhere.id })).toEqual([issues.name, time.name, weather.name].sort());
    expect(await names({ id: member.id, isAdmin: false, workspaceId: team.id }, "streamable")).toEqual([weather.name]);
    expect(await names({ id: member.id, isAdmin: false, workspaceId: team.id }, "npm")).toEqual([issues.name]);
  });

  it("an entry not shown to the workspace cannot be added from it", async () => {
    await expect(
      serverFromEntry(db, { id: other.id, isAdmin: false, workspaceId: elsewhere.id }, weatherEntry.id, remoteValues),
    ).rejects.toThrow(expect.objectContaining({ code: "catalog.not_found" }));
  });

  it("Add makes an ordinary server: owners only, the secret header encrypted and per member", async () => {
    const ownerCaller = { id: owner.id, isAdmin: false, workspaceId: team.id };
    const input = await serverFromEntry(db, ownerCaller, weatherEntry.id, remoteValues);
    await expect(addServer(db, { id: member.id, isAdmin: false, workspaceId: team.id }, input)).rejects.toThrow(
      expect.objectContaining({ code: "auth.forbidden" }),
    );
    const record = await addServer(db, ownerCaller, input);
    expect(record).toMatchObject({ transport: "http", memberKeys: ["headers.Authorization"] });
    expect(record.config.headers?.Authorization).toBe("********");
    expect(record.config.url).toBe("https://acme.weather.example.com/mcp");
    expect((await readServerSecrets(db, record)).headers?.Authorization).toBe("Bearer secret-key");
  });

  it("an npm package is a stdio server: refused to a workspace owner, added by an instance administrator", async () => {
    const body = { option: "package.0", name: "issues", credentials: "shared" as const, values: { "env.ISSUES_TOKEN": "t" } };
    const ownerCaller = { id: owner.id, isAdmin: false, workspaceId: team.id };
    await expect(addServer(db, ownerCaller, await serverFromEntry(db, ownerCaller, issuesEntry.id, body))).rejects.toThrow(
      expect.objectContaining({ code: "auth.forbidden", field: "command" }),
    );
    await upsertMembership(db, { workspaceId: team.id, userId: admin.id, role: "admin" });
    const adminCaller = { id: admin.id, isAdmin: true, workspaceId: team.id };
    const record = await addServer(db, adminCaller, await serverFromEntry(db, adminCaller, issuesEntry.id, body));
    expect(record).toMatchObject({
      transport: "stdio",
      config: { command: "npx", args: ["-y", "@example/issues-mcp@0.6.2", "--mode", "read"] },
    });
  });
});
