import { describe, expect, it } from "vitest";
import { contextSources } from "@/lib/agent/context-sources";
import type { ChatMessage } from "@/lib/domain/chat-message";

const user = (id: string, parts: ChatMessage["parts"] = [{ type: "text", text: "hi" }]): ChatMessage => ({ id, role: "user", parts });

function toolCall(state: "output-available" | "output-denied" | "approval-requested", serverId: string, serverName: string) {
  const base = { type: "dynamic-tool" as const, toolName: `mcp_${serverName}_t`, toolCallId: `c-${serverId}-${state}`, input: {} };
  const toolMetadata = { serverId, serverName, tool: "t" };
  if (state === "output-available") return { ...base, state, toolMetadata, output: { serverId, serverName, forModel: { result: "x" } } };
  if (state === "output-denied") return { ...base, state, toolMetadata, approval: { id: "a", approved: false } };
  return { ...base, state, toolMetadata, approval: { id: "a" } };
}

const assistant = (id: string, parts: unknown[]): ChatMessage => ({ id, role: "assistant", parts: parts as ChatMessage["parts"] });

describe("contextSources: what untrusted content the conversation's context holds", () => {
  it.each([
    ["nothing from any server", [user("u1"), assistant("a1", [{ type: "text", text: "hello" }])], []],
    [
      "a tool result of an earlier turn stays a source after new user messages",
      [
        user("u1"),
        assistant("a1", [toolCall("output-available", "s1", "inbox")]),
        user("u2"),
        assistant("a2", [{ type: "text", text: "ok" }]),
        user("u3"),
      ],
      ["s1"],
    ],
    [
      "a denied or waiting call brought no content",
      [user("u1"), assistant("a1", [toolCall("output-denied", "s1", "inbox"), toolCall("approval-requested", "s2", "web")])],
      [],
    ],
    [
      "attached resources, prompts and app context of any turn are sources",
      [
        user("u1", [{ type: "data-resource", data: { serverId: "r", serverName: "docs", uri: "x://1", text: "t" } }]),
        user("u2", [{ type: "data-prompt", data: { serverId: "p", serverName: "prompts", name: "n", arguments: {}, messages: [] } }]),
        user("u3", [{ type: "data-appContext", data: { serverId: "app", serverName: "apps", toolCallId: "c", text: "t" } }]),
      ],
      ["r", "p", "app"],
    ],
    [
      "each server once",
      [assistant("a1", [toolCall("output-available", "s1", "inbox")]), assistant("a2", [toolCall("output-available", "s1", "inbox")])],
      ["s1"],
    ],
  ] as const)("%s", (_name, messages, expected) => {
    expect(contextSources(messages as unknown as ChatMessage[]).map((s) => s.serverId)).toEqual(expected);
  });
});
