/**
 * MCP App context in the conversation (docs/mcp-apps.md#model-context): what apps asked to tell the
 * model since the last message enters the next user message as visible parts, then the model reads
 * it as untrusted data from the app's server.
 */
import type { Db } from "../../db/client";
import { takeAppContexts } from "../../db/queries/app-contexts";
import type { AppContextData, ChatMessage } from "../domain/chat-message";
import { wrapUntrustedBlock } from "../trust/untrusted-text";

/** The pending app contexts of a chat as message parts (taken: each reaches the model once, then stays in history). */
export async function takeAppContextParts(db: Db, chatId: string): Promise<ChatMessage["parts"]> {
  return (await takeAppContexts(db, chatId)).map(({ serverId, serverName, toolCallId, text }) => ({
    type: "data-appContext" as const,
    data: { serverId, serverName, toolCallId, text },
  }));
}

/** The model's text for one app context: a delimited block of data from the app's server. */
export function appContextText(data: AppContextData): string {
  return wrapUntrustedBlock(data.serverName, "Context from the server's app shown in this chat:", data.text);
}
