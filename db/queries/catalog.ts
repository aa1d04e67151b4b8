/**
 * The server catalog's entries and their versions (docs/catalog.md). The catalog is instance-wide:
 * which workspaces see an entry is its `visibility` plus `catalog_entry_workspaces`, applied by
 * `listEntriesVisibleIn`. `server_json` holds what arrived, already validated (lib/catalog/server-json.ts).
 */
import { and, asc, desc, eq, inArray, or } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { catalogEntries, catalogEntryWorkspaces, catalogVersions } from "../schema";
import { gated, rows, stepTransaction, write } from "../transaction";
import { all, exec, one } from "../exec";

/** A lifecycle status, as the registry API names it. */
export type CatalogStatus = "active" | "deprecated" | "deleted";
/** Who sees an entry: every workspace, the chosen ones, or only instance administrators. */
export type CatalogVisibility = "all" | "workspaces" | "admins";

/** A catalog entry as stored. */
export type CatalogEntryRecord = typeof catalogEntries.$inferSelect;
/** One version of an entry, its `server.json` as stored. */
export type CatalogVersionRecord = Omit<typeof catalogVersions.$inferSelect, "serverJson"> & { serverJson: Record<string, unknown> };

const toVersion = (row: typeof catalogVersions.$inferSelect): CatalogVersionRecord => ({
  ...row,
  serverJson: row.serverJson as Record<string, unknown>,
});

/** What one arriving version carries (from an upload or a registry). */
export interface VersionArrival {
  name: string;
  version: string;
  serverJson: Record<string, unknown>;
  source: "manual" | "registry";
  registryId?: string | null;
  /** Whether this is the entry's newest version (a hand upload always is). */
  isLatest: boolean;
  status?: CatalogStatus;
  statusMessage?: string | null;
  publishedAt?: Date | null;
}

/**
 * Store a version of an entry, creating the entry on its first version (visible to admins only
 * until an administrator says otherwise). The entry's status follows its latest version's.
 */
export async function saveEntryVersion(db: Db, arrival: VersionArrival): Promise<{ entry: CatalogEntryRecord; created: boolean }> {
  return gated(db, async () => {
    return stepTransaction(db, function* (tx) {
      let [entry] = yield* rows(tx.select().from(catalogEntries).where(eq(catalogEntries.name, arrival.name)));
      const created = !entry;
      if (!entry) {
        [entry] = yield* rows(
          tx
            .insert(catalogEntries)
            .values({ id: newId(), name: arrival.name, source: arrival.source, registryId: arrival.registryId ?? null })
            .returning(),
        );
      }
      if (arrival.isLatest) yield* write(tx.update(catalogVersions).set({ isLatest: false }).where(eq(catalogVersions.entryId, entry.id)));
      const values = {
        serverJson: arrival.serverJson,
        isLatest: arrival.isLatest,
        status: arrival.status ?? "active",
        publishedAt: arrival.publishedAt ?? null,
        updatedAt: new Date(),
      };
      yield* write(
        tx
          .insert(catalogVersions)
          .values({ id: newId(), entryId: entry.id, version: arrival.version, ...values })
          .onConflictDoUpdate({ target: [catalogVersions.entryId, catalogVersions.version], set: values }),
      );
      if (arrival.isLatest) {
        [entry] = yield* rows(
          tx
            .update(catalogEntries)
            .set({ status: arrival.status ?? "active", statusMessage: arrival.statusMessage ?? null, updatedAt: new Date() })
            .where(eq(catalogEntries.id, entry.id))
            .returning(),
        );
      }
      return { entry, created };
    });
  });
}

/** Every entry, by name (instance administrators' view). */
export async function listCatalogEntries(db: Db): Promise<CatalogEntryRecord[]> {
  return gated(db, async () => {
    return await all(db.select().from(catalogEntries).orderBy(asc(catalogEntries.name)));
  });
}

