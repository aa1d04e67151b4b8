/**
 * Filling the catalog from a registry (docs/catalog.md#registries): import chosen entries with every
 * version, and sync (all pages since the last complete sync, `updated_since`), taking what the
 * registry follows (`chosen`: entries already imported from it; `filter`: every name matching).
 * A malformed entry is reported with its field and skipped; the others still arrive.
 */
import type { Db } from "../../db/client";
import { getCatalogEntryByName, saveEntryVersion } from "../../db/queries/catalog";
import { recordRegistrySync, type RegistryRecord, type SyncReport } from "../../db/queries/catalog-registries";
import { recordAudit } from "../../db/queries/audit";
import { AppError } from "../errors";
import { fetchServerPage, fetchServerVersions, type RegistryFetch, type RegistryItem } from "./registry-client";

// A registry that never stops paging is cut off here (with the report saying so) rather than looping.
const MAX_PAGES = 200;

/** Who runs a sync, for the audit log. */
export interface SyncActor {
  id: string | null;
}

function emptyReport(): SyncReport {
  return { imported: 0, updated: 0, skipped: [] };
}

// Store one checked item, unless its name is already in the catalog from elsewhere (a hand entry or
// another registry): a registry never overwrites what it did not bring.
async function take(db: Db, registry: RegistryRecord, item: Extract<RegistryItem, { ok: true }>, report: SyncReport): Promise<void> {
  const existing = await getCatalogEntryByName(db, item.server.name);
  if (existing && existing.registryId !== registry.id) {
    report.skipped.push({
      name: item.server.name,
      version: item.server.version,
      field: "server.name",
      message: "already in the catalog from another source",
    });
    return;
  }
  const { created } = await saveEntryVersion(db, {
    name: item.server.name,
    version: item.server.version,
    serverJson: item.server,
    source: "registry",
    registryId: registry.id,
    isLatest: item.isLatest,
    status: item.status,
    statusMessage: item.statusMessage,
    publishedAt: item.publishedAt,
  });
  if (created) report.imported += 1;
  else report.updated += 1;
}

function skip(item: Extract<RegistryItem, { ok: false }>, report: SyncReport): void {
  for (const issue of item.issues)
    report.skipped.push({ name: item.name, version: item.version, field: issue.field, message: issue.message });
}

/** Import the named servers of a registry with all their versions; what one page cannot find is reported. */
export async function importFromRegistry(
  db: Db,
  fetch: RegistryFetch,
  registry: RegistryRecord,
  names: string[],
  actor: SyncActor,
): Promise<SyncReport> {
  const report = emptyReport();
  for (const name of names) {
    const items = await fetchServerVersions(fetch, registry.url, name);
    if (!items.length) report.skipped.push({ name, field: "name", message: "the registry has no such server" });
    for (const item of items) {
      if (item.ok) await take(db, registry, item, report);
      else skip(item, report);
    }
  }
  await recordRegistrySync(db, registry.id, report, null);
  await recordAudit(db, {
    actorId: actor.id,
    action: "catalog.import",
    target: registry.id,
    detail: { names, imported: report.imported, skipped: report.skipped.length },
  });
  return report;
}

async function follows(registry: RegistryRecord, name: string, db: Db): Promise<boolean> {
  if (registry.mode === "filter") return name.toLowerCase().includes((registry.filter ?? "").toLowerCase());
  return (await getCatalogEntryByName(db, name))?.registryId === registry.id;
}

/**
 * Sync a registry: every page changed since its last complete sync. The next sync asks from this
 * one's start (so an entry changed while it ran is seen again, not missed).
 */
export async function syncRegistry(
  db: Db,
  fetch: RegistryFetch,
  registry: RegistryRecord,
  actor: SyncActor,
  now = new Date(),
): Promise<SyncReport> {
  const report = emptyReport();
  let cursor: string | undefined;
  try {
    for (let page = 0; ; page++) {
      if (page === MAX_PAGES) throw new AppError("catalog.registry_unreachable", `The registry kept paging past ${MAX_PAGES} pages.`);
      const result = await fetchServerPage(fetch, registry.url, {
        cursor,
        updatedSince: registry.syncedAt ?? undefined,
        search: registry.mode === "filter" ? (registry.filter ?? undefined) : undefined,
      });
      for (const item of result.items) {
        if (!(await follows(registry, item.ok ? item.server.name : item.name, db))) continue;
        if (item.ok) await take(db, registry, item, report);
        else skip(item, report);
      }
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
  } catch (error) {
    report.error = error instanceof AppError ? error.message : "The sync failed.";
    await recordRegistrySync(db, registry.id, report, null);
    throw error;
  }
  await recordRegistrySync(db, registry.id, report, now);
  await recordAudit(db, {
    actorId: actor.id,
    action: "catalog.sync",
    target: registry.id,
    detail: { imported: report.imported, updated: report.updated, skipped: report.skipped.length },
  });
  return report;
}
