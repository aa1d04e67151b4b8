/**
 * Discovery after initialize (REFERENCE §2, §8): tools, resources, resource templates and prompts,
 * each only if the server declared the capability, following `nextCursor` with bounds on pages and
 * items so a misbehaving server cannot loop us forever.
 */
import type { Client } from "@modelcontextprotocol/client";
import {
  ProtocolError,
  ProtocolErrorCode,
  type Prompt,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type ServerCapabilities,
  type Tool,
} from "@modelcontextprotocol/client";
import type { Logger } from "./logger";
import { invalidParamHeaders } from "./param-headers";

/** Bounds on one paginated list. */
export interface PageBounds {
  /** Default 50. */
  maxPages: number;
  /** Default 5000. */
  maxItems: number;
}

/** Default pagination bounds. */
export const DEFAULT_PAGE_BOUNDS: PageBounds = { maxPages: 50, maxItems: 5000 };

/** Everything a server offers, as last listed. */
export interface Discovered {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  capabilities: ServerCapabilities;
}

/** One page as the SDK returns it. */
type Page<T> = { items: T[]; nextCursor?: string };

/**
 * Collect all pages of a list; stops (with a log entry, keeping what it has) at the bounds or when a
 * server repeats a cursor.
 */
export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  what: string,
  logger: Logger,
  bounds: PageBounds = DEFAULT_PAGE_BOUNDS,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < bounds.maxPages; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    if (items.length >= bounds.maxItems) {
      logger.warn(`${what}: stopped at ${bounds.maxItems} items`);
      return items.slice(0, bounds.maxItems);
    }
    cursor = result.nextCursor;
    if (!cursor) return items;
    if (seen.has(cursor)) {
      logger.warn(`${what}: server repeated a cursor; stopped`);
      return items;
    }
    seen.add(cursor);
  }
  logger.warn(`${what}: stopped after ${bounds.maxPages} pages`);
  return items;
}

/** Which lists a refresh covers. */
export type ListKind = "tools" | "resources" | "prompts";

/** List what the server declared; `only` limits a refresh to one list_changed kind. */
export async function discover(
  client: Client,
  options: { timeoutMs: number; logger: Logger; signal?: AbortSignal; only?: ListKind; previous?: Discovered },
): Promise<Discovered> {
  const caps = client.getServerCapabilities() ?? {};
  const req = { timeout: options.timeoutMs, signal: options.signal };
  const want = (kind: ListKind) => !options.only || options.only === kind;
  const prev = options.previous;
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    !caps.tools
      ? []
      : !want("tools")
        ? (prev?.tools ?? [])
        : collectPages(
            (cursor) => page(client, "tools/list", cursor, req).then((r) => ({ items: r.tools, nextCursor: r.nextCursor })),
            "tools/list",
            options.logger,
          ),
    !caps.resources
      ? []
      : !want("resources")
        ? (prev?.resources ?? [])
        : collectPages(
            (cursor) => page(client, "resources/list", cursor, req).then((r) => ({ items: r.resources, nextCursor: r.nextCursor })),
            "resources/list",
            options.logger,
          ),
    !caps.resources
      ? []
      : !want("resources")
        ? (prev?.resourceTemplates ?? [])
        : collectPages(
            (cursor) =>
              page(client, "resources/templates/list", cursor, req).then((r) => ({ items: r.resourceTemplates, nextCursor: r.nextCursor })),
            "resources/templates/list",
            options.logger,
          ).catch(onlyMethodNotFound),
    !caps.prompts
      ? []
      : !want("prompts")
        ? (prev?.prompts ?? [])
        : collectPages(
            (cursor) => page(client, "prompts/list", cursor, req).then((r) => ({ items: r.prompts, nextCursor: r.nextCursor })),
            "prompts/list",
            options.logger,
          ),
  ]);
  // On 2026-07-28, a tool whose header declarations break SEP-2243 could never be called correctly.
  const usable = client.getProtocolEra() === "modern" ? withoutInvalidParamHeaders(tools, options.logger) : tools;
  return { tools: usable, resources, resourceTemplates, prompts, capabilities: caps };
}

/**
 * One page of a list. The SDK's own `list*()` walks every page when called without a cursor (with
 * no item bound and an error at its page cap), so the engine asks page by page to keep its bounds.
 */
function page<M extends "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list">(
  client: Client,
  method: M,
  cursor: string | undefined,
  options: { timeout: number; signal?: AbortSignal },
) {
  return client.request({ method, params: cursor === undefined ? {} : { cursor } }, options);
}

function withoutInvalidParamHeaders(tools: Tool[], logger: Logger): Tool[] {
  return tools.filter((tool) => {
    const reason = invalidParamHeaders(tool.inputSchema);
    if (reason) logger.warn(`tool "${tool.name}" excluded: ${reason}`);
    return !reason;
  });
}

/** Templates are optional within the resources capability: "method not found" means none. */
function onlyMethodNotFound(error: unknown): ResourceTemplate[] {
  if (error instanceof ProtocolError && error.code === ProtocolErrorCode.MethodNotFound) return [];
  throw error;
}