/** The entries a member of `workspaceId` may see: visibility `all`, or `workspaces` naming it. */
export async function listEntriesVisibleIn(db: Db, workspaceIds: string[]): Promise<CatalogEntryRecord[]> {
  return gated(db, async () => {
    const chosen = workspaceIds.length
      ? (
          await all(
            db
              .select({ id: catalogEntryWorkspaces.entryId })
              .from(catalogEntryWorkspaces)
              .where(inArray(catalogEntryWorkspaces.workspaceId, workspaceIds)),
          )
        ).map((row) => row.id)
      : [];
    const visible = chosen.length
      ? or(eq(catalogEntries.visibility, "all"), and(eq(catalogEntries.visibility, "workspaces"), inArray(catalogEntries.id, chosen)))
      : eq(catalogEntries.visibility, "all");
    return await all(db.select().from(catalogEntries).where(visible).orderBy(asc(catalogEntries.name)));
  });
}

/** One entry by id, or null. */
export async function getCatalogEntry(db: Db, id: string): Promise<CatalogEntryRecord | null> {
  return gated(db, async () => {
    return (await one(db.select().from(catalogEntries).where(eq(catalogEntries.id, id)))) ?? null;
  });
}

/** One entry by its reverse-DNS name, or null. */
export async function getCatalogEntryByName(db: Db, name: string): Promise<CatalogEntryRecord | null> {
  return gated(db, async () => {
    return (await one(db.select().from(catalogEntries).where(eq(catalogEntries.name, name)))) ?? null;
  });
}

/** Every version of an entry, newest stored first. */
export async function listEntryVersions(db: Db, entryId: string): Promise<CatalogVersionRecord[]> {
  return gated(db, async () => {
    return (
      await all(
        db
          .select()
          .from(catalogVersions)
          .where(eq(catalogVersions.entryId, entryId))
          .orderBy(desc(catalogVersions.isLatest), desc(catalogVersions.updatedAt)),
      )
    ).map(toVersion);
  });
}

/** The versions of several entries at once, grouped by entry id. */
export async function versionsOfEntries(db: Db, entryIds: string[]): Promise<Map<string, CatalogVersionRecord[]>> {
  return gated(db, async () => {
    const out = new Map<string, CatalogVersionRecord[]>();
    if (!entryIds.length) return out;
    const rows = await all(
      db
        .select()
        .from(catalogVersions)
        .where(inArray(catalogVersions.entryId, entryIds))
        .orderBy(desc(catalogVersions.isLatest), desc(catalogVersions.updatedAt)),
    );
    for (const row of rows) out.set(row.entryId, [...(out.get(row.entryId) ?? []), toVersion(row)]);
    return out;
  });
}

/** The workspaces an entry is shown in (for visibility `workspaces`). */
export async function entryWorkspaceIds(db: Db, entryId: string): Promise<string[]> {
  return gated(db, async () => {
    return (
      await all(
        db
          .select({ id: catalogEntryWorkspaces.workspaceId })
          .from(catalogEntryWorkspaces)
          .where(eq(catalogEntryWorkspaces.entryId, entryId)),
      )
    ).map((row) => row.id);
  });
}

/** What an administrator sets on an entry; absent fields stay. */
export interface EntrySettings {
  pinnedVersion?: string | null;
  visibility?: CatalogVisibility;
  workspaceIds?: string[];
  status?: CatalogStatus;
  statusMessage?: string | null;
}

/** Change an entry's pin, visibility (and its workspaces), status; returns the entry. */
export async function updateCatalogEntry(db: Db, id: string, settings: EntrySettings): Promise<CatalogEntryRecord | null> {
  return gated(db, async () => {
    return stepTransaction(db, function* (tx) {
      const { workspaceIds, ...columns } = settings;
      const [entry] = yield* rows(
        tx
          .update(catalogEntries)
          .set({ ...columns, updatedAt: new Date() })
          .where(eq(catalogEntries.id, id))
          .returning(),
      );
      if (!entry) return null;
      if (workspaceIds) {
        yield* write(tx.delete(catalogEntryWorkspaces).where(eq(catalogEntryWorkspaces.entryId, id)));
        for (const workspaceId of new Set(workspaceIds))
          yield* write(tx.insert(catalogEntryWorkspaces).values({ entryId: id, workspaceId }));
      }
      return entry;
    });
  });
}

/** Remove an entry with its versions (servers added from it keep their config). */
export async function deleteCatalogEntry(db: Db, id: string): Promise<boolean> {
  return gated(db, async () => {
    return (await exec(db.delete(catalogEntries).where(eq(catalogEntries.id, id)))) > 0;
  });
}
