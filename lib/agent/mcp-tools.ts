/**
 * The user's MCP tools as AI SDK dynamic tools (docs/architecture.md#tools-the-model-sees). The set is computed on the server
 * from the user's workspace servers, never from the request. The model receives only the
 * engine's `forModel` JSON; the UI receives the full MCP content as the tool output.
 */
import { dynamicTool, jsonSchema, type JSONValue, type ToolSet } from "ai";
import type { McpPool, RegisteredTool, ServerDefinition, ToolCallOutcome } from "../mcp";
import { visibleToModel } from "../mcp/apps";
import type { Context } from "@opentelemetry/api";
import { redactJson, secretValuesOf } from "../redact";
import { tracedToolCall } from "../telemetry/mcp-call";
import { capText, sanitizeJson, wrapToolResult } from "../trust/untrusted-text";
import type { ProgressData, ToolCallOutput, ToolMeta } from "../domain/chat-message";
import { policyToolName } from "../trust/policy";

/** What building the tool set needs. */
export interface McpToolsOptions {
  pool: Pick<McpPool, "callRegistered">;
  userId: string;
  servers: ServerDefinition[];
  registered: RegisteredTool[];
  /** Receives each progress notification of a running call (sent to the UI as a data part). */
  onProgress?: (data: ProgressData) => void;
  /** Checked right before a call runs; a string refuses the call with that text (held tools). */
  beforeCall?: (tool: RegisteredTool) => Promise<string | null>;
  /** Told after a call returned content from a server (the turn's untrusted-content sources). */
  onResult?: (tool: RegisteredTool) => void;
  /** The trace context a call's span starts in (the model call that asked for it; docs/telemetry.md). */
  traceParent?: () => Context | undefined;
}

/**
 * The JSON the model sees for a tool output (also for outputs stored before a restart): the
 * engine's reference JSON, sanitised and labelled as data from the server as configured. Redacted
 * again here: outputs of host tools and outputs stored before the engine redacted them pass too.
 */
export function modelJson(output: unknown): JSONValue {
  const stored = output as Partial<ToolCallOutput> | null;
  const forModel = stored?.forModel;
  if (forModel && typeof forModel === "object") return wrapToolResult(stored.serverName ?? "unknown", redactJson(forModel)) as JSONValue;
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
    ...(tool.ui ? { appUri: tool.ui.resourceUri } : {}),
  };
}

/**
 * Card labels kept on the tool part before the call runs: the approval card needs the server's
 * configured name, the policy name for "Always allow", and the input schema for its form.
 */
export function toolMeta(tool: RegisteredTool): ToolMeta {
  const meta: ToolMeta = {
    serverId: tool.serverId,
    serverName: tool.serverName,
    tool: tool.rawName,
    policyTool: policyToolName(tool),
    inputSchema: JSON.stringify(sanitizeJson(objectSchema(tool.inputSchema))),
  };
  if (tool.title) meta.title = capText(tool.title, 200);
  // The server's own claims about the tool, shown as small badges on the card (claims, not facts).
  const a = tool.annotations;
  const hints = [
    a?.readOnlyHint === true && "read-only",
    a?.destructiveHint === true && "destructive",
    a?.idempotentHint === true && "idempotent",
    a?.openWorldHint === true && "open world",
  ].filter((h): h is string => typeof h === "string");
  if (hints.length) meta.hints = hints.join(",");
  return meta;
}

/** The description the model gets: the server's text without invisible characters, capped. */
export function modelDescription(tool: RegisteredTool): string {
  return capText(tool.description ?? tool.title ?? `${tool.rawName} (${tool.serverName})`);
}

function refusedOutput(tool: RegisteredTool, reason: string): ToolCallOutput {
  return toToolCallOutput(tool, {
    forModel: { error: reason },
    content: { content: [{ type: "text", text: reason }], isError: true },
    isError: true,
    durationMs: 0,
  });
}

// What a turn derives from a tool's server text (sanitised description, schema and card metadata),
// once per listing: the pool hands out the same tool object until the server lists again.
const derived = new WeakMap<RegisteredTool, { description: string; inputSchema: ReturnType<typeof jsonSchema>; meta: ToolMeta }>();

function derivedOf(tool: RegisteredTool) {
  let known = derived.get(tool);
  if (!known) {
    // Property descriptions in a schema are server text the model reads too.
    known = {
      description: modelDescription(tool),
      inputSchema: jsonSchema(sanitizeJson(objectSchema(tool.inputSchema))),
      meta: toolMeta(tool),
    };
    derived.set(tool, known);
  }
  return known;
}

/** Build the tool set; `execute` passes the request's abort signal so Stop cancels MCP calls. */
export function buildMcpTools(options: McpToolsOptions): ToolSet {
  const { pool, userId, servers, registered, onProgress, beforeCall, onResult, traceParent } = options;
  const tools: ToolSet = {};
  for (const tool of registered) {
    // A tool its MCP App declared for itself only is the app's to call, never the model's.
    if (!visibleToModel(tool)) continue;
    const { description, inputSchema, meta } = derivedOf(tool);
    tools[tool.name] = dynamicTool({
      description,
      inputSchema,
      metadata: meta,
      execute: async (input, { toolCallId, abortSignal }) => {
        const args = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
        const refusal = await beforeCall?.(tool);
        if (refusal) return refusedOutput(tool, refusal);
        const server = servers.find((s) => s.id === tool.serverId);
        const traced = { toolName: tool.rawName, transport: server?.config.url ? ("http" as const) : ("stdio" as const) };
        const outcome = await tracedToolCall(
          { ...traced, parent: traceParent?.(), arguments: args, secrets: () => (server ? secretValuesOf(server.config) : []) },
          () =>
            pool.callRegistered(userId, servers, tool.name, args, {
              signal: abortSignal,
              onProgress: (p) => onProgress?.({ toolCallId, progress: p.progress, total: p.total, message: p.message }),
            }),
        );
        onResult?.(tool);
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
