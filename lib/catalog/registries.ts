/**
 * The registries an instance administrator adds to the catalog (none by default): add, change what
 * a sync follows, browse a registry's servers to choose some, import, sync, remove. Every request
 * goes through the fetch it is given, the SSRF-guarded one in the app (lib/use-cases/catalog.ts).
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import {
  createRegistry,
  deleteRegistry,
  getRegistry,
  listRegistries,
  type RegistryRecord,
  registryUrlTaken,
  updateRegistry,
} from "../../db/queries/catalog-registries";
import { AppError } from "../errors";
import { fetchServerPage, type RegistryFetch } from "./registry-client";
import type { CatalogActor } from "./entries";

const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "must be an absolute http:// or https:// URL without credentials");

/** Body of a new registry: its URL (the API root or the site; `/v0.1` is added) and what a sync follows. */
export const registryInputSchema = z
  .object({ url: httpUrl, mode: z.enum(["chosen", "filter"]).default("chosen"), filter: z.string().trim().max(200).nullable().optional() })
  .strict()
  .refine((body) => body.mode !== "filter" || !!body.filter, { message: "a filter to follow is needed", path: ["filter"] });

/** Body of a registry change: what its sync follows. */
export const registryChangeSchema = z
  .object({ mode: z.enum(["chosen", "filter"]), filter: z.string().trim().max(200).nullable().optional() })
  .strict()
  .refine((body) => body.mode !== "filter" || !!body.filter, { message: "a filter to follow is needed", path: ["filter"] });

/** A registry as the admin screen shows it. */
export function registryView(record: RegistryRecord) {
  return {
    id: record.id,
    url: record.url,
    mode: record.mode,
    filter: record.filter,
    syncedAt: record.syncedAt?.toISOString() ?? null,
    lastReport: record.lastReport,
  };
}

/** Every registry. */
export async function registriesView(db: Db) {
  return (await listRegistries(db)).map(registryView);
}

/** The registry with this id, or a 404. */
export async function requireRegistry(db: Db, id: string): Promise<RegistryRecord> {
  const registry = await getRegistry(db, id);
  if (!registry) throw new AppError("catalog.registry_not_found", "No such registry.");
  return registry;
}

/** Add a registry (its URL once). */
export async function addRegistry(db: Db, actor: CatalogActor, input: z.infer<typeof registryInputSchema>) {
  const url = input.url.replace(/\/+$/, "");
  if (await registryUrlTaken(db, url)) throw new AppError("catalog.name_taken", "This registry is already listed.", "url");
  const record = await createRegistry(db, { url, mode: input.mode, filter: input.filter, createdBy: actor.id });
  await recordAudit(db, { actorId: actor.id, action: "catalog.registry_add", target: record.id, detail: { url } });
  return registryView(record);
}

/** Change what a registry's sync follows. */
export async function changeRegistry(db: Db, actor: CatalogActor, id: string, input: z.infer<typeof registryChangeSchema>) {
  await requireRegistry(db, id);
  const record = await updateRegistry(db, id, input);
  if (!record) throw new AppError("catalog.registry_not_found", "No such registry.");
  await recordAudit(db, {
    actorId: actor.id,
    action: "catalog.registry_change",
    target: id,
    detail: { mode: input.mode, filter: input.filter ?? null },
  });
  return registryView(record);
}

/** Remove a registry; entries imported from it stay, as last synced. */
export async function removeRegistry(db: Db, actor: CatalogActor, id: string): Promise<void> {
  const registry = await requireRegistry(db, id);
  await deleteRegistry(db, id);
  await recordAudit(db, { actorId: actor.id, action: "catalog.registry_remove", target: id, detail: { url: registry.url } });
}

/** Query of a registry browse: a search and the page's cursor. */
export const browseQuerySchema = z.object({ search: z.string().trim().max(200).optional(), cursor: z.string().max(2000).optional() });

/** One page of a registry's latest servers, to choose from (malformed ones listed with their fields). */
export async function browseRegistry(db: Db, fetch: RegistryFetch, id: string, query: z.infer<typeof browseQuerySchema>) {
  const registry = await requireRegistry(db, id);
  const page = await fetchServerPage(fetch, registry.url, { search: query.search || undefined, cursor: query.cursor, version: "latest" });
  return {
    servers: page.items.map((item) =>
      item.ok
        ? {
            ok: true as const,
            name: item.server.name,
            title: item.server.title ?? null,
            description: item.server.description,
            version: item.server.version,
            status: item.status,
          }
        : { ok: false as const, name: item.name, version: item.version ?? null, issues: item.issues },
    ),
    nextCursor: page.nextCursor,
  };
}
