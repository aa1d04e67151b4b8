/**
 * What a server registers: its filtered tools with the listed fields (optional ones absent when the
 * server sent none), then the resource and prompt wrappers.
 */
import type { Tool } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { parseServerConfig } from "@/lib/mcp/config";
import type { Discovered } from "@/lib/mcp/discovery";
import { registrationsOf } from "@/lib/mcp/registry";

const full: Tool = {
  name: "render",
  description: "Render a chart",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  outputSchema: { type: "object", properties: { url: { type: "string" } } },
  annotations: { title: "Render", readOnlyHint: true },
  icons: [{ src: "https://example.com/chart.svg" }],
  _meta: { ui: { resourceUri: "ui://charts/view", visibility: ["app", "other"] } },
};
const bare: Tool = { name: "echo", inputSchema: { type: "object" } };
const hidden: Tool = { name: "secret", inputSchema: { type: "object" } };

function discovered(tools: Tool[], capabilities: Discovered["capabilities"] = {}): Discovered {
  return { tools, resources: [], resourceTemplates: [], prompts: [], capabilities };
}

describe("registrationsOf", () => {
  it("keeps every listed field of a tool, and no key for what the server did not send", () => {
    const server = { id: "id1", name: "charts", config: parseServerConfig({ url: "https://a.example/mcp", tools: { exclude: "secret" } }) };
    const [render, echo, ...rest] = registrationsOf(server, discovered([full, bare, hidden]));
    expect(rest).toEqual([]);
    expect(render).toStrictEqual({
      serverId: "id1",
      serverName: "charts",
      rawName: "render",
      kind: "tool",
      title: "Render",
      description: "Render a chart",
      inputSchema: full.inputSchema,
      outputSchema: full.outputSchema,
      annotations: full.annotations,
      icons: full.icons,
      ui: { resourceUri: "ui://charts/view", visibility: ["app"] },
    });
    expect(Object.keys(echo).sort()).toEqual([
      "annotations",
      "description",
      "inputSchema",
      "kind",
      "rawName",
      "serverId",
      "serverName",
      "title",
    ]);
    expect(echo).toMatchObject({ rawName: "echo", kind: "tool", title: undefined, description: undefined, annotations: undefined });
  });

  it("adds the wrappers the server's capabilities and the config allow, after its tools", () => {
    const config = parseServerConfig({ url: "https://a.example/mcp", tools: { prompts: false } });
    const registered = registrationsOf({ id: "id1", name: "docs", config }, discovered([bare], { resources: {}, prompts: {} }));
    expect(registered.map((t) => t.kind)).toEqual(["tool", "list_resources", "read_resource"]);
    expect(registered[1]).toMatchObject({ serverId: "id1", serverName: "docs", rawName: "list_resources" });
  });
});
