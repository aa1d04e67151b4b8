/**
 * The caller's chats in a workspace: list, start, open, rename, delete, and what the chat pages
 * show. Each binds the database handle for lib/agent/chat-service.ts and lib/models.
 */
import "server-only";
import { getDb } from "../../db/client";
import { getChatById } from "../../db/queries/chats";
import { listServersByWorkspace } from "../../db/queries/servers";
import { listMessagesByChat } from "../../db/queries/messages";
import { deleteOwnChat, listChats, openChat, renameOwnChat, startChat } from "../agent/chat-service";
import { userModelResolution } from "../models/user-model";
import { workspaceModelChoice } from "../models/workspace-default";
import { settleChatTurn } from "../runtime/shared-turns";

export { chatTitleSchema } from "../agent/chat-service";

/** Who owns the chats: a user inside one workspace. */
type ChatCaller = { id: string; workspaceId: string };

/** The caller's chats in the workspace, most recent first. */
export async function chats(caller: ChatCaller) {
  return await listChats(getDb(), caller);
}

/** Start a new chat in the workspace. */
export async function newChat(caller: ChatCaller, title?: string) {
  return await startChat(getDb(), caller, title);
}

/** One of the caller's chats with its messages (404 for anyone else's). */
export async function chatWithMessages(caller: ChatCaller, id: string) {
  return await openChat(getDb(), caller, id);
}

/** Rename one of the caller's chats. */
export async function renameChat(caller: ChatCaller, id: string, title: string) {
  return await renameOwnChat(getDb(), caller, id, title);
}

/** Delete one of the caller's chats with its messages. */
export async function deleteChat(caller: ChatCaller, id: string): Promise<void> {
  await deleteOwnChat(getDb(), caller, id);
}

// The model the caller would chat with here: their own choice, else the workspace default, else the instance's.
async function modelFor(caller: ChatCaller) {
  const db = getDb();
  return await userModelResolution(db, caller.id, workspaceModelChoice(db, caller.workspaceId));
}

/** The chat index page: the caller's chats, their model (or why there is none) and how many servers the workspace has. */
export async function chatIndexPage(caller: ChatCaller) {
  return {
    chats: await chats(caller),
    model: await modelFor(caller),
    servers: (await listServersByWorkspace(getDb(), caller.workspaceId)).length,
  };
}

/** One conversation's page, or null when it is not the caller's chat in this workspace. */
export async function chatPage(caller: ChatCaller, id: string) {
  const db = getDb();
  const chat = await getChatById(db, { id, ownerId: caller.id });
  if (!chat || chat.workspaceId !== caller.workspaceId) return null;
  // In cluster mode, an answer whose replica died is kept (marked interrupted) before the transcript is read.
  await settleChatTurn(chat.id);
  return { chat, chats: await chats(caller), messages: await listMessagesByChat(db, chat.id), model: await modelFor(caller) };
}
