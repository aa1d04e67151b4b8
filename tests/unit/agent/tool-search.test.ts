/** Tool search's pure parts: when it turns on, the selection's cap and reasons, recent tools. */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_TOOL_SEARCH,
  estimateToolTokens,
  needsToolSearch,
  PROVIDER_TOOL_LIMIT,
  recentToolNames,
  SEARCH_TOOL_NAME,
  ToolIndex,
  ToolSelection,
} from "@/lib/agent/tool-search";
import type { RegisteredTool } from "@/lib/mcp";

function tools(n: number, description = "does a thing"): RegisteredTool[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `mcp_s_tool${i}`,
    serverId: "s",
    serverName: "s",
    rawName: `tool${i}`,
    kind: "tool" as const,
    description,
    inputSchema: { type: "object", properties: {} },
  }));
}

describe("needsToolSearch", () => {
  it.each([
    [40, false],
    [41, true],
  ])("by count: %i tools → %s with the default threshold", (n, expected) => {
    expect(needsToolSearch(tools(n), DEFAULT_TOOL_SEARCH)).toBe(expected);
  });

  it("by estimated tokens: few tools with huge schemas", () => {
    const big = tools(5, "x".repeat(20_000));
    expect(estimateToolTokens(big[0])).toBeGreaterThan(5000);
    expect(needsToolSearch(big, DEFAULT_TOOL_SEARCH)).toBe(true);
  });

  it("threshold 0 turns it off, but never above the provider limit", () => {
    const off = { ...DEFAULT_TOOL_SEARCH, threshold: 0, maxTokens: 1e9 };
    expect(needsToolSearch(tools(100), off)).toBe(false);
    expect(needsToolSearch(tools(PROVIDER_TOOL_LIMIT + 1), off)).toBe(true);
  });
});

describe("ToolSelection", () => {
  it("keeps reasons, ignores unknown and duplicate names, and puts search_tools first", () => {
    const available = new Set(["a", "b", "c"]);
    const selection = new ToolSelection(available, { always: ["a", "zzz"], recent: ["a", "b"] });
    expect(selection.add({ name: "c", reason: "search", query: "q" })).toBe(true);
    expect(selection.add({ name: "c", reason: "search" })).toBe(false);
    expect(selection.list()).toEqual([
      { name: "a", reason: "always" },
      { name: "b", reason: "recent" },
      { name: "c", reason: "search", query: "q" },
    ]);
    expect(selection.activeNames()).toEqual([SEARCH_TOOL_NAME, "a", "b", "c"]);
  });

  it("never offers more than the provider limit, search_tools included", () => {
    const names = tools(300).map((t) => t.name);
    const selection = new ToolSelection(new Set(names), { always: names.slice(0, 200), recent: [] });
    expect(selection.add({ name: names[250], reason: "search" })).toBe(false);
    expect(selection.activeNames()).toHaveLength(PROVIDER_TOOL_LIMIT);
  });
});

describe("recentToolNames", () => {
  it("newest distinct calls first, without search_tools", () => {
    expect(recentToolNames(["a", "b", SEARCH_TOOL_NAME, "a", "c"], 2)).toEqual(["c", "a"]);
  });
});

describe("ToolIndex", () => {
  it("splits snake and camel case names and ranks by name, title and description", () => {
    const index = new ToolIndex([
      { ...tools(1)[0], name: "mcp_s_create_issue", rawName: "create_issue", description: "Open a bug report" },
      { ...tools(1)[0], name: "mcp_s_sendEmail", rawName: "sendEmail", description: "Send a message by mail" },
    ]);
    expect(index.search("create issue")[0].name).toBe("mcp_s_create_issue");
    expect(index.search("email")[0].name).toBe("mcp_s_sendEmail");
    expect(index.search("bug")[0].tool).toBe("create_issue");
  });
});
