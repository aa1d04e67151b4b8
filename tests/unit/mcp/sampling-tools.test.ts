/** The round limit and tool-use count of sampling with tools (lib/mcp/sampling-tools.ts), from the request history alone. */
import { describe, expect, it } from "vitest";
import type { CreateMessageRequest, CreateMessageResult } from "@modelcontextprotocol/client";
import { toolRoundRefusal, toolRoundsSoFar, toolUsesIn } from "@/lib/mcp/sampling-tools";

type Params = CreateMessageRequest["params"];
const tools = [{ name: "get_weather", inputSchema: { type: "object" } }];
const ask = { role: "user", content: { type: "text", text: "weather?" } };
const use = (id: string) => ({ role: "assistant", content: [{ type: "tool_use", id, name: "get_weather", input: {} }] });
const result = (id: string) => ({ role: "user", content: [{ type: "tool_result", toolUseId: id, content: [] }] });
const params = (messages: unknown[], withTools = true) =>
  ({ messages, maxTokens: 10, ...(withTools ? { tools } : {}) }) as unknown as Params;

describe("sampling tool rounds", () => {
  it("counts assistant turns that used tools", () => {
    expect(toolRoundsSoFar(params([ask]))).toBe(0);
    expect(toolRoundsSoFar(params([ask, use("a"), result("a"), use("b"), result("b")]))).toBe(2);
  });

  it("allows rounds up to max_tool_rounds and refuses the next", () => {
    expect(toolRoundRefusal(params([ask, use("a"), result("a")]), 2)).toBeNull();
    expect(toolRoundRefusal(params([ask, use("a"), result("a"), use("b"), result("b")]), 2)).toMatch(/exhausted: 2 already run/);
  });

  it("never refuses a request that offers no tools, and refuses every tool round at 0", () => {
    expect(toolRoundRefusal(params([ask, use("a"), result("a")], false), 0)).toBeNull();
    expect(toolRoundRefusal(params([ask]), 0)).toMatch(/max_tool_rounds: 0/);
  });

  it("counts tool_use blocks in an answer", () => {
    const answer = { role: "assistant", model: "m", content: [{ type: "text", text: "" }, ...use("x").content, ...use("y").content] };
    expect(toolUsesIn(answer as unknown as CreateMessageResult)).toBe(2);
    expect(toolUsesIn({ role: "assistant", model: "m", content: { type: "text", text: "hi" } })).toBe(0);
  });
});
