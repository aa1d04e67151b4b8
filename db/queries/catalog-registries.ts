/**
 * The registries the catalog syncs from (docs/catalog.md#registries): none until an instance
 * administrator adds one. Each remembers when its last complete sync started and what it did.
 */
import { asc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { catalogRegistries } from "../schema";
import { gated } from "../transaction";
import { all, exec, one } from "../exec";

/** What one sync did: entries taken, updated, marked, and each one skipped with its field. */
export interface SyncReport {
  imported: number;
  updated: number;
  skipped: { name: string; version?: string; field: string; message: string }[];
  error?: string;
}

/** A registry as stored. */
export type RegistryRecord = Omit<typeof catalogRegistries.$inferSelect, "lastReport"> & { lastReport: SyncReport | null };

const toRecord = (row: typeof catalogRegistries.$inferSelect): RegistryRecord => ({
  ...row,
  lastReport: row.lastReport as SyncReport | null,
});

/** Every registry, oldest first. */
export async function listRegistries(db: Db): Promise<RegistryRecord[]> {
  return gated(db, async () => {
    return (await all(db.select().from(catalogRegistries).orderBy(asc(catalogRegistries.createdAt)))).map(toRecord);
  });
}

/** One registry, or null. */
export async function getRegistry(db: Db, id: string): Promise<RegistryRecord | null> {
  return gated(db, async () => {
    const row = await one(db.select().from(catalogRegistries).where(eq(catalogRegistries.id, id)));
    return row ? toRecord(row) : null;
  });
}

/** Whether a registry with this URL is already listed. */
export async function registryUrlTaken(db: Db, url: string): Promise<boolean> {
  return gated(db, async () => {
    return !!(await one(db.select({ id: catalogRegistries.id }).from(catalogRegistries).where(eq(catalogRegistries.url, url))));
  });
}

/** Add a registry. */
export async function createRegistry(
  db: Db,
  input: { url: string; mode: "chosen" | "filter"; filter?: string | null; createdBy: string | null },
): Promise<RegistryRecord> {
  return gated(db, async () => {
    const row = (await one(
      db
        .insert(catalogRegistries)
        .values({ id: newId(), url: input.url, mode: input.mode, filter: input.filter ?? null, createdBy: input.createdBy })
        .returning(),
    ))!;
    return toRecord(row);
  });
}

/** Change what a registry's sync follows. */
export async function updateRegistry(
  db: Db,
  id: string,
  input: { mode: "chosen" | "filter"; filter?: string | null },
): Promise<RegistryRecord | null> {
  return gated(db, async () => {
    const row = (await one(
      db
        .update(catalogRegistries)
        .set({ mode: input.mode, filter: input.filter ?? null })
        .where(eq(catalogRegistries.id, id))
        .returning(),
    ))!;
    return row ? toRecord(row) : null;
  });
}

/** Record a sync: its report, and (when it completed) the instant the next one asks `updated_since`. */
export async function recordRegistrySync(db: Db, id: string, report: SyncReport, syncedAt: Date | null): Promise<void> {
  return gated(db, async () => {
    await exec(
      db
        .update(catalogRegistries)
        .set(syncedAt ? { lastReport: report, syncedAt } : { lastReport: report })
        .where(eq(catalogRegistries.id, id)),
    );
  });
}

/** Remove a registry; its entries stay in the catalog (as they were last synced). */
export async function deleteRegistry(db: Db, id: string): Promise<boolean> {
  return gated(db, async () => {
    return (await exec(db.delete(catalogRegistries).where(eq(catalogRegistries.id, id)))) > 0;
  });
}
