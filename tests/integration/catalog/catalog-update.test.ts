/**
 * A server added from the catalog remembers its entry and version, and when the entry moves to
 * another version (a new latest, or an administrator's pin) it is offered the update with the
 * config fields that change (docs/catalog.md#updates), on the run's database (a SQLite file, or
 * Postgres). The values the server
 * was added with are kept (read back through the old version's templates), applying is an edit by
 * hand (owners/admins, a secret never follows the server to another origin) and is audited.
 */
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { flushAudit, listAudit } from "@/db/queries/audit";
import { saveEntryVersion, updateCatalogEntry } from "@/db/queries/catalog";
import { upsertMembership } from "@/db/queries/memberships";
import { getServerById, readServerSecrets } from "@/db/queries/servers";
import { createUserWithWorkspace } from "@/db/queries/users";
import { createTeamWorkspace } from "@/db/queries/workspaces";
import { catalogUpdateEdit, planCatalogUpdate } from "@/lib/catalog/catalog-update";
import { addFromEntry } from "@/lib/catalog/workspace-catalog";
import { newServerSchema } from "@/lib/servers/input";
import { addServer, changeServer, serverView } from "@/lib/servers/service";
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
const team = await createTeamWorkspace(db, { name: "Team", slug: "team", ownerId: owner.id });
await upsertMembership(db, { workspaceId: team.id, userId: member.id, role: "member" });
await upsertMembership(db, { workspaceId: team.id, userId: admin.id, role: "admin" });
const ownerCaller = { id: owner.id, isAdmin: false, workspaceId: team.id };
const memberCaller = { id: member.id, isAdmin: false, workspaceId: team.id };
const adminCaller = { id: admin.id, isAdmin: true, workspaceId: team.id };

const [weather, issues] = exampleServers();
type Json = Record<string, unknown>;
const publish = async (server: Json, version: string, change: (s: Json) => Json = (s) => s, isLatest = true) =>
  (
    await saveEntryVersion(db, {
      name: server.name as string,
      version,
      serverJson: change(structuredClone({ ...server, version })),
      source: "manual",
      isLatest,
    })
  ).entry;
const remoteOf = (s: Json) => (s.remotes as Json[])[0];

const weatherEntry = await publish(weather, "1.2.0");
await updateCatalogEntry(db, weatherEntry.id, { visibility: "workspaces", workspaceIds: [team.id] });
const issuesEntry = await publish(issues, "0.6.2");
await updateCatalogEntry(db, issuesEntry.id, { visibility: "all" });

// The owner adds the weather entry: a tenant, their key, and imperial units (not the default).
const made = await addFromEntry(db, ownerCaller, weatherEntry.id, {
  option: "remote.0",
  name: "weather",
  credentials: "per_member",
  values: { "url.tenant": "acme", "header.Authorization.api_key": "k1", "header.X-Units": "imperial" },
});
const added = await addServer(db, ownerCaller, made.input, { catalog: made.catalog });
const current = async () => (await getServerById(db, { id: added.id, workspaceId: team.id }))!;

