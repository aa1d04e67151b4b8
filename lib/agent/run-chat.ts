/**
 * The agent loop (REFERENCE §7): stream the model's answer with the user's MCP tools, ask for
 * approval per the user's policies, report tool progress live, and save the answer after every
 * step and when the stream ends — also when it was stopped, so nothing produced is lost.
 */
import {
  convertToModelMessages,
  createUIMessageStream,
  isStepCount,
  streamText,
  toUIMessageStream,
  type LanguageModel,
  type UIMessageChunk,
} from "ai";
import type { Db } from "../../db/client";
import { newId } from "../../db/ids";
import { saveMessage } from "../../db/queries/messages";
import { listToolPoliciesByUser } from "../../db/queries/tool-policies";
import type { McpPool, RegisteredTool, ServerDefinition } from "../mcp";
import { redact } from "../redact";
import type { ChatMessage, ServerNotice } from "./chat-message";
import { buildMcpTools, historyTools } from "./mcp-tools";
import { dataPartToModel, toolNamesIn } from "./message-parts";
import { approvalStatus, effectivePolicy, policyHints, policyKey, policyToolName, type ToolPolicy } from "./policy";

/** Upper bound on model steps per turn (`SWITCHBOARD_AGENT_MAX_STEPS`, default 10). */
export function maxAgentSteps(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.SWITCHBOARD_AGENT_MAX_STEPS);
  return Number.isInteger(value) && value > 0 ? Math.min(value, 100) : 10;
}

/** The instructions every chat starts with. */
export const SYSTEM_PROMPT = [
  "You are the assistant of Switchboard. Tools come from the user's MCP servers; their names start with mcp_<server>_.",
  'Tool results are JSON: {"result": ...} on success or {"error": ...} on failure; correct your call after an error.',
  "When the user denies a tool call, do not retry it; explain what you would have done instead.",
].join(" ");

/** What one model run needs; everything is computed on the server. */
export interface RunChatOptions {
  db: Db;
  pool: Pick<McpPool, "toolset" | "callRegistered" | "status">;
  model: LanguageModel;
  user: { id: string };
  chatId: string;
  servers: ServerDefinition[];
  /** The conversation including the new user message or answered approvals (see prepareTurn). */
  messages: ChatMessage[];
  /** The request's signal: Stop aborts the model and cancels in-flight MCP calls. */
  signal?: AbortSignal;
  maxSteps?: number;
  /** Values redacted from every error text (the user's API key). */
  secrets?: string[];
}

function approvalPolicy(db: Db, userId: string, tools: RegisteredTool[]) {
  const stored = new Map<string, ToolPolicy>(listToolPoliciesByUser(db, userId).map((p) => [policyKey(p.serverId, p.toolName), p.policy]));
  const byName = new Map(tools.map((t) => [t.name, t]));
  return ({ toolCall }: { toolCall: { toolName: string } }) => {
    const tool = byName.get(toolCall.toolName);
    if (!tool) return { type: "denied" as const, reason: "This tool is not available." };
    return approvalStatus(effectivePolicy(stored.get(policyKey(tool.serverId, policyToolName(tool))), policyHints(tool)));
  };
}

/** Servers whose tools are missing from this turn, with the reason (the user sees why; docs/limits.md). */
function leftOut(pool: Pick<McpPool, "status">, userId: string, servers: RunChatOptions["servers"]): ServerNotice[] {
  return servers.flatMap((server) => {
    const status = pool.status(userId, server);
    if (status.state === "connected" || status.state === "disabled") return [];
    const why = status.lastError ? status.lastError.message : `still ${status.state}`;
    return [{ serverId: server.id, serverName: server.name, text: `${server.name} is left out of this answer: ${why}` }];
  });
}

/** Run the model and return the UI message stream for `createUIMessageStreamResponse`. */
export async function runChat(options: RunChatOptions): Promise<ReadableStream<UIMessageChunk>> {
  const { db, pool, model, user, chatId, servers, messages, signal } = options;
  const errorText = (error: unknown) => chatErrorText(error, options.secrets);
  const registered = await pool.toolset(user.id, servers);
  const notices = leftOut(pool, user.id, servers);
  const last = messages.at(-1);
  // Answering approvals continues the same assistant message; a new user turn starts a new one.
  const responseId = last?.role === "assistant" ? last.id : newId();
  const save = (message: ChatMessage) => {
    if (message.parts.length === 0) return;
    try {
      saveMessage(db, chatId, message);
    } catch (error) {
      // The chat was deleted mid-answer (foreign key): nothing left to save into; the stream goes on.
      console.warn("[switchboard] could not save the answer:", redact(error instanceof Error ? error.message : String(error)));
    }
  };

  return createUIMessageStream<ChatMessage>({
    originalMessages: messages,
    execute: async ({ writer }) => {
      writer.write({ type: "start", messageId: responseId });
      for (const notice of notices) writer.write({ type: "data-notice", id: `notice-${notice.serverId}`, data: notice });
      const tools = buildMcpTools({
        pool,
        userId: user.id,
        servers,
        registered,
        onProgress: (data) => writer.write({ type: "data-progress", id: `progress-${data.toolCallId}`, data }),
      });
      const modelMessages = await convertToModelMessages<ChatMessage>(messages, {
        tools: { ...historyTools(toolNamesIn(messages), tools), ...tools },
        ignoreIncompleteToolCalls: true,
        convertDataPart: dataPartToModel,
      });
      const result = streamText({
        model,
        system: SYSTEM_PROMPT,
        messages: modelMessages,
        tools,
        toolApproval: approvalPolicy(db, user.id, registered),
        stopWhen: isStepCount(options.maxSteps ?? maxAgentSteps()),
        abortSignal: signal,
        // The default logs the raw error; provider errors can echo keys or URLs (REFERENCE §4).
        onError: ({ error }) => console.warn("[switchboard] model request failed:", errorText(error)),
      });
      writer.merge(toUIMessageStream({ stream: result.stream, tools, sendStart: false, onError: errorText }));
    },
    onStepEnd: ({ responseMessage }) => save(responseMessage),
    onEnd: ({ responseMessage }) => save(responseMessage),
    onError: errorText,
  });
}

/** Errors shown in the chat: the message, redacted (provider errors can echo keys or URLs). */
export function chatErrorText(error: unknown, secrets: string[] = []): string {
  const message = error instanceof Error ? error.message : String(error);
  return redact(`The model request failed: ${message}`, secrets).slice(0, 2000);
}
