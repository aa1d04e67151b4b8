/**
 * The instance's catalog served as a registry (`GET /v0.1/servers`, `…/{name}/versions`,
 * `…/versions/{version|latest}`, shapes of the MCP Registry's `/v0.1` OpenAPI): what the calling
 * user may see (entries shown to any workspace they belong to; instance administrators: all; a
 * personal access token: its workspace's),
 * deleted entries left out. `isLatest` marks the version the catalog offers (its pin, else the latest).
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import {
  type CatalogEntryRecord,
  type CatalogVersionRecord,
  listCatalogEntries,
  listEntriesVisibleIn,
  versionsOfEntries,
} from "../../db/queries/catalog";
import { listWorkspacesForUser } from "../../db/queries/workspaces";
import { AppError } from "../errors";
import { currentVersion } from "./entries";
import { OFFICIAL_META } from "./registry-client";

/** The caller of the registry API. */
export interface RegistryReader {
  id: string;
  isAdmin: boolean;
  /** A personal access token's workspace: only what that workspace sees, administrators included. */
  tokenWorkspaceId?: string | null;
}

/** Query of `GET /v0.1/servers`. */
export const registryListQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
  search: z.string().max(200).optional(),
  updated_since: z.iso.datetime({ offset: true }).optional(),
  version: z.string().max(255).optional(),
});

type Served = { entry: CatalogEntryRecord; version: CatalogVersionRecord; offered: boolean };

async function visible(db: Db, reader: RegistryReader): Promise<Served[]> {
  // A token reads as its one workspace (least privilege for a script); the session as every workspace of the user.
  const entries = (
    reader.tokenWorkspaceId
      ? await listEntriesVisibleIn(db, [reader.tokenWorkspaceId])
      : reader.isAdmin
        ? await listCatalogEntries(db)
        : await listEntriesVisibleIn(
            db,
            (await listWorkspacesForUser(db, reader.id)).map((w) => w.id),
          )
  ).filter((e) => e.status !== "deleted");
  const versions = await versionsOfEntries(
    db,
    entries.map((e) => e.id),
  );
  return entries.flatMap((entry) => {
    const all = versions.get(entry.id) ?? [];
    const offered = currentVersion(entry, all);
    return all.map((version) => ({ entry, version, offered: version.id === offered?.id }));
  });
}

/** One `ServerResponse`: the server.json and the registry's metadata. */
function serverResponse({ entry, version, offered }: Served) {
  return {
    server: version.serverJson,
    _meta: {
      [OFFICIAL_META]: {
        status: version.status === "active" ? entry.status : version.status,
        ...(entry.statusMessage ? { statusMessage: entry.statusMessage } : {}),
        publishedAt: (version.publishedAt ?? entry.createdAt).toISOString(),
        updatedAt: (version.updatedAt > entry.updatedAt ? version.updatedAt : entry.updatedAt).toISOString(),
        isLatest: offered,
      },
    },
  };
}

// Name then version, by code point (not locale): a stable order, so a cursor (an offset) means the same place on the next page.
const sortKey = (server: Record<string, unknown>) => `${server.name}\0${server.version}`;

const encodeCursor = (offset: number) => Buffer.from(String(offset)).toString("base64url");
function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  const offset = Number(Buffer.from(cursor, "base64url").toString());
  if (!Number.isInteger(offset) || offset < 0) throw new AppError("request.invalid", "Unknown cursor.", "cursor");
  return offset;
}

/** `GET /v0.1/servers`: a `ServerList` page, `metadata.nextCursor` when more follow. */
export async function registryList(db: Db, reader: RegistryReader, query: z.infer<typeof registryListQuerySchema>) {
  const since = query.updated_since ? Date.parse(query.updated_since) : null;
  const search = query.search?.toLowerCase();
  const all = (await visible(db, reader))
    .filter((s) => !search || s.entry.name.toLowerCase().includes(search))
    .filter((s) => !query.version || (query.version === "latest" ? s.offered : s.version.version === query.version))
    .map(serverResponse)
    .filter((r) => since === null || Date.parse(r._meta[OFFICIAL_META].updatedAt) > since)
    .sort((a, b) => (sortKey(a.server) < sortKey(b.server) ? -1 : sortKey(a.server) > sortKey(b.server) ? 1 : 0));
  const offset = decodeCursor(query.cursor);
  const page = all.slice(offset, offset + query.limit);
  const more = offset + query.limit < all.length;
  return { servers: page, metadata: { count: page.length, ...(more ? { nextCursor: encodeCursor(offset + query.limit) } : {}) } };
}

/** `GET /v0.1/servers/{name}/versions`: every version of one server, or null when the caller may not see it. */
export async function registryVersions(db: Db, reader: RegistryReader, name: string) {
  const served = (await visible(db, reader)).filter((s) => s.entry.name === name);
  return served.length ? { servers: served.map(serverResponse), metadata: { count: served.length } } : null;
}

/** `GET /v0.1/servers/{name}/versions/{version}` (`latest`: the offered one), or null. */
export async function registryVersion(db: Db, reader: RegistryReader, name: string, version: string) {
  const one = (await visible(db, reader)).find(
    (s) => s.entry.name === name && (version === "latest" ? s.offered : s.version.version === version),
  );
  return one ? serverResponse(one) : null;
}
