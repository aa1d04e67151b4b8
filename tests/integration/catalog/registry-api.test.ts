/**
 * The catalog served as a `/v0.1` registry (lib/catalog/registry-api.ts) on the run's database (a SQLite file, or Postgres):
 * each response checked against the field names of the registry's OpenAPI (`ServerList`,
 * `ServerResponse`, the official `_meta`), and filtered per user: a member sees what their
 * workspaces may, an outsider only what every workspace may, an administrator everything but
 * deleted entries. Cursor pages, `search`, `version=latest`, `updated_since`.
 */
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { flushAudit } from "@/db/queries/audit";
import { saveEntryVersion, updateCatalogEntry } from "@/db/queries/catalog";
import { upsertMembership } from "@/db/queries/memberships";
import { createUserWithWorkspace } from "@/db/queries/users";
import { createTeamWorkspace } from "@/db/queries/workspaces";
import { registryList, registryListQuerySchema, registryVersion, registryVersions } from "@/lib/catalog/registry-api";
import { exampleServers } from "../../fixtures/registry/registry-server.mjs";

// The process database of a fresh data directory: a SQLite file, or on a Postgres run a new database.
const dir = useTempDataDir();
const db = getDb();
afterAll(async () => {
  await flushAudit(db);
  removeTempDataDir(dir);
});

// The /v0.1 OpenAPI's names: ServerList {servers, metadata {nextCursor, count}}, ServerResponse
// {server, _meta}, the registry-managed `io.modelcontextprotocol.registry/official` block.
const OFFICIAL = "io.modelcontextprotocol.registry/official";
const OFFICIAL_KEYS = ["isLatest", "publishedAt", "status", "statusMessage", "updatedAt"];
function expectServerList(body: { servers: unknown[]; metadata?: Record<string, unknown> }) {
  expect(Object.keys(body).sort()).toEqual(["metadata", "servers"]);
  for (const key of Object.keys(body.metadata ?? {})) expect(["nextCursor", "count"]).toContain(key);
  expect(body.metadata?.count).toBe(body.servers.length);
  for (const item of body.servers) expectServerResponse(item as Record<string, unknown>);
}
function expectServerResponse(item: Record<string, unknown>) {
  expect(Object.keys(item).sort()).toEqual(["_meta", "server"]);
  const server = item.server as Record<string, unknown>;
  for (const required of ["name", "description", "version"]) expect(typeof server[required]).toBe("string");
  const official = (item._meta as Record<string, Record<string, unknown>>)[OFFICIAL];
  for (const key of Object.keys(official)) expect(OFFICIAL_KEYS).toContain(key);
  expect(["active", "deprecated", "deleted"]).toContain(official.status);
  expect(Number.isNaN(Date.parse(String(official.publishedAt)))).toBe(false);
  expect(Number.isNaN(Date.parse(String(official.updatedAt)))).toBe(false);
  expect(typeof official.isLatest).toBe("boolean");
}

const person = async (email: string) => (await createUserWithWorkspace(db, { email, name: email, passwordHash: "x" }))!;
const admin = await person("admin@example.com");
const member = await person("member@example.com");
const outsider = await person("outsider@example.com");
const team = await createTeamWorkspace(db, { name: "Team", slug: "team", ownerId: admin.id });
await upsertMembership(db, { workspaceId: team.id, userId: member.id, role: "member" });

const [weather, issues, time, database] = exampleServers();
const add = async (server: Record<string, unknown>, isLatest = true) =>
  (
    await saveEntryVersion(db, {
      name: server.name as string,
      version: server.version as string,
      serverJson: server,
      source: "manual",
      isLatest,
    })
  ).entry;
const older = await add({ ...weather, version: "1.1.0" });
await add(weather);
await updateCatalogEntry(db, older.id, { visibility: "workspaces", workspaceIds: [team.id], pinnedVersion: "1.1.0" });
await updateCatalogEntry(db, (await add(issues)).id, { visibility: "all", status: "deprecated", statusMessage: "use v2" });
await add(time); // admins only
await updateCatalogEntry(db, (await add(database)).id, { visibility: "all", status: "deleted" });

const q = (query: Record<string, string> = {}) => registryListQuerySchema.parse(query);
const reader = (user: { id: string; isAdmin: boolean }) => ({ id: user.id, isAdmin: user.isAdmin });
const names = (body: { servers: { server: unknown }[] }) =>
  body.servers.map((s) => `${(s.server as { name: string }).name}@${(s.server as { version: string }).version}`);

describe("GET /v0.1/servers on the instance", () => {
  it("lists what each user may see, in the registry's shapes", async () => {
    const forMember = await registryList(db, reader(member), q());
    expectServerList(forMember);
    expect(names(forMember)).toEqual([`${weather.name}@1.1.0`, `${weather.name}@1.2.0`, `${issues.name}@0.6.2`]);
    expect(names(await registryList(db, reader(outsider), q()))).toEqual([`${issues.name}@0.6.2`]);
    expect(names(await registryList(db, { id: admin.id, isAdmin: true }, q()))).toEqual([
      `${weather.name}@1.1.0`,
      `${weather.name}@1.2.0`,
      `${time.name}@2025.9.25`,
      `${issues.name}@0.6.2`,
    ]);
    const deprecated = forMember.servers[2]._meta[OFFICIAL];
    expect(deprecated).toMatchObject({ status: "deprecated", statusMessage: "use v2", isLatest: true });
  });

  it("marks the pinned version as the latest one offered; version=latest lists only those", async () => {
    const latest = await registryList(db, reader(member), q({ version: "latest" }));
    expect(names(latest)).toEqual([`${weather.name}@1.1.0`, `${issues.name}@0.6.2`]);
    expect((await registryVersion(db, reader(member), weather.name, "latest"))?.server).toMatchObject({ version: "1.1.0" });
    expectServerResponse((await registryVersion(db, reader(member), weather.name, "1.2.0")) as never);
  });

  it("pages with an opaque cursor, searches by name, and honours updated_since", async () => {
    const first = await registryList(db, reader(member), q({ limit: "2" }));
    expectServerList(first);
    expect(first.metadata.nextCursor).toBeTruthy();
    const second = await registryList(db, reader(member), q({ limit: "2", cursor: first.metadata.nextCursor! }));
    expect([...names(first), ...names(second)]).toEqual(names(await registryList(db, reader(member), q())));
    expect(second.metadata).not.toHaveProperty("nextCursor");
    expect(names(await registryList(db, reader(member), q({ search: "weather" })))).toHaveLength(2);
    expect((await registryList(db, reader(member), q({ updated_since: new Date(Date.now() + 60_000).toISOString() }))).servers).toEqual([]);
  });

  it("answers nothing for a server the caller may not see", async () => {
    expect(await registryVersions(db, reader(outsider), weather.name)).toBeNull();
    expect(await registryVersion(db, reader(outsider), time.name, "latest")).toBeNull();
    expectServerList((await registryVersions(db, reader(member), weather.name))!);
    expect(await registryVersions(db, { id: admin.id, isAdmin: true }, database.name)).toBeNull();
  });
});
