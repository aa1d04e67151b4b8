/**
 * The catalog filled from a registry (docs/catalog.md#registries), against the `/v0.1` registry
 * fixture built from the published server.json examples, through the SSRF-guarded fetch, on the
 * run's database (a SQLite file, or Postgres): import of chosen entries with their versions,
 * incremental sync with `updated_since` and cursor pages, entries marked deprecated and deleted upstream, and a malformed entry reported
 * with its field and skipped while the others arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { flushAudit } from "@/db/queries/audit";
import { getCatalogEntryByName, listEntryVersions } from "@/db/queries/catalog";
import { createRegistry, getRegistry } from "@/db/queries/catalog-registries";
import { createUserWithWorkspace } from "@/db/queries/users";
import { addServerJson, adminCatalog } from "@/lib/catalog/entries";
import type { RegistryFetch } from "@/lib/catalog/registry-client";
import { browseRegistry } from "@/lib/catalog/registries";
import { importFromRegistry, syncRegistry } from "@/lib/catalog/sync";
import { AppError } from "@/lib/errors";
import { createGuardedFetch, NetError, parseAllowedHosts } from "@/lib/net";
import { exampleServers, startRegistry } from "../../fixtures/registry/registry-server.mjs";

// The process database of a fresh data directory: a SQLite file, or on a Postgres run a new database.
const dir = useTempDataDir();
const db = getDb();
// The app's guard with the loopback registry allow-listed, as SWITCHBOARD_ALLOWED_HOSTS would.
const guarded = createGuardedFetch({ allowedHosts: parseAllowedHosts("127.0.0.1") });
const fetch = guarded as unknown as RegistryFetch;
const [weather, issues, time, database] = exampleServers();
const later = () => new Date(Date.now() + 60_000).toISOString();

let registry: Awaited<ReturnType<typeof startRegistry>>;
let adminId: string;

beforeAll(async () => {
  const older = { ...weather, version: "1.1.0" };
  registry = await startRegistry({
    items: [{ server: older, isLatest: false }, { server: weather }, { server: issues }, { server: time }, { server: database }],
  });
  adminId = (await createUserWithWorkspace(db, { email: "admin@example.com", name: "Admin", passwordHash: "x" }))!.id;
});
afterAll(async () => {
  await registry.close();
  await guarded.close();
  await flushAudit(db);
  removeTempDataDir(dir);
});

describe("registry sync", () => {
  it("imports the chosen entries with every version, the latest marked", async () => {
    const record = await createRegistry(db, { url: registry.url, mode: "chosen", createdBy: adminId });
    const report = await importFromRegistry(db, fetch, record, [weather.name, issues.name], { id: adminId });
    expect(report).toMatchObject({ imported: 2, skipped: [] });
    const entry = (await getCatalogEntryByName(db, weather.name))!;
    expect(entry).toMatchObject({ source: "registry", registryId: record.id, status: "active", visibility: "admins" });
    const versions = await listEntryVersions(db, entry.id);
    expect(versions.map((v) => [v.version, v.isLatest]).sort()).toEqual([
      ["1.1.0", false],
      ["1.2.0", true],
    ]);
    expect(await getCatalogEntryByName(db, time.name)).toBeNull();
    const view = (await adminCatalog(db)).find((e) => e.name === weather.name)!;
    expect(view).toMatchObject({ version: "1.2.0", latestVersion: "1.2.0", kinds: ["streamable-http"], needsAuth: true });
  });

  it("syncs page by page, then only what changed since (updated_since): new version, deprecated, deleted", async () => {
    const record = (await getRegistry(
      db,
      (
        await createRegistry(db, { url: `${registry.url}/v0.1/`, mode: "chosen", createdBy: adminId })
      ).id,
    ))!;
    // A second registry listing the same names never takes them over from the first.
    const foreign = await syncRegistry(db, fetch, record, { id: adminId });
    expect(foreign).toMatchObject({ imported: 0, updated: 0 });

    const first = (await getRegistry(db, (await getCatalogEntryByName(db, weather.name))!.registryId!))!;
    registry.state.requests.length = 0;
    const full = await syncRegistry(db, fetch, first, { id: adminId });
    expect(full).toMatchObject({ imported: 0, updated: 3, skipped: [] });
    const pages = registry.state.requests.filter((r) => /^\/v0\.1\/servers(\?|$)/.test(r));
    expect(pages.length).toBe(3); // 5 items, 2 a page: the cursor is followed to the end
    expect(pages[1]).toMatch(/cursor=/);
    expect(pages[0]).not.toMatch(/updated_since/);

    // Upstream changes: a new weather version, the npm entry deprecated with a message, pypi (not followed) deleted.
    registry.state.items[1].isLatest = false;
    registry.state.items[1].updatedAt = later();
    registry.state.items.push({ server: { ...weather, version: "1.3.0" }, updatedAt: later() });
    Object.assign(registry.state.items[2], { status: "deprecated", statusMessage: "Use io.github.example/issues-v2", updatedAt: later() });
    Object.assign(registry.state.items[3], { status: "deleted", updatedAt: later() });
    registry.state.requests.length = 0;

    const synced = (await getRegistry(db, first.id))!;
    expect(synced.syncedAt).not.toBeNull();
    const incremental = await syncRegistry(db, fetch, synced, { id: adminId });
    expect(registry.state.requests[0]).toContain(`updated_since=${encodeURIComponent(synced.syncedAt!.toISOString())}`);
    expect(incremental).toMatchObject({ imported: 0, updated: 3, skipped: [] });
    const entry = (await getCatalogEntryByName(db, weather.name))!;
    const latest = (await listEntryVersions(db, entry.id)).filter((v) => v.isLatest);
    expect(latest.map((v) => v.version)).toEqual(["1.3.0"]);
    expect(await getCatalogEntryByName(db, issues.name)).toMatchObject({
      status: "deprecated",
      statusMessage: "Use io.github.example/issues-v2",
    });
    expect(await getCatalogEntryByName(db, time.name)).toBeNull();
  });

  it("reports a malformed entry with its field and skips it; the rest of the page still arrives", async () => {
    const record = await createRegistry(db, { url: `${registry.url}/v0.1`, mode: "filter", filter: "io.example", createdBy: adminId });
    registry.state.items.push({ server: { name: "io.example/broken", version: "1.0.0", remotes: [{ type: "websocket", url: "x" }] } });
    const report = await syncRegistry(db, fetch, record, { id: adminId });
    expect(report.imported).toBe(2); // time and database (weather belongs to the first registry)
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "io.example/broken", field: "server.description" }),
        expect.objectContaining({ name: "io.example/broken", field: expect.stringMatching(/^server\.remotes\.0/) }),
        expect.objectContaining({ name: weather.name, field: "server.name", message: "already in the catalog from another source" }),
      ]),
    );
    expect(await getCatalogEntryByName(db, "io.example/broken")).toBeNull();
    expect(await getCatalogEntryByName(db, time.name)).toMatchObject({ status: "deleted" });
    expect(await getCatalogEntryByName(db, database.name)).toMatchObject({ status: "active" });
    expect((await getRegistry(db, record.id))!.lastReport?.skipped.length).toBe(report.skipped.length);
    const browse = await browseRegistry(db, fetch, record.id, { search: "broken" });
    expect(browse.servers).toEqual([expect.objectContaining({ ok: false, name: "io.example/broken" })]);
  });

  it("goes through the SSRF guard: without the allow-list a loopback registry is refused before connecting", async () => {
    const strict = createGuardedFetch();
    const record = await createRegistry(db, { url: "http://127.0.0.1:9/reg", mode: "chosen", createdBy: adminId });
    await expect(syncRegistry(db, strict as unknown as RegistryFetch, record, { id: adminId })).rejects.toBeInstanceOf(NetError);
    expect(await getRegistry(db, record.id)).toMatchObject({ syncedAt: null, lastReport: { error: "The sync failed." } });
    await strict.close();
  });
});

describe("server.json by hand", () => {
  it("names every field at fault, the first as the error's field", async () => {
    const bad = {
      name: "no-slash",
      version: "^1.0.0",
      description: "x",
      packages: [{ registryType: "mcpb", identifier: "https://x", transport: { type: "stdio" } }],
    };
    try {
      await addServerJson(db, { id: adminId }, bad);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const { code, field, message } = error as AppError;
      expect(code).toBe("catalog.invalid_server_json");
      expect(field).toBe("name");
      expect(message).toContain("version:");
      expect(message).toContain("packages.0.fileSha256:");
    }
  });

  it("adds versions to a hand entry and refuses a name a registry brings", async () => {
    const doc = {
      name: "com.example/notes",
      description: "Notes",
      version: "1.0.0",
      remotes: [{ type: "streamable-http", url: "https://notes.example.com/mcp" }],
    };
    await addServerJson(db, { id: adminId }, doc);
    const view = await addServerJson(db, { id: adminId }, { ...doc, version: "1.1.0" });
    expect(view).toMatchObject({
      source: "manual",
      version: "1.1.0",
      versions: [
        { version: "1.1.0", isLatest: true },
        { version: "1.0.0", isLatest: false },
      ],
    });
    await expect(addServerJson(db, { id: adminId }, weather)).rejects.toThrow(expect.objectContaining({ code: "catalog.name_taken" }));
  });
});
