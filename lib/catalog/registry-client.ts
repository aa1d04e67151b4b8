/**
 * A client of the MCP Registry's `/v0.1` API (`GET /v0.1/servers` with `cursor`, `search`,
 * `updated_since`, `version`): pages of `{server, _meta}` with `metadata.nextCursor`. The fetch it
 * is given is the SSRF-guarded one (lib/net); every item comes back checked, a bad one with its fields.
 */
import { z } from "zod";
import { readCapped } from "../net/read-capped";
import { AppError } from "../errors";
import { NetError } from "../net/errors";
import { checkServerJson, type ServerJson, type ServerJsonIssue } from "./server-json";

/** The `_meta` key under which a registry states status, dates and `isLatest`. */
export const OFFICIAL_META = "io.modelcontextprotocol.registry/official";

/** The `fetch` the client calls (the guarded one in the app, any in tests). */
export type RegistryFetch = (url: string, init?: RequestInit) => Promise<Response>;

/** One item of a page: a valid `server.json` with the registry's facts, or what is wrong with it. */
export type RegistryItem =
  | {
      ok: true;
      server: ServerJson;
      status: "active" | "deprecated" | "deleted";
      statusMessage: string | null;
      isLatest: boolean;
      publishedAt: Date | null;
      updatedAt: Date | null;
    }
  | { ok: false; name: string; version?: string; issues: ServerJsonIssue[] };

/** The query of one page. */
export interface PageQuery {
  cursor?: string;
  search?: string;
  updatedSince?: Date;
  version?: "latest";
  limit?: number;
}

// One page is a few hundred entries at most; past this the registry is not one we can use.
const MAX_PAGE_BYTES = 8 * 1024 * 1024;

const officialSchema = z.looseObject({
  status: z.enum(["active", "deprecated", "deleted"]).optional(),
  statusMessage: z.string().optional(),
  publishedAt: z.string().optional(),
  updatedAt: z.string().optional(),
  isLatest: z.boolean().optional(),
});

const pageSchema = z.looseObject({
  servers: z.array(z.unknown()),
  metadata: z.looseObject({ nextCursor: z.string().nullish(), count: z.number().optional() }).optional(),
});

const date = (text: string | undefined) => (text && !Number.isNaN(Date.parse(text)) ? new Date(text) : null);

function readItem(raw: unknown): RegistryItem {
  const item = (raw && typeof raw === "object" ? raw : {}) as { server?: unknown; _meta?: Record<string, unknown> };
  const checked = checkServerJson(item.server);
  if (!checked.ok) {
    const server = (item.server ?? {}) as { name?: unknown; version?: unknown };
    return {
      ok: false,
      name: typeof server.name === "string" ? server.name : "(no name)",
      version: typeof server.version === "string" ? server.version : undefined,
      issues: checked.issues.map((issue) => ({ ...issue, field: `server.${issue.field}` })),
    };
  }
  const official = officialSchema.safeParse(item._meta?.[OFFICIAL_META] ?? {});
  const meta = official.success ? official.data : {};
  return {
    ok: true,
    server: checked.server,
    status: meta.status ?? "active",
    statusMessage: meta.statusMessage ?? null,
    isLatest: meta.isLatest ?? true,
    publishedAt: date(meta.publishedAt),
    updatedAt: date(meta.updatedAt),
  };
}

/** The API root of a registry URL: `/v0.1` appended unless the URL already ends with it. */
export function registryApiRoot(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return /\/v0(\.1)?$/.test(trimmed) ? trimmed : `${trimmed}/v0.1`;
}

async function getJson(fetch: RegistryFetch, url: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: "application/json" }, redirect: "follow" });
  } catch (error) {
    // The SSRF guard's refusals keep their own code (net.ssrf_blocked…): they are policy, not an outage.
    if (error instanceof NetError) throw error;
    throw new AppError("catalog.registry_unreachable", "The registry could not be reached.");
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    throw new AppError("catalog.registry_unreachable", `The registry answered ${response.status} to ${new URL(url).pathname}.`);
  }
  const bytes = await readCapped(
    response.body,
    MAX_PAGE_BYTES,
    () => new AppError("catalog.registry_unreachable", "The registry's answer is too large."),
  );
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new AppError("catalog.registry_unreachable", "The registry's answer is not JSON.");
  }
}

/** One page of `GET /v0.1/servers`: its items (checked) and the cursor of the next page, if any. */
export async function fetchServerPage(
  fetch: RegistryFetch,
  registryUrl: string,
  query: PageQuery = {},
): Promise<{ items: RegistryItem[]; nextCursor: string | null }> {
  const params = new URLSearchParams();
  if (query.cursor) params.set("cursor", query.cursor);
  if (query.search) params.set("search", query.search);
  if (query.updatedSince) params.set("updated_since", query.updatedSince.toISOString());
  if (query.version) params.set("version", query.version);
  if (query.limit) params.set("limit", String(query.limit));
  const body = pageSchema.safeParse(await getJson(fetch, `${registryApiRoot(registryUrl)}/servers?${params}`));
  if (!body.success)
    throw new AppError("catalog.registry_unreachable", "The registry's answer is not a /v0.1 server list (no `servers` array).");
  return { items: body.data.servers.map(readItem), nextCursor: body.data.metadata?.nextCursor || null };
}

/** Every version of one server (`GET /v0.1/servers/{name}/versions`). */
export async function fetchServerVersions(fetch: RegistryFetch, registryUrl: string, name: string): Promise<RegistryItem[]> {
  const body = pageSchema.safeParse(await getJson(fetch, `${registryApiRoot(registryUrl)}/servers/${encodeURIComponent(name)}/versions`));
  if (!body.success) throw new AppError("catalog.registry_unreachable", "The registry's answer is not a /v0.1 version list.");
  return body.data.servers.map(readItem);
}
