/**
 * The user's MCP tools as AI SDK dynamic tools (docs/architecture.md#tools-the-model-sees). The set is computed on the server
 * from the user's workspace servers, never from the request. The model receives only the
 * engine's `forModel` JSON; the UI receives the full MCP content as the tool output.
 */
import { dynamicTool, jsonSchema, type JSONValue, type ToolSet } from "ai";
import type { McpPool, RegisteredTool, ServerDefinition, ToolCallOutcome } from "../mcp";
import type { ProgressData, ToolCallOutput, ToolMeta } from "../domain/chat-message";

/** What building the tool set needs. */
export interface McpToolsOptions {
  pool: Pick<McpPool, "callRegistered">;
  userId: string;
  servers: ServerDefinition[];
  registered: RegisteredTool[];
  /** Receives each progress notification of a running call (sent to the UI as a data part). */
  onProgress?: (data: ProgressData) => void;
}

/** The JSON the model sees for a tool output (also for outputs stored before a restart). */
export function modelJson(output: unknown): JSONValue {
  const forModel = (output as Partial<ToolCallOutput> | null)?.forModel;
  if (forModel && typeof forModel === "object") return forModel as unknown as JSONValue;
  return { error: "The tool result is not available." };
}

const toModelOutput = ({ output }: { output: unknown }) => ({ type: "json" as const, value: modelJson(output) });

/** MCP input schemas are JSON Schema objects; providers insist on `type: "object"` with `properties`. */
export function objectSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const base = schema && typeof schema === "object" ? schema : {};
  return { ...base, type: "object", properties: (base.properties as object | undefined) ?? {} };
}

/** The UI's view of one call outcome. */
export function toToolCallOutput(tool: RegisteredTool, outcome: ToolCallOutcome): ToolCallOutput {
  return {
    serverId: tool.serverId,
    serverName: tool.serverName,
    tool: tool.rawName,
    title: tool.title,
    forModel: outcome.forModel,
    content: outcome.content,
    isError: outcome.isError,
    durationMs: outcome.durationMs,
  };
}

/** Card labels kept on the tool part before the call runs (approval cards need them). */
export function toolMeta(tool: RegisteredTool): ToolMeta {
  const meta: ToolMeta = { serverId: tool.serverId, serverName: tool.serverName, tool: tool.rawName };
  if (tool.title) meta.title = tool.title;
  return meta;
}

/** Build the tool set; `execute` passes the request's abort signal so Stop cancels MCP calls. */
export function buildMcpTools(options: McpToolsOptions): ToolSet {
  const { pool, userId, servers, registered, onProgress } = options;
  const tools: ToolSet = {};
  for (const tool of registered) {
    tools[tool.name] = dynamicTool({
      description: tool.description ?? tool.title ?? `${tool.rawName} (${tool.serverName})`,
      inputSchema: jsonSchema(objectSchema(tool.inputSchema)),
      metadata: toolMeta(tool),
      execute: async (input, { toolCallId, abortSignal }) => {
        const args = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
        const outcome = await pool.callRegistered(userId, servers, tool.name, args, {
          signal: abortSignal,
          onProgress: (p) => onProgress?.({ toolCallId, progress: p.progress, total: p.total, message: p.message }),
        });
        return toToolCallOutput(tool, outcome);
      },
      toModelOutput,
    });
  }
  return tools;
}

/**
 * Stand-ins for tools named in stored history but no longer offered (server removed or down), so
 * converting history still gives the model only the reference JSON, never the UI content.
 */
export function historyTools(toolNames: Iterable<string>, current: ToolSet): ToolSet {
  const tools: ToolSet = {};
  for (const name of toolNames) {
    if (current[name]) continue;
    tools[name] = dynamicTool({ inputSchema: jsonSchema({ type: "object", properties: {} }), toModelOutput });
  }
  return tools;
}
