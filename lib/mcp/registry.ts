/**
 * What a server registers for the model (docs/architecture.md#tools-the-model-sees): its filtered tools plus the resource and
 * prompt wrappers when enabled and declared; a server left with no tools registers nothing.
 */
import { toolUiOf } from "./apps";
import { effectiveSettings, type ServerDefinition } from "./config";
import type { Discovered } from "./discovery";
import { filterTools } from "./filter";
import { assignNames, type NameRequest } from "./naming";
import type { RegisteredKind, RegisteredTool } from "./types";

/** A tool before naming. */
export type UnnamedTool = Omit<RegisteredTool, "name">;

const EMPTY_OBJECT_SCHEMA = { type: "object", properties: {} };

const WRAPPERS: Record<
  Exclude<RegisteredKind, "tool">,
  { description: (server: string) => string; inputSchema: Record<string, unknown> }
> = {
  list_resources: {
    description: (s) => `List the resources and resource templates the "${s}" MCP server offers.`,
    inputSchema: EMPTY_OBJECT_SCHEMA,
  },
  read_resource: {
    description: (s) => `Read one resource of the "${s}" MCP server by URI.`,
    inputSchema: { type: "object", properties: { uri: { type: "string", description: "Resource URI" } }, required: ["uri"] },
  },
  list_prompts: {
    description: (s) => `List the prompts the "${s}" MCP server offers.`,
    inputSchema: EMPTY_OBJECT_SCHEMA,
  },
  get_prompt: {
    description: (s) => `Get one prompt of the "${s}" MCP server, filled with arguments.`,
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", description: "Prompt name" },
        arguments: { type: "object", additionalProperties: { type: "string" }, description: "Prompt arguments" },
      },
      required: ["name"],
    },
  },
};

// Built field by field, not with spreads of optional parts: every connect and relist registers each
// tool, and the spreads cost several times the object itself (a generic copy per spread).
function registeredTool(server: ServerDefinition, tool: Discovered["tools"][number]): UnnamedTool {
  const registered: UnnamedTool = {
    serverId: server.id,
    serverName: server.name,
    rawName: tool.name,
    kind: "tool",
    title: tool.title ?? tool.annotations?.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Record<string, unknown>,
  };
  // Optional fields are absent, not undefined, when the tool has none (the same keys as listed).
  if (tool.outputSchema) registered.outputSchema = tool.outputSchema as Record<string, unknown>;
  registered.annotations = tool.annotations;
  if (tool.icons?.length) registered.icons = tool.icons;
  const ui = toolUiOf(tool);
  if (ui) registered.ui = ui;
  return registered;
}

/** The unnamed tools a server registers, in a stable order. */
export function registrationsOf(server: ServerDefinition, discovered: Discovered): UnnamedTool[] {
  const settings = effectiveSettings(server.config);
  const base = { serverId: server.id, serverName: server.name };
  const tools = filterTools(discovered.tools, server.config.tools).map((tool) => registeredTool(server, tool));
  const wrappers: Exclude<RegisteredKind, "tool">[] = [];
  if (settings.resources && discovered.capabilities.resources) wrappers.push("list_resources", "read_resource");
  if (settings.prompts && discovered.capabilities.prompts) wrappers.push("list_prompts", "get_prompt");
  // Nothing left (no tools, no wrappers) means no toolset at all: the empty list.
  return [
    ...tools,
    ...wrappers.map((kind) => ({
      ...base,
      rawName: kind,
      kind,
      description: WRAPPERS[kind].description(server.name),
      inputSchema: WRAPPERS[kind].inputSchema,
    })),
  ];
}

/** Name all tools together (collisions across servers get suffixes too) and keep the reverse map. */
export function nameTools(tools: UnnamedTool[]): { tools: RegisteredTool[]; byName: Map<string, RegisteredTool> } {
  const requests: NameRequest[] = tools.map(({ serverId, serverName, rawName, kind }) => ({ serverId, serverName, rawName, kind }));
  const names = assignNames(requests);
  const byRequest = new Map<NameRequest, string>();
  for (const [name, request] of names) byRequest.set(request, name);
  const named = tools.map((tool, index) => ({ name: byRequest.get(requests[index])!, ...tool }));
  return { tools: named, byName: new Map(named.map((tool) => [tool.name, tool])) };
}
