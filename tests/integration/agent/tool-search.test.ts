/**
 * Tool search end to end: a real stdio server with 500 tools, the real openai-compatible provider
 * against the scripted LLM. The model's first request carries a short list plus search_tools; a
 * search loads the right tool, which the next step calls; the chat records what was loaded and why.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listMessagesByChat } from "@/db/queries/messages";
import { updateServerTrust } from "@/db/queries/server-trust";
import { SEARCH_TOOL_NAME, ToolIndex } from "@/lib/agent/tool-search";
import { getToolSearchSettings, setToolSearchSettings, toolSearchSettingsSchema } from "@/lib/agent/tool-search-settings";
import { getWorkspaceById } from "@/db/queries/workspaces";
import type { ToolsetData } from "@/lib/domain/chat-message";
import { newUserWithChat, runTurn, say, useAgentEnvironment } from "./helpers";

const env = useAgentEnvironment();
const MANY = path.join(__dirname, "../../fixtures/mcp/many-tools-server.mjs");

async function setup() {
  const { user, chat, servers } = await newUserWithChat({ many: { command: process.execPath, args: [MANY] } });
  await updateServerTrust(getDb(), servers[0].id, { trusted: true }, user.id);
  return { user, chat, servers };
}

function offeredNames(request: { body: { tools?: unknown[] } }): string[] {
  return (request.body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
}

async function toolsetOf(chatId: string): Promise<ToolsetData> {
  const assistant = (await listMessagesByChat(getDb(), chatId)).at(-1)!;
  const part = assistant.parts.find((p) => p.type === "data-toolset");
  return (part as { data: ToolsetData }).data;
}

/** Twenty ways a user asks for a capability, and the tool that provides it. */
const QUERIES: [string, string][] = [
  ["schedule a meeting on my calendar", "calendar_create_event"],
  ["open a bug report in a repository", "github_create_issue"],
  ["post a message to a slack channel", "slack_create_message"],
  ["refund a customer", "billing_create_refund"],
  ["what's the weather forecast for tomorrow", "weather_get_forecast"],
  ["find a sales deal", "crm_get_deal"],
  ["delete a kubernetes pod", "kubernetes_delete_pod"],
  ["add a DNS TXT record", "dns_create_record"],
  ["request vacation time off", "hr_create_time_off"],
  ["track a shipment", "inventory_get_shipment"],
  ["list open support cases", "support_list_case"],
  ["driving directions route between two places", "maps_get_route"],
  ["translate text into another language", "translate_create_text"],
  ["add songs to a playlist", "music_update_playlist"],
  ["current stock price of a ticker", "finance_get_stock_quote"],
  ["who is on call this week", "monitoring_get_on_call_schedule"],
  ["book a flight", "travel_create_flight"],
  ["grocery shopping list", "recipes_list_shopping_list"],
  ["rotate an api key", "security_update_api_key"],
  ["restore a database backup", "database_get_backup"],
];

describe("tool search with 500 tools", () => {
  it("sends at most the threshold plus search_tools, loads the searched tool and runs it", async () => {
    const { user, chat, servers } = await setup();
    const before = env.llm.requests.length;
    await runTurn({
      ...env,
      userId: user.id,
      chatId: chat.id,
      servers,
      request: say(
        'weather? [[call:search_tools {"query":"weather forecast for tomorrow"}]] [[then:weather_get_forecast {"id":"berlin"}]]',
      ),
    });
    const requests = env.llm.requests.slice(before);
    expect(requests.length).toBe(3);
    const first = offeredNames(requests[0]);
    expect(first).toContain(SEARCH_TOOL_NAME);
    expect(first.length).toBeLessThanOrEqual(40 + 1);
    const second = offeredNames(requests[1]);
    expect(second).toContain("mcp_many_weather_get_forecast");
    expect(second.length).toBeLessThanOrEqual(40 + 1);

    const assistant = (await listMessagesByChat(getDb(), chat.id)).at(-1)!;
    const calls = assistant.parts.filter((p) => p.type === "dynamic-tool");
    expect(calls.map((c) => c.toolName)).toEqual([SEARCH_TOOL_NAME, "mcp_many_weather_get_forecast"]);
    const output = (calls[1] as { output: { content: { content: { text: string }[] } } }).output;
    expect(output.content.content[0].text).toBe('ran weather_get_forecast with {"id":"berlin"}');
    const toolset = await toolsetOf(chat.id);
    expect(toolset.total).toBe(500);
    expect(toolset.loaded).toContainEqual(
      expect.objectContaining({ name: "mcp_many_weather_get_forecast", reason: "search", query: "weather forecast for tomorrow" }),
    );
  });

  it("ranks the right tool in the top 5 for each of 20 queries over the server's real listing", async () => {
    const { user, servers } = await setup();
    const listed = await env.pool.toolset(user.id, servers);
    expect(listed.filter((t) => t.kind === "tool")).toHaveLength(500);
    const index = new ToolIndex(listed);
    const misses = QUERIES.filter(([query, want]) => !index.search(query, 5).some((hit) => hit.tool === want));
    expect(misses).toEqual([]);
  });

  it("keeps the workspace's always-loaded tools and the recently used ones in the first request", async () => {
    const { user, chat, servers } = await setup();
    const db = getDb();
    expect(await getToolSearchSettings(db, user.workspaceId)).toEqual({ threshold: 40, maxTokens: 20000, alwaysLoaded: [] });
    const workspace = (await getWorkspaceById(db, user.workspaceId))!;
    await setToolSearchSettings(
      db,
      { id: user.id, workspaceId: user.workspaceId, role: "owner", workspace },
      {
        threshold: 40,
        maxTokens: 20000,
        alwaysLoaded: ["mcp_many_github_create_issue"],
      },
    );
    expect((await getToolSearchSettings(db, user.workspaceId)).alwaysLoaded).toEqual(["mcp_many_github_create_issue"]);
    const turn = { ...env, userId: user.id, workspaceId: user.workspaceId, chatId: chat.id, servers };
    await runTurn({ ...turn, request: say('[[call:search_tools {"query":"book a flight"}]] [[then:travel_get_flight {"id":"f1"}]]') });
    const before = env.llm.requests.length;
    await runTurn({ ...turn, request: say("hello again") });
    const first = offeredNames(env.llm.requests[before]);
    expect(first.sort()).toEqual(["mcp_many_github_create_issue", "mcp_many_travel_get_flight", SEARCH_TOOL_NAME]);
    expect((await toolsetOf(chat.id)).loaded.map((l) => l.reason)).toEqual(["always", "recent"]);
  });

  it("validates the settings: threshold within the provider limit, tool names, duplicates dropped", () => {
    const ok = toolSearchSettingsSchema.parse({ threshold: 0, maxTokens: 5000, alwaysLoaded: ["mcp_a_b", "mcp_a_b"] });
    expect(ok.alwaysLoaded).toEqual(["mcp_a_b"]);
    expect(toolSearchSettingsSchema.safeParse({ threshold: 129, maxTokens: 5000, alwaysLoaded: [] }).success).toBe(false);
    expect(toolSearchSettingsSchema.safeParse({ threshold: 40, maxTokens: 5000, alwaysLoaded: ["not a name!"] }).success).toBe(false);
  });
});
