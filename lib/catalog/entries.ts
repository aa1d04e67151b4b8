/**
 * The catalog as instance administrators keep it (docs/catalog.md): entries added from a pasted or
 * uploaded `server.json`, their pinned version, visibility and status, and the view both the admin
 * screen and the workspace catalog show (no secrets: a `server.json` names inputs, never values).
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import {
  type CatalogEntryRecord,
  type CatalogVersionRecord,
  deleteCatalogEntry,
  entryWorkspaceIds,
  getCatalogEntry,
  getCatalogEntryByName,
  listCatalogEntries,
  listEntryVersions,
  saveEntryVersion,
  updateCatalogEntry,
  versionsOfEntries,
} from "../../db/queries/catalog";
import { recordAudit } from "../../db/queries/audit";
import { getWorkspaceById } from "../../db/queries/workspaces";
import { AppError } from "../errors";
import { checkServerJson, type ServerJson } from "./server-json";

/** An administrator acting on the catalog. */
export interface CatalogActor {
  id: string;
}

/** The transports and package types an entry offers, for search and badges. */
export function entryKinds(server: ServerJson): string[] {
  const kinds = new Set<string>();
  for (const remote of server.remotes ?? []) kinds.add(remote.type);
  for (const pkg of server.packages ?? []) kinds.add(pkg.registryType);
  return [...kinds];
}

/** Whether any input of the entry is a secret or a remote needs headers: what the list calls "auth". */
export function entryNeedsAuth(server: ServerJson): boolean {
  const secret = (inputs: { isSecret?: boolean }[] | undefined) => (inputs ?? []).some((input) => input.isSecret);
  return (
    (server.remotes ?? []).some((remote) => secret(remote.headers) || (remote.headers ?? []).some((h) => /authorization/i.test(h.name))) ||
    (server.packages ?? []).some((pkg) => secret(pkg.environmentVariables))
  );
}

/** The version a workspace adds: the pinned one, else the latest. */
export function currentVersion(entry: CatalogEntryRecord, versions: CatalogVersionRecord[]): CatalogVersionRecord | null {
  if (entry.pinnedVersion) return versions.find((v) => v.version === entry.pinnedVersion) ?? null;
  return versions.find((v) => v.isLatest) ?? versions[0] ?? null;
}

/** An entry as the screens show it: the current version's `server.json` and every version's facts. */
export function entryView(entry: CatalogEntryRecord, versions: CatalogVersionRecord[], workspaceIds: string[] | null) {
  const current = currentVersion(entry, versions);
  const server = current?.serverJson as ServerJson | undefined;
  return {
    id: entry.id,
    name: entry.name,
    title: server?.title ?? null,
    description: server?.description ?? "",
    source: entry.source,
    registryId: entry.registryId,
    status: entry.status,
    statusMessage: entry.statusMessage,
    pinnedVersion: entry.pinnedVersion,
    visibility: entry.visibility,
    ...(workspaceIds ? { workspaceIds } : {}),
    version: current?.version ?? null,
    latestVersion: (versions.find((v) => v.isLatest) ?? versions[0])?.version ?? null,
    kinds: server ? entryKinds(server) : [],
    needsAuth: server ? entryNeedsAuth(server) : false,
    server: server ?? null,
    versions: versions.map((v) => ({
      version: v.version,
      isLatest: v.isLatest,
      status: v.status,
      publishedAt: v.publishedAt?.toISOString() ?? null,
    })),
  };
}

/** The entry view's shape. */
export type CatalogEntryView = ReturnType<typeof entryView>;

/** Every entry with its versions and workspaces (instance administrators). */
export async function adminCatalog(db: Db): Promise<CatalogEntryView[]> {
  const entries = await listCatalogEntries(db);
  const versions = await versionsOfEntries(
    db,
    entries.map((e) => e.id),
  );
  return await Promise.all(
    entries.map(async (entry) => entryView(entry, versions.get(entry.id) ?? [], await entryWorkspaceIds(db, entry.id))),
  );
}

/**
 * Add a pasted or uploaded `server.json` (a new entry, or a new version of a hand entry). Every
 * problem is named with its field; the first is the error's `field`.
 */
export async function addServerJson(db: Db, actor: CatalogActor, document: unknown): Promise<CatalogEntryView> {
  const checked = checkServerJson(document);
  if (!checked.ok) {
    const message = checked.issues.map((issue) => `${issue.field}: ${issue.message}`).join("; ");
    throw new AppError("catalog.invalid_server_json", `This server.json is not valid: ${message}`, checked.issues[0]?.field);
  }
  const server = checked.server;
  const existing = await getCatalogEntryByName(db, server.name);
  if (existing && existing.source !== "manual")
    throw new AppError("catalog.name_taken", `"${server.name}" comes from a registry; its versions arrive by sync.`, "name");
  const { entry } = await saveEntryVersion(db, {
    name: server.name,
    version: server.version,
    serverJson: server,
    source: "manual",
    isLatest: true,
  });
  await recordAudit(db, {
    actorId: actor.id,
    action: "catalog.entry_add",
    target: entry.id,
    detail: { name: server.name, version: server.version },
  });
  return entryView(entry, await listEntryVersions(db, entry.id), await entryWorkspaceIds(db, entry.id));
}

/** Body of an entry change: pin (null follows the latest), visibility with its workspaces, status. */
export const entryChangeSchema = z
  .object({
    pinnedVersion: z.string().min(1).max(255).nullable().optional(),
    visibility: z.enum(["all", "workspaces", "admins"]).optional(),
    workspaceIds: z.array(z.string().min(1)).max(500).optional(),
    status: z.enum(["active", "deprecated", "deleted"]).optional(),
    statusMessage: z.string().max(500).nullable().optional(),
  })
  .strict();

/** Change an entry's pin, visibility or status. */
export async function changeEntry(
  db: Db,
  actor: CatalogActor,
  id: string,
  change: z.infer<typeof entryChangeSchema>,
): Promise<CatalogEntryView> {
  const entry = await getCatalogEntry(db, id);
  if (!entry) throw new AppError("catalog.not_found", "No such catalog entry.");
  const versions = await listEntryVersions(db, id);
  if (change.pinnedVersion && !versions.some((v) => v.version === change.pinnedVersion))
    throw new AppError("catalog.version_not_found", `The entry has no version ${change.pinnedVersion}.`, "pinnedVersion");
  for (const workspaceId of change.workspaceIds ?? [])
    if (!(await getWorkspaceById(db, workspaceId)))
      throw new AppError("workspace.not_found", "One of the chosen workspaces does not exist.", "workspaceIds");
  const updated = await updateCatalogEntry(db, id, change);
  if (!updated) throw new AppError("catalog.not_found", "No such catalog entry.");
  await recordAudit(db, { actorId: actor.id, action: "catalog.entry_change", target: id, detail: { name: entry.name, ...change } });
  return entryView(updated, versions, await entryWorkspaceIds(db, id));
}

/** Remove an entry from the catalog (servers added from it keep running as configured). */
export async function removeEntry(db: Db, actor: CatalogActor, id: string): Promise<void> {
  const entry = await getCatalogEntry(db, id);
  if (!entry || !(await deleteCatalogEntry(db, id))) throw new AppError("catalog.not_found", "No such catalog entry.");
  await recordAudit(db, { actorId: actor.id, action: "catalog.entry_remove", target: id, detail: { name: entry.name } });
}
