/**
 * The lethal-trifecta state of a turn: which servers' content (tool results, attached resources,
 * prompts) has entered the context since the user's latest message. Computed from the stored
 * conversation, so answering an approval later sees the same state as the run that asked.
 */
import type { DynamicToolUIPart } from "ai";
import type { ChatMessage, ToolCallOutput, ToolMeta } from "../domain/chat-message";
import type { ContentSource } from "./policy";

function toolSource(part: DynamicToolUIPart): ContentSource | undefined {
  if (part.state !== "output-available") return undefined;
  const output = part.output as Partial<ToolCallOutput> | undefined;
  const meta = (part.toolMetadata ?? {}) as Partial<ToolMeta>;
  const serverId = output?.serverId ?? meta.serverId;
  const serverName = output?.serverName ?? meta.serverName;
  return serverId && serverName ? { serverId, serverName } : undefined;
}

/** Servers whose content entered the context in the current turn (from the latest user message on). */
export function turnSources(messages: ChatMessage[]): ContentSource[] {
  let start = -1;
  messages.forEach((m, i) => {
    if (m.role === "user") start = i;
  });
  const sources = new Map<string, ContentSource>();
  for (const message of messages.slice(Math.max(start, 0))) {
    for (const part of message.parts) {
      const source =
        part.type === "dynamic-tool"
          ? toolSource(part)
          : part.type === "data-resource" || part.type === "data-prompt"
            ? { serverId: part.data.serverId, serverName: part.data.serverName }
            : undefined;
      if (source) sources.set(source.serverId, source);
    }
  }
  return [...sources.values()];
}
