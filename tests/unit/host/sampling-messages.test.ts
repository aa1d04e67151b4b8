/** MCP sampling messages with tool_use/tool_result as AI SDK messages, and the model's calls back as a sampling result. */
import { describe, expect, it } from "vitest";
import type { CreateMessageRequest } from "@modelcontextprotocol/client";
import { offeredTools, samplingResult, toModelMessages } from "@/lib/runtime/sampling-messages";

type Params = CreateMessageRequest["params"];
const params = {
  maxTokens: 10,
  tools: [{ name: "weather.get", description: "d", inputSchema: { type: "object" } }],
  toolChoice: { mode: "required" },
  messages: [
    { role: "user", content: { type: "text", text: "weather?" } },
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "weather.get", input: { city: "Rome" } }] },
    { role: "user", content: [{ type: "tool_result", toolUseId: "t1", content: [{ type: "text", text: "sunny" }] }] },
  ],
} as unknown as Params;

describe("sampling messages with tools", () => {
  it("offers the server's tools under provider-safe names, with the way back", () => {
    const offered = offeredTools(params)!;
    expect(Object.keys(offered.tools)).toEqual(["weather_get"]);
    expect(offered.serverName.get("weather_get")).toBe("weather.get");
    expect(offered.toolChoice).toBe("required");
    expect(offeredTools({ ...params, tools: [] } as Params)).toBeUndefined();
  });

  it("maps tool_use to the assistant's tool calls and tool_result to a tool message", () => {
    const messages = toModelMessages(params.messages, undefined, offeredTools(params));
    expect(messages).toEqual([
      { role: "user", content: [{ type: "text", text: "weather?" }] },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "t1", toolName: "weather_get", input: { city: "Rome" } }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "t1", toolName: "weather_get", output: { type: "text", value: "sunny" } }],
      },
    ]);
  });

  it("returns the model's calls as tool_use blocks under the server's names", () => {
    const result = samplingResult("m", "", "tool-calls", [{ id: "c1", name: "weather.get", input: { city: "Oslo" } }]);
    expect(result).toEqual({
      role: "assistant",
      model: "m",
      stopReason: "toolUse",
      content: [{ type: "tool_use", id: "c1", name: "weather.get", input: { city: "Oslo" } }],
    });
    expect(samplingResult("m", "hi", "stop", [])).toEqual({
      role: "assistant",
      model: "m",
      content: { type: "text", text: "hi" },
      stopReason: "endTurn",
    });
  });
});
