/**
 * The tool-search figure of `npm run bench` (also runnable alone: `npx tsx bench/tool-search.ts`):
 * for 50, 200 and 500 tools of a real stdio server (tests/fixtures/mcp/many-tools-server.mjs), the
 * tools and estimated schema tokens the model receives per request with and without tool search,
 * and the time to build a turn's toolset (listing from the pool, AI SDK tools, search index): the
 * first turn after a listing, and the following turns (what is derived per listing is reused).
 */
import path from "node:path";
import { buildMcpTools } from "../lib/agent/mcp-tools";
import { DEFAULT_TOOL_SEARCH, estimateToolTokens, type ToolSearchSettings } from "../lib/agent/tool-search";
import { SEARCH_TOOL, ToolSearchRun } from "../lib/agent/tool-search-run";
import { McpPool, parseServerConfig, type RegisteredTool } from "../lib/mcp";

/** One row of the figure. */
export interface ToolSearchRow {
  tools: number;
  withoutSearch: { tools: number; tokens: number };
  /** First request (search_tools only, nothing pinned or recent) and after one search (5 loaded). */
  withSearch: { first: { tools: number; tokens: number }; afterSearch: { tools: number; tokens: number } };
  /** Listing + AI SDK tools, without and with the search index (p50 ms), and the first turn after a listing with search (nothing derived yet). */
  buildMs: { without: number; with: number; firstWith: number };
}

const SEARCH_TOOL_TOKENS = estimateToolTokens(SEARCH_TOOL);

function tokensOf(tools: RegisteredTool[]): number {
  return tools.reduce((sum, t) => sum + estimateToolTokens(t), 0);
}

async function buildOnce(pool: McpPool, servers: Parameters<McpPool["toolset"]>[1], settings: ToolSearchSettings | null): Promise<number> {
  const t0 = performance.now();
  const offered = await pool.toolset("bench", servers);
  buildMcpTools({ pool, userId: "bench", servers, registered: offered });
  if (settings) ToolSearchRun.plan({ offered, settings, messages: [] });
  return performance.now() - t0;
}

// What a turn pays while the server's listing stays the same (names, sanitised schemas and the
// search index are derived once per listing and reused).
async function buildMs(pool: McpPool, servers: Parameters<McpPool["toolset"]>[1], settings: ToolSearchSettings | null, runs = 30) {
  const times: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const ms = await buildOnce(pool, servers, settings);
    if (i >= 5) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)];
}

/** Measure each size with its own server process. */
export async function toolSearchBench(root: string, sizes = [50, 200, 500]): Promise<ToolSearchRow[]> {
  const rows: ToolSearchRow[] = [];
  for (const size of sizes) {
    const pool = new McpPool();
    const config = parseServerConfig(
      {
        command: process.execPath,
        args: [path.join(root, "tests/fixtures/mcp/many-tools-server.mjs")],
        env: { MANY_TOOLS_COUNT: String(size) },
      },
      "many",
    );
    const servers = [{ id: `many-${size}`, name: "many", config }];
    try {
      await pool.discover("bench", servers);
      // The first turn after the server listed its tools: everything is derived from scratch.
      const firstWith = await buildOnce(pool, servers, DEFAULT_TOOL_SEARCH);
      const offered = (await pool.toolset("bench", servers)).filter((t) => t.kind === "tool");
      const search = ToolSearchRun.plan({ offered, settings: DEFAULT_TOOL_SEARCH, messages: [] });
      search?.search("create a calendar event");
      const loaded = search ? search.activeTools(offered.map((t) => t.name)).slice(1) : [];
      const loadedTools = offered.filter((t) => loaded.includes(t.name));
      rows.push({
        tools: offered.length,
        withoutSearch: { tools: offered.length, tokens: tokensOf(offered) },
        withSearch: {
          first: { tools: 1, tokens: SEARCH_TOOL_TOKENS },
          afterSearch: { tools: 1 + loadedTools.length, tokens: SEARCH_TOOL_TOKENS + tokensOf(loadedTools) },
        },
        buildMs: { without: await buildMs(pool, servers, null), with: await buildMs(pool, servers, DEFAULT_TOOL_SEARCH), firstWith },
      });
    } finally {
      await pool.closeAll();
    }
  }
  return rows;
}

/** Print the rows as the README's table. */
export function printToolSearch(rows: ToolSearchRow[]): void {
  console.log("\ntool search (estimated schema tokens = JSON chars / 4; search on above 40 tools):\n");
  console.log(
    "| tools | without search: tools / tokens | with search, 1st request | after one search | build ms p50 without / with search | first build after a listing, with search |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) {
    const s = r.withSearch;
    console.log(
      `| ${r.tools} | ${r.withoutSearch.tools} / ${r.withoutSearch.tokens} | ${s.first.tools} / ${s.first.tokens} | ${s.afterSearch.tools} / ${s.afterSearch.tokens} | ${r.buildMs.without.toFixed(2)} / ${r.buildMs.with.toFixed(2)} | ${r.buildMs.firstWith.toFixed(1)} |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  toolSearchBench(path.resolve(import.meta.dirname, "..")).then(printToolSearch, (error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
