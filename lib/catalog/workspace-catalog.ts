/**
 * The catalog as a workspace sees it (docs/catalog.md#in-a-workspace): the entries it may see
 * (visibility `all`, or `workspaces` naming it; instance administrators see every entry), without
 * deleted ones, each with the ways it can run and their generated forms; and the Add that turns an
 * entry and the form's values into an ordinary new server (`newServerSchema`, lib/servers/input.ts).
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { type CatalogEntryRecord, listCatalogEntries, listEntriesVisibleIn, versionsOfEntries } from "../../db/queries/catalog";
import { AppError } from "../errors";
import { type NewServerInput, newServerSchema } from "../servers/input";
import { configFromEntry, entryOptions } from "./entry-form";
import { currentVersion, entryView } from "./entries";
import type { ServerJson } from "./server-json";
import { membersAddFromCatalog } from "./workspace-settings";

/** Who browses: the user, whether instance administrator, and the workspace. */
export interface CatalogCaller {
  id: string;
  isAdmin: boolean;
  workspaceId: string;
}

/** The entries shown to the caller's workspace (every entry to an instance administrator), deleted ones never. */
export async function visibleEntries(db: Db, caller: CatalogCaller): Promise<CatalogEntryRecord[]> {
  const entries = caller.isAdmin ? await listCatalogEntries(db) : await listEntriesVisibleIn(db, [caller.workspaceId]);
  return entries.filter((entry) => entry.status !== "deleted");
}

const matches = (view: ReturnType<typeof entryView>, q: string) =>
  [view.name, view.title ?? "", view.description, ...view.kinds, view.needsAuth ? "auth" : ""].some((text) =>
    text.toLowerCase().includes(q),
  );

/** The entries the caller may add here (searched by name, title, description, transport, `auth`), each with its options. */
export async function workspaceCatalog(db: Db, caller: CatalogCaller, q?: string) {
  const entries = await visibleEntries(db, caller);
  const versions = await versionsOfEntries(
    db,
    entries.map((e) => e.id),
  );
  const query = q?.trim().toLowerCase();
  return entries
    .map((entry) => {
      const { workspaceIds: _hidden, ...view } = entryView(entry, versions.get(entry.id) ?? [], null);
      return { ...view, options: view.server ? entryOptions(view.server) : [] };
    })
    .filter((view) => !query || matches(view, query));
}

/** Body of an Add: the option to run, the server's name here, whose credentials, and the form's values. */
export const catalogAddSchema = z
  .object({
    option: z.string().min(1).max(40),
    name: z.string().min(1).max(48),
    credentials: z.enum(["per_member", "shared"]).default("per_member"),
    values: z.record(z.string().max(200), z.string().max(8000)).default({}),
  })
  .strict();

/** What an Add makes: the new server, the entry and version it remembers, and whether plain members may add it. */
export interface EntryAdd {
  input: NewServerInput;
  catalog: { entryId: string; version: string };
  /** A remote entry in a workspace that lets members add those (docs/catalog.md#who-adds). */
  membersMay: boolean;
}

/** The new server an Add makes, with its origin: checked like one typed by hand (`server.invalid_config` on a bad value). */
export async function addFromEntry(
  db: Db,
  caller: CatalogCaller,
  entryId: string,
  body: z.infer<typeof catalogAddSchema>,
): Promise<EntryAdd> {
  const entry = (await visibleEntries(db, caller)).find((e) => e.id === entryId);
  if (!entry) throw new AppError("catalog.not_found", "No such catalog entry.");
  const version = currentVersion(entry, (await versionsOfEntries(db, [entry.id])).get(entry.id) ?? []);
  if (!version) throw new AppError("catalog.version_not_found", "The entry has no version to add.");
  const { config, memberKeys } = configFromEntry(version.serverJson as ServerJson, body);
  return {
    input: newServerSchema.parse({ name: body.name, config, ...(memberKeys.length ? { memberKeys } : {}) }),
    catalog: { entryId: entry.id, version: version.version },
    membersMay: config.url !== undefined && (await membersAddFromCatalog(db, caller.workspaceId)),
  };
}

/** The new server an Add makes (without its origin). */
export async function serverFromEntry(
  db: Db,
  caller: CatalogCaller,
  entryId: string,
  body: z.infer<typeof catalogAddSchema>,
): Promise<NewServerInput> {
  return (await addFromEntry(db, caller, entryId, body)).input;
}
