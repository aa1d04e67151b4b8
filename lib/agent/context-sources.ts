/**
 * The lethal-trifecta state of a conversation: which servers' content (tool results, attached
 * resources, prompts, MCP App context) the model's context holds. It is derived from the stored
 * conversation as a whole, not from the current turn: injected text read in one turn stays in the
 * context for every later turn, so the state survives new user messages and restarts, and ends only
 * when the messages holding that content are gone (an edit or retry drops them) (docs/tool-trust.md).
 */
import type { DynamicToolUIPart } from "ai";
import type { ChatMessage, ToolCallOutput, ToolMeta } from "../domain/chat-message";
import type { ContentSource } from "../trust/policy";

function toolSource(part: DynamicToolUIPart): ContentSource | undefined {
  // Only a returned result carries the server's text; a denied or interrupted call carries none.
  if (part.state !== "output-available") return undefined;
  const output = part.output as Partial<ToolCallOutput> | undefined;
  const meta = (part.toolMetadata ?? {}) as Partial<ToolMeta>;
  const serverId = output?.serverId ?? meta.serverId;
  const serverName = output?.serverName ?? meta.serverName;
  return serverId && serverName ? { serverId, serverName } : undefined;
}

function partSource(part: ChatMessage["parts"][number]): ContentSource | undefined {
  if (part.type === "dynamic-tool") return toolSource(part);
  if (part.type === "data-resource" || part.type === "data-prompt" || part.type === "data-appContext") {
    return { serverId: part.data.serverId, serverName: part.data.serverName };
  }
  return undefined;
}

/** Servers whose content the conversation's context holds (every message the model is given). */
export function contextSources(messages: readonly ChatMessage[]): ContentSource[] {
  const sources = new Map<string, ContentSource>();
  for (const message of messages) {
    for (const part of message.parts) {
      const source = partSource(part);
      if (source) sources.set(source.serverId, source);
    }
  }
  return [...sources.values()];
}
