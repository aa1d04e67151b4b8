/**
 * The server catalog's use cases for instance administrators (docs/catalog.md): entries from a
 * `server.json`, their pin, visibility and status, and registries (add, browse, import, sync). Binds
 * the database and the SSRF-guarded fetch every registry request goes through.
 */
import "server-only";
import type { z } from "zod";
import { getDb } from "../../db/client";
import type { SessionUser } from "../auth/session";
import { addServerJson, adminCatalog, changeEntry, type entryChangeSchema, removeEntry } from "../catalog/entries";
import {
  addRegistry,
  browseRegistry,
  type browseQuerySchema,
  changeRegistry,
  type registryChangeSchema,
  type registryInputSchema,
  registriesView,
  removeRegistry,
  requireRegistry,
} from "../catalog/registries";
import type { RegistryFetch } from "../catalog/registry-client";
import { importFromRegistry, syncRegistry } from "../catalog/sync";
import { guardedFetchFromEnv } from "../net";
import { withTimeout } from "../net/fetch-timeout";
import { singleton } from "../singleton";
import { addFromEntry, type catalogAddSchema, workspaceCatalog } from "../catalog/workspace-catalog";
import { catalogUpdateEdit, planCatalogUpdate } from "../catalog/catalog-update";
import { catalogSettingsView, type catalogSettingsSchema, setCatalogSettings } from "../catalog/workspace-settings";
import { getServer } from "../servers/lookup";
import type { Actor } from "../servers/service";
import type { ReauthActor } from "../auth/reauth";
import { addAndStartServer, changeAndStartServer } from "./saved-servers";
import {
  type RegistryReader,
  type registryListQuerySchema,
  registryList,
  registryVersion,
  registryVersions,
} from "../catalog/registry-api";
import { AppError } from "../errors";

export { entryChangeSchema } from "../catalog/entries";
export { browseQuerySchema, registryChangeSchema, registryInputSchema } from "../catalog/registries";
export { catalogAddSchema } from "../catalog/workspace-catalog";
export { catalogUpdateSchema } from "../catalog/catalog-update";
export { catalogSettingsSchema } from "../catalog/workspace-settings";
export { registryListQuerySchema } from "../catalog/registry-api";

// One guarded fetch for every registry request (its connection pool is reused), 30 s per request.
const registryFetch = (): RegistryFetch =>
  singleton("catalog.registryFetch", () => withTimeout(guardedFetchFromEnv(), 30_000) as RegistryFetch);

/** Every entry with its versions, visibility and status. */
export async function catalogForAdmin() {
  return await adminCatalog(getDb());
}

/** Add a pasted or uploaded `server.json` (a new entry or a new version of a hand entry). */
export async function addCatalogServerJson(admin: SessionUser, document: unknown) {
  return await addServerJson(getDb(), admin, document);
}

/** Pin a version, set visibility or status of an entry. */
export async function changeCatalogEntry(admin: SessionUser, id: string, change: z.infer<typeof entryChangeSchema>) {
  return await changeEntry(getDb(), admin, id, change);
}

/** Remove an entry from the catalog. */
export async function removeCatalogEntry(admin: SessionUser, id: string) {
  await removeEntry(getDb(), admin, id);
}

/** Every registry with its last sync's report. */
export async function catalogRegistries() {
  return await registriesView(getDb());
}

/** Add a registry (none exist by default). */
export async function addCatalogRegistry(admin: SessionUser, input: z.infer<typeof registryInputSchema>) {
  return await addRegistry(getDb(), admin, input);
}

/** Change what a registry's sync follows. */
export async function changeCatalogRegistry(admin: SessionUser, id: string, input: z.infer<typeof registryChangeSchema>) {
  return await changeRegistry(getDb(), admin, id, input);
}

/** Remove a registry (its entries stay). */
export async function removeCatalogRegistry(admin: SessionUser, id: string) {
  await removeRegistry(getDb(), admin, id);
}

/** One page of a registry's servers to choose from. */
export function browseCatalogRegistry(id: string, query: z.infer<typeof browseQuerySchema>) {
  return browseRegistry(getDb(), registryFetch(), id, query);
}

/** Import the chosen servers of a registry with all their versions. */
export async function importFromCatalogRegistry(admin: SessionUser, id: string, names: string[]) {
  const db = getDb();
  return importFromRegistry(db, registryFetch(), await requireRegistry(db, id), names, admin);
}

/** Sync a registry now: what changed since its last complete sync. */
export async function syncCatalogRegistry(admin: SessionUser, id: string) {
  const db = getDb();
  return syncRegistry(db, registryFetch(), await requireRegistry(db, id), admin);
}

/** The catalog as the caller's workspace sees it, searched by `q`. */
export async function catalogForWorkspace(caller: Actor, q?: string) {
  return await workspaceCatalog(getDb(), caller, q);
}

/**
 * Add a server from a catalog entry with the generated form's values; it is checked and started like
 * one typed by hand, and remembers the entry and version it came from.
 */
export async function addServerFromCatalog(caller: Actor, entryId: string, body: z.infer<typeof catalogAddSchema>) {
  const made = await addFromEntry(getDb(), caller, entryId, body);
  return await addAndStartServer(caller, made.input, { catalog: made.catalog, membersMay: made.membersMay });
}

/** The workspace's catalog setting (may members add remote entries) and whether the caller may change it. */
export async function catalogSettings(caller: Actor) {
  return await catalogSettingsView(getDb(), caller);
}

/** Let members add remote catalog entries, or not (owners and admins). */
export async function changeCatalogSettings(caller: Actor, input: z.infer<typeof catalogSettingsSchema>) {
  return await setCatalogSettings(getDb(), caller, input);
}

/** The catalog update on offer for a server of the caller's workspace (which fields change), or null. */
export async function catalogUpdateOf(caller: Actor, serverId: string) {
  const db = getDb();
  return (await planCatalogUpdate(db, caller, await getServer(db, caller, serverId)))?.update ?? null;
}

/**
 * Apply the update to `version` (the one on offer): an ordinary edit with the same checks (owners
 * and admins, stdio for instance administrators, a recent sign-in to change a secret or the
 * address), after which the server remembers the new version; audited as `server.catalog_update`.
 */
export async function applyCatalogUpdate(caller: Actor & ReauthActor, serverId: string, version: string) {
  const db = getDb();
  return await changeAndStartServer(
    caller,
    serverId,
    await catalogUpdateEdit(db, caller, await getServer(db, caller, serverId), version),
    version,
  );
}

/** `GET /v0.1/servers` for the caller (session or personal access token): the catalog they may see, as a registry page. */
export async function registryServers(user: RegistryReader, query: z.infer<typeof registryListQuerySchema>) {
  return await registryList(getDb(), user, query);
}

/** `GET /v0.1/servers/{name}/versions`, or `catalog.not_found`. */
export async function registryServerVersions(user: RegistryReader, name: string) {
  const list = await registryVersions(getDb(), user, name);
  if (!list) throw new AppError("catalog.not_found", "Server not found");
  return list;
}

/** `GET /v0.1/servers/{name}/versions/{version}` (`latest` too), or `catalog.not_found`. */
export async function registryServerVersion(user: RegistryReader, name: string, version: string) {
  const one = await registryVersion(getDb(), user, name, version);
  if (!one) throw new AppError("catalog.not_found", "Server not found");
  return one;
}
