/**
 * The chat's UI message type: AI SDK UI messages plus Switchboard's data parts. Shared by the
 * agent loop, persistence and the chat UI (types only, safe for client bundles).
 */
import type { UIMessage } from "ai";
import type { CallToolResult } from "@modelcontextprotocol/client";

/** Live progress of one tool call, from the engine's `notifications/progress` (docs/architecture.md#transports). */
export interface ProgressData {
  toolCallId: string;
  progress: number;
  total?: number;
  message?: string;
}

/** A resource attached to a user message; `text` is what the model reads (docs/architecture.md#the-agent). */
export interface ResourceData {
  serverId: string;
  serverName: string;
  uri: string;
  name?: string;
  mimeType?: string;
  text: string;
}

/** A prompt run as a slash command: its messages go into the conversation as user context. */
export interface PromptData {
  serverId: string;
  serverName: string;
  name: string;
  arguments: Record<string, string>;
  messages: { role: string; text: string }[];
  /** The user changed the rendered messages before sending; `messages` is what was sent. */
  edited?: boolean;
}

/** One exchange a server had with the user during a turn (an elicitation or a sampling request); secrets masked. */
export interface InteractionData {
  kind: "elicitation" | "sampling";
  serverId: string;
  serverName: string;
  /** What the server asked (the elicitation message, the sampling request's last message). */
  asked: string;
  /** accept / decline / cancel. */
  outcome: string;
  /** What went back, as `field: value` lines (secret-looking fields masked) or the sampled text. */
  answer: string;
}

/** Data parts of a chat message, keyed by the name after `data-`. */
export type ChatDataParts = {
  progress: ProgressData;
  resource: ResourceData;
  prompt: PromptData;
  notice: ServerNotice;
  toolset: ToolsetData;
  appContext: AppContextData;
  interaction: InteractionData;
};

/** Context an MCP App gave the model, carried by the next user message (docs/mcp-apps.md). */
export interface AppContextData {
  serverId: string;
  serverName: string;
  toolCallId: string;
  /** Redacted; what the model reads, as data from the server. */
  text: string;
}

/** The tools a turn with tool search gave the model, and why each (docs/tool-search.md). */
export interface ToolsetData {
  /** Tools the workspace offers this turn. */
  total: number;
  loaded: { name: string; serverName: string; tool: string; reason: "always" | "recent" | "search"; query?: string }[];
}

/** A server left out of one answer (failed, timed out, still connecting), shown above the answer. */
export interface ServerNotice {
  serverId: string;
  serverName: string;
  text: string;
}

/** What a tool card shows for one finished call: the full MCP content and call facts. */
export interface ToolCallOutput {
  serverId: string;
  serverName: string;
  tool: string;
  title?: string;
  /** The JSON the model received ({"result":...} or {"error":...}). */
  forModel: { result: unknown } | { error: string };
  content: CallToolResult;
  isError: boolean;
  durationMs: number;
  /** The tool's MCP App (`ui://…` resource of the same server), rendered beside the result (docs/mcp-apps.md). */
  appUri?: string;
}

/** Metadata kept on the tool part (AI SDK `toolMetadata`) so a card can label a call before it runs. */
export interface ToolMeta {
  serverId: string;
  serverName: string;
  tool: string;
  title?: string;
  [key: string]: string | undefined;
}

/** A chat message as stored and rendered. */
export type ChatMessage = UIMessage<unknown, ChatDataParts>;

/** What an assistant message carries besides its parts: the model that wrote it, whether it was stopped or interrupted. */
export interface ChatMetadata {
  model?: string;
  stopped?: boolean;
  /** The replica running the answer died mid-answer: what it had produced was kept (docs/chat.md#runs-that-survive-navigation). */
  interrupted?: boolean;
}

/** The metadata of a message (stored messages from before it existed have none). */
export function metadataOf(message: Pick<ChatMessage, "metadata">): ChatMetadata {
  const meta = message.metadata;
  return meta && typeof meta === "object" ? (meta as ChatMetadata) : {};
}
