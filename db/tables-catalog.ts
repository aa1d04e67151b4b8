/**
 * The server catalog's tables (docs/catalog.md): registries an administrator syncs from, the
 * entries of the catalog with every version's `server.json`, and which workspaces see an entry.
 * Built over the same column kit as db/tables.ts, which merges them into the schema.
 */
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ColumnKit } from "./columns/sqlite";

/** The tables of db/tables.ts the catalog refers to. */
interface CatalogRefs {
  users: { id: AnySQLiteColumn };
  workspaces: { id: AnySQLiteColumn };
}

/** The catalog's tables, built with the column kit `k`. */
export function defineCatalogTables(k: ColumnKit, refs: CatalogRefs) {
  /**
   * A registry speaking the `/v0.1` API. `mode` says what a sync takes: only the entries already
   * imported from it (`chosen`) or everything matching `filter` (a search string, `filter`).
   */
  const catalogRegistries = k.table("catalog_registries", {
    id: k.id(),
    url: k.text("url").notNull().unique(),
    mode: k.enum("mode", ["chosen", "filter"]).notNull().default("chosen"),
    filter: k.text("filter"),
    /** When the last complete sync started: the next one asks for `updated_since` this instant. */
    syncedAt: k.timestamp("synced_at"),
    /** What the last sync did: counts and each skipped entry with its field (never secrets: server.json has none). */
    lastReport: k.json("last_report"),
    createdBy: k.text("created_by").references(() => refs.users.id, { onDelete: "set null" }),
    createdAt: k.createdAt(),
  });

  /**
   * One server of the catalog, by its reverse-DNS `name`. `pinnedVersion` null follows the latest;
   * `status` and `statusMessage` come from the registry (or the administrator for a hand entry).
   */
  const catalogEntries = k.table("catalog_entries", {
    id: k.id(),
    name: k.text("name").notNull().unique(),
    source: k.enum("source", ["manual", "registry"]).notNull(),
    registryId: k.text("registry_id").references(() => catalogRegistries.id, { onDelete: "set null" }),
    status: k.enum("status", ["active", "deprecated", "deleted"]).notNull().default("active"),
    statusMessage: k.text("status_message"),
    pinnedVersion: k.text("pinned_version"),
    visibility: k.enum("visibility", ["all", "workspaces", "admins"]).notNull().default("admins"),
    createdAt: k.createdAt(),
    updatedAt: k.updatedAt(),
  });

  /** Every known version of an entry with its `server.json` as validated on arrival. */
  const catalogVersions = k.table(
    "catalog_versions",
    {
      id: k.id(),
      entryId: k
        .text("entry_id")
        .notNull()
        .references(() => catalogEntries.id, { onDelete: "cascade" }),
      version: k.text("version").notNull(),
      serverJson: k.json("server_json").notNull(),
      /** The registry's `isLatest`, or for a hand entry the version added last. */
      isLatest: k.boolean("is_latest").notNull().default(false),
      status: k.enum("status", ["active", "deprecated", "deleted"]).notNull().default("active"),
      publishedAt: k.timestamp("published_at"),
      updatedAt: k.updatedAt(),
    },
    (t) => [k.uniqueIndex("catalog_versions_entry_version_idx").on(t.entryId, t.version)],
  );

  /** The workspaces an entry with visibility `workspaces` is shown in. */
  const catalogEntryWorkspaces = k.table(
    "catalog_entry_workspaces",
    {
      entryId: k
        .text("entry_id")
        .notNull()
        .references(() => catalogEntries.id, { onDelete: "cascade" }),
      workspaceId: k
        .text("workspace_id")
        .notNull()
        .references(() => refs.workspaces.id, { onDelete: "cascade" }),
    },
    (t) => [k.primaryKey({ columns: [t.entryId, t.workspaceId] }), k.index("catalog_entry_workspaces_ws_idx").on(t.workspaceId)],
  );

  return { catalogRegistries, catalogEntries, catalogVersions, catalogEntryWorkspaces };
}
