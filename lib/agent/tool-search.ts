/**
 * Tool search (docs/tool-search.md): when a turn has more tools than the workspace's threshold (by
 * count or by estimated schema tokens), the model starts with the always-loaded and recently used
 * tools plus `search_tools`, and each search activates the matching tools for the rest of the turn.
 * Pure: no AI SDK, no database — the run plumbing lives in tool-search-run.ts.
 */
import MiniSearch from "minisearch";
import type { RegisteredTool } from "../mcp";

/** The model-facing name of the search tool (MCP tools are all `mcp_<server>_<tool>`, so no clash). */
export const SEARCH_TOOL_NAME = "search_tools";

/** Providers refuse a request with more tools than this (OpenAI's cap; Anthropic's is higher). */
export const PROVIDER_TOOL_LIMIT = 128;

/** A workspace's tool-search settings. */
export interface ToolSearchSettings {
  /** Search turns on when a turn has more tools than this. Default 40; 0 turns tool search off. */
  threshold: number;
  /** ...or when the tools' estimated schema tokens exceed this. Default 20000. */
  maxTokens: number;
  /** Registered tool names (`mcp_<server>_<tool>`) always given to the model. Default none. */
  alwaysLoaded: string[];
}

/** Defaults of a workspace that never changed its settings. */
export const DEFAULT_TOOL_SEARCH: ToolSearchSettings = { threshold: 40, maxTokens: 20000, alwaysLoaded: [] };

/** Why a tool is in the model's list this step. */
export type LoadReason = "always" | "recent" | "search";

/** Estimated tokens of one tool as a provider sends it (name, description, JSON schema; ~4 chars a token). */
export function estimateToolTokens(tool: Pick<RegisteredTool, "name" | "description" | "title" | "inputSchema">): number {
  const text = JSON.stringify({ name: tool.name, description: tool.description ?? tool.title ?? "", parameters: tool.inputSchema });
  return Math.ceil(text.length / 4);
}

/** Whether a turn with these tools should use search instead of sending them all. */
export function needsToolSearch(tools: readonly RegisteredTool[], settings: ToolSearchSettings): boolean {
  if (settings.threshold <= 0) return tools.length > PROVIDER_TOOL_LIMIT;
  if (tools.length > Math.min(settings.threshold, PROVIDER_TOOL_LIMIT)) return true;
  let tokens = 0;
  for (const tool of tools) tokens += estimateToolTokens(tool);
  return tokens > settings.maxTokens;
}

const STOP_WORDS = new Set(
  "a an and are as at be by can do for from how i in is it me my of on or please some that the this to up use what who with you your".split(
    " ",
  ),
);

/** One hit of a search, as the model and the chat see it. */
export interface ToolHit {
  name: string;
  serverName: string;
  tool: string;
  title?: string;
  description: string;
  score: number;
}

// Indexes by the tools they cover: the pool hands out the same tool objects until a server lists
// again, so a user's next turn over the same tools reuses the index (only that user holds those
// objects). Weak: an index goes with its tools.
const indexes = new WeakMap<RegisteredTool, { tools: readonly RegisteredTool[]; index: ToolIndex }[]>();

function sameTools(a: readonly RegisteredTool[], b: readonly RegisteredTool[]): boolean {
  return a.length === b.length && a.every((tool, i) => tool === b[i]);
}

/** A lexical index over a turn's tools: name, title and description, with the server name as a field. */
export class ToolIndex {
  /** The index of exactly these tools, built once while they stay the same objects. */
  static of(tools: readonly RegisteredTool[]): ToolIndex {
    if (tools.length === 0) return new ToolIndex(tools);
    const known = indexes.get(tools[0]) ?? [];
    const hit = known.find((entry) => sameTools(entry.tools, tools));
    if (hit) return hit.index;
    const index = new ToolIndex(tools);
    // A few sets per first tool at most (the turn's filters vary little); the newest first.
    indexes.set(tools[0], [{ tools: [...tools], index }, ...known.slice(0, 3)]);
    return index;
  }

  private readonly index: MiniSearch<{ id: string; name: string; title: string; description: string; server: string }>;
  private readonly byName: Map<string, RegisteredTool>;

  /** Index the given tools (built once per turn). */
  constructor(tools: readonly RegisteredTool[]) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
    this.index = new MiniSearch({
      fields: ["name", "title", "description", "server"],
      // Tool names are snake/kebab/camel case: split them into words so "create_issue" matches "create issue".
      tokenize: (text) => text.split(/[\s\-_.,;:!?()[\]{}"'`/\\]+|(?<=[a-z])(?=[A-Z])/u).filter(Boolean),
      // Words like "a", "on", "my" match everything and nothing: left out of index and queries alike.
      processTerm: (term) => {
        const word = term.toLowerCase();
        return STOP_WORDS.has(word) ? null : word;
      },
      searchOptions: { boost: { name: 2, title: 1.5, server: 1.5 }, prefix: true, fuzzy: 0.2, combineWith: "OR" },
    });
    this.index.addAll(
      tools.map((t) => ({ id: t.name, name: t.rawName, title: t.title ?? "", description: t.description ?? "", server: t.serverName })),
    );
  }

  /** The best `limit` tools for a query, best first. */
  search(query: string, limit = 5): ToolHit[] {
    return this.index
      .search(query)
      .slice(0, limit)
      .flatMap((hit) => {
        const tool = this.byName.get(hit.id as string);
        if (!tool) return [];
        const description = (tool.description ?? tool.title ?? "").slice(0, 300);
        return [{ name: tool.name, serverName: tool.serverName, tool: tool.rawName, title: tool.title, description, score: hit.score }];
      });
  }
}

/** One loaded tool and why, for the chat's "tools loaded" line. */
export interface LoadedTool {
  name: string;
  reason: LoadReason;
  /** The query that found it (reason `search`). */
  query?: string;
}

/**
 * The tools the model may use in one turn: starts with the always-loaded and recent tools and grows
 * with each search; never more than the provider limit (the search tool included).
 */
export class ToolSelection {
  private readonly loaded = new Map<string, LoadedTool>();

  /** Start a turn's selection; names not among `available` are ignored. */
  constructor(
    private readonly available: ReadonlySet<string>,
    initial: { always: readonly string[]; recent: readonly string[] },
    private readonly limit = PROVIDER_TOOL_LIMIT - 1,
  ) {
    for (const name of initial.always) this.add({ name, reason: "always" });
    for (const name of initial.recent) this.add({ name, reason: "recent" });
  }

  /** Load a tool; false when it is unknown, already loaded or the list is full. */
  add(entry: LoadedTool): boolean {
    if (!this.available.has(entry.name) || this.loaded.has(entry.name) || this.loaded.size >= this.limit) return false;
    this.loaded.set(entry.name, entry);
    return true;
  }

  /** The loaded tools in load order. */
  list(): LoadedTool[] {
    return [...this.loaded.values()];
  }

  /** The names the model gets this step, `search_tools` first. */
  activeNames(): string[] {
    return [SEARCH_TOOL_NAME, ...this.loaded.keys()];
  }
}

/** Recently used tools: the names of the last `max` distinct calls in the history, newest first. */
export function recentToolNames(callsInOrder: readonly string[], max = 10): string[] {
  const seen: string[] = [];
  for (let i = callsInOrder.length - 1; i >= 0 && seen.length < max; i--) {
    const name = callsInOrder[i];
    if (name !== SEARCH_TOOL_NAME && !seen.includes(name)) seen.push(name);
  }
  return seen;
}
