/**
 * Discovery after initialize (docs/architecture.md#connection-lifecycle): tools, resources, resource templates and prompts,
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
import { EngineError } from "./errors";
import { DEFAULT_ENGINE_LIMITS, raiseHint, type EngineLimits } from "./limits";
import type { Logger } from "./logger";
import { invalidParamHeaders } from "./param-headers";

/** Bounds on one paginated list. */
export interface PageBounds {
  /** Default 50. */
  maxPages: number;
  /** Default 5000 (tools: `maxTools`, 1000). */
  maxItems: number;
  /** Bytes of all pages together (as re-serialized JSON). Default 32 MiB. */
  maxBytes?: number;
}

/** Default pagination bounds. */
export const DEFAULT_PAGE_BOUNDS: PageBounds = { maxPages: 50, maxItems: 5000, maxBytes: DEFAULT_ENGINE_LIMITS.maxListBytes };

/** Everything a server offers, as last listed. */
export interface Discovered {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  capabilities: ServerCapabilities;
  /** Tools the server listed but the engine refused (a second tool of the same name, unusable headers), with why. */
  refusedTools?: RefusedTool[];
}

/** A listed tool the engine refused: a server defect, shown in the server's status. */
export interface RefusedTool {
  name: string;
  reason: string;
}

/** One page as the SDK returns it. */
type Page<T> = { items: T[]; nextCursor?: string };

/**
 * Collect all pages of a list. Past a bound (items, pages, bytes) or on a repeated cursor the list
 * fails with `limit_exceeded` naming the bound: a silently cut list would look complete.
 */
export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  what: string,
  logger: Logger,
  bounds: PageBounds = DEFAULT_PAGE_BOUNDS,
  serverName = "the server",
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  const fail = (why: string) => {
    logger.warn(`${what}: ${why}`, { server: serverName });
    return new EngineError("limit_exceeded", `server "${serverName}": ${what} ${why}`);
  };
  let bytes = 0;
  let cursor: string | undefined;
  for (let page = 0; page < bounds.maxPages; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    if (items.length > bounds.maxItems) throw fail(`has more than ${bounds.maxItems} items (${itemHint(what)})`);
    if (bounds.maxBytes !== undefined) {
      bytes += JSON.stringify(result.items).length;
      if (bytes > bounds.maxBytes) throw fail(`is larger than ${bounds.maxBytes} bytes (${raiseHint("maxListBytes")})`);
    }
    cursor = result.nextCursor;
    if (!cursor) return items;
    if (seen.has(cursor)) throw fail("repeated a cursor (the list would never end)");
    seen.add(cursor);
  }
  throw fail(`has more than ${bounds.maxPages} pages (${raiseHint("maxListPages")})`);
}

function itemHint(what: string): string {
  return what === "tools/list" ? raiseHint("maxTools") : "the server lists too much";
}

/** Tools with descriptions cut to `maxChars` (they go to the model on every turn). */
function boundDescriptions(tools: Tool[], maxChars: number): Tool[] {
  return tools.map((tool) =>
    tool.description && tool.description.length > maxChars ? { ...tool, description: `${tool.description.slice(0, maxChars)}…` } : tool,
  );
}

/** Which lists a refresh covers. */
export type ListKind = "tools" | "resources" | "prompts";

/** List what the server declared; `only` limits a refresh to one list_changed kind. */
export async function discover(
  client: Client,
  options: {
    timeoutMs: number;
    logger: Logger;
    signal?: AbortSignal;
    only?: ListKind;
    previous?: Discovered;
    limits?: EngineLimits;
    serverName?: string;
  },
): Promise<Discovered> {
  const limits = options.limits ?? DEFAULT_ENGINE_LIMITS;
  const bounds: PageBounds = { maxPages: limits.maxListPages, maxItems: DEFAULT_PAGE_BOUNDS.maxItems, maxBytes: limits.maxListBytes };
  const collect = <T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, what: string, maxItems = bounds.maxItems) =>
    collectPages(fetchPage, what, options.logger, { ...bounds, maxItems }, options.serverName);
  const caps = client.getServerCapabilities() ?? {};
  const req = { timeout: options.timeoutMs, signal: options.signal };
  const want = (kind: ListKind) => !options.only || options.only === kind;
  const prev = options.previous;
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    !caps.tools
      ? []
      : !want("tools")
        ? (prev?.tools ?? [])
        : collect(
            (cursor) => page(client, "tools/list", cursor, req).then((r) => ({ items: r.tools, nextCursor: r.nextCursor })),
            "tools/list",
            limits.maxTools,
          ).then((tools) => boundDescriptions(tools, limits.maxDescriptionChars)),
    !caps.resources
      ? []
      : !want("resources")
        ? (prev?.resources ?? [])
        : collect(
            (cursor) => page(client, "resources/list", cursor, req).then((r) => ({ items: r.resources, nextCursor: r.nextCursor })),
            "resources/list",
          ),
    !caps.resources
      ? []
      : !want("resources")
        ? (prev?.resourceTemplates ?? [])
        : collect(
            (cursor) =>
              page(client, "resources/templates/list", cursor, req).then((r) => ({ items: r.resourceTemplates, nextCursor: r.nextCursor })),
            "resources/templates/list",
          ).catch(onlyMethodNotFound),
    !caps.prompts
      ? []
      : !want("prompts")
        ? (prev?.prompts ?? [])
        : collect(
            (cursor) => page(client, "prompts/list", cursor, req).then((r) => ({ items: r.prompts, nextCursor: r.nextCursor })),
            "prompts/list",
          ),
  ]);
  const refusedTools: RefusedTool[] = [];
  const unique = want("tools") ? withoutDuplicateNames(tools, refusedTools) : tools;
  // On 2026-07-28, a tool whose header declarations break SEP-2243 could never be called correctly.
  const usable = client.getProtocolEra() === "modern" ? withoutInvalidParamHeaders(unique, refusedTools) : unique;
  for (const refused of refusedTools)
    options.logger.warn(`tool "${refused.name}" refused: ${refused.reason}`, { server: options.serverName });
  return {
    tools: usable,
    resources,
    resourceTemplates,
    prompts,
    capabilities: caps,
    refusedTools: want("tools") ? refusedTools : (prev?.refusedTools ?? []),
  };
}

/**
 * The first tool of each name. Two tools of one server with the same name are a server defect: a
 * call by that name cannot say which one it means, and their definitions could never be pinned
 * stably (docs/tool-trust.md#pinning-tools-cannot-change-behind-peoples-backs). The later ones are refused, with the reason.
 */
function withoutDuplicateNames(tools: Tool[], refused: RefusedTool[]): Tool[] {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    if (!seen.has(tool.name)) {
      seen.add(tool.name);
      return true;
    }
    refused.push({
      name: tool.name,
      reason: "the server lists two tools with this name (a server defect); only the first is offered",
    });
    return false;
  });
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

function withoutInvalidParamHeaders(tools: Tool[], refused: RefusedTool[]): Tool[] {
  return tools.filter((tool) => {
    const reason = invalidParamHeaders(tool.inputSchema);
    if (reason) refused.push({ name: tool.name, reason });
    return !reason;
  });
}

/** Templates are optional within the resources capability: "method not found" means none. */
function onlyMethodNotFound(error: unknown): ResourceTemplate[] {
  if (error instanceof ProtocolError && error.code === ProtocolErrorCode.MethodNotFound) return [];
  throw error;
}