describe("a server from the catalog", () => {
  it("remembers its entry and version, and has no update while the entry stays there", async () => {
    expect(added).toMatchObject({ catalogEntryId: weatherEntry.id, catalogVersion: "1.2.0" });
    expect(serverView(added).catalog).toEqual({ entryId: weatherEntry.id, version: "1.2.0" });
    expect(await planCatalogUpdate(db, ownerCaller, added)).toBeNull();
  });

  it("is offered a new latest version with the fields it changes; its own values are kept, secrets never shown", async () => {
    await publish(weather, "1.3.0", (s) => {
      remoteOf(s).url = "https://{tenant}.weather.example.com/mcp/v2";
      (remoteOf(s).headers as Json[]).push({ name: "X-Client", value: "switchboard" });
      return s;
    });
    const plan = await planCatalogUpdate(db, memberCaller, await current());
    expect(plan?.update).toMatchObject({ entryId: weatherEntry.id, from: "1.2.0", to: "1.3.0", problem: null });
    expect(plan?.update.changes).toEqual([
      { field: "url", change: "changed", from: "https://acme.weather.example.com/mcp", to: "https://acme.weather.example.com/mcp/v2" },
      { field: "headers.X-Client", change: "added", from: null, to: "********" },
    ]);
    expect(JSON.stringify(plan?.update)).not.toContain("k1");
  });

  it("applying it is an edit by hand: refused to a member, done for the owner, remembered and audited", async () => {
    const edit = await catalogUpdateEdit(db, memberCaller, await current(), "1.3.0");
    await expect(changeServer(db, memberCaller, added.id, edit, "1.3.0")).rejects.toThrow(
      expect.objectContaining({ code: "auth.forbidden" }),
    );
    await expect(catalogUpdateEdit(db, ownerCaller, await current(), "9.9.9")).rejects.toThrow(
      expect.objectContaining({ code: "catalog.version_not_found" }),
    );

    const updated = await changeServer(
      db,
      ownerCaller,
      added.id,
      await catalogUpdateEdit(db, ownerCaller, await current(), "1.3.0"),
      "1.3.0",
    );
    expect(updated).toMatchObject({ catalogVersion: "1.3.0", memberKeys: ["headers.Authorization"] });
    expect(updated.config.url).toBe("https://acme.weather.example.com/mcp/v2");
    expect((await readServerSecrets(db, updated)).headers).toEqual({
      Authorization: "Bearer k1",
      "X-Units": "imperial",
      "X-Client": "switchboard",
    });
    expect(await planCatalogUpdate(db, ownerCaller, await current())).toBeNull();
    const audit = (await listAudit(db, { action: "server.catalog_update", target: added.id })).entries;
    expect(audit[0]).toMatchObject({ detail: { name: "weather", from: "1.2.0", to: "1.3.0" } });
  });

  it("an administrator's pin moves it too (back to the pinned version)", async () => {
    await updateCatalogEntry(db, weatherEntry.id, { pinnedVersion: "1.2.0" });
    const plan = await planCatalogUpdate(db, ownerCaller, await current());
    expect(plan?.update).toMatchObject({ from: "1.3.0", to: "1.2.0" });
    expect(plan?.update.changes.map((c) => [c.field, c.change])).toEqual([
      ["url", "changed"],
      ["headers.X-Client", "removed"],
    ]);
    await updateCatalogEntry(db, weatherEntry.id, { pinnedVersion: null });
  });

  it("a version on another origin: the stored key does not follow the server there", async () => {
    await publish(weather, "2.0.0", (s) => {
      remoteOf(s).url = "https://{tenant}.forecast.example.net/mcp";
      return s;
    });
    const edit = await catalogUpdateEdit(db, ownerCaller, await current(), "2.0.0");
    await expect(changeServer(db, ownerCaller, added.id, edit, "2.0.0")).rejects.toThrow(
      expect.objectContaining({ code: "server.secret_moved", field: "config.headers.Authorization" }),
    );
    expect((await current()).catalogVersion).toBe("1.3.0");
  });

  it("a version that needs a value the server does not have says so and cannot be applied", async () => {
    await publish(weather, "2.1.0", (s) => {
      (remoteOf(s).headers as Json[]).push({ name: "X-Region", isRequired: true });
      return s;
    });
    const plan = await planCatalogUpdate(db, ownerCaller, await current());
    expect(plan?.update.problem).toContain("X-Region is required");
    await expect(catalogUpdateEdit(db, ownerCaller, await current(), "2.1.0")).rejects.toThrow(
      expect.objectContaining({ code: "request.invalid", field: "version" }),
    );
  });

  it("a package's new version changes its launch line and keeps its arguments", async () => {
    const stdio = await addFromEntry(db, adminCaller, issuesEntry.id, {
      option: "package.0",
      name: "issues",
      credentials: "shared",
      values: { "env.ISSUES_TOKEN": "t", "arg.0": "write" },
    });
    const record = await addServer(db, adminCaller, stdio.input, { catalog: stdio.catalog });
    await publish(issues, "0.7.0", (s) => {
      (s.packages as Json[])[0].version = "0.7.0";
      return s;
    });
    expect((await planCatalogUpdate(db, adminCaller, record))?.update.changes).toEqual([
      {
        field: "args",
        change: "changed",
        from: "-y @example/issues-mcp@0.6.2 --mode write",
        to: "-y @example/issues-mcp@0.7.0 --mode write",
      },
    ]);
  });

  it("a server typed by hand is never offered one", async () => {
    const hand = await addServer(
      db,
      ownerCaller,
      newServerSchema.parse({ name: "hand", config: { url: "https://acme.weather.example.com/mcp" } }),
    );
    expect(hand.catalogEntryId).toBeNull();
    expect(await planCatalogUpdate(db, ownerCaller, hand)).toBeNull();
  });
});
