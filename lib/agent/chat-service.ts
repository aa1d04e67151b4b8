/**
 * Chat list use cases behind /api/chats: create, list, open (with messages), rename, delete —
 * each scoped to the owner, so another user's chat is a 404.
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { createChat, deleteChat, getChatById, listChatsByOwner, renameChat, type ChatRecord } from "../../db/queries/chats";
import { listMessagesByChat } from "../../db/queries/messages";
import { AppError } from "../errors";

/** Body of `POST /api/chats` and `PATCH /api/chats/:id`. */
export const chatTitleSchema = z.object({ title: z.string().trim().min(1).max(200) });

/** The JSON shape of a chat in lists. */
export function chatView(chat: ChatRecord) {
  return { id: chat.id, title: chat.title, createdAt: chat.createdAt.toISOString(), updatedAt: chat.updatedAt.toISOString() };
}

/** The owner's chat (in `workspaceId` when given) or a 404. */
export async function requireOwnChat(db: Db, ownerId: string, id: string, workspaceId?: string): Promise<ChatRecord> {
  const chat = await getChatById(db, { id, ownerId });
  if (!chat || (workspaceId && chat.workspaceId !== workspaceId)) throw new AppError("chat.not_found", "No such chat.");
  return chat;
}

/** Chats of the user in their current workspace. */
export async function listChats(db: Db, user: { id: string; workspaceId: string }) {
  return (await listChatsByOwner(db, user.id)).filter((chat) => chat.workspaceId === user.workspaceId).map(chatView);
}

/** A new chat in the user's current workspace. */
export async function startChat(db: Db, user: { id: string; workspaceId: string }, title?: string) {
  return chatView(await createChat(db, { ownerId: user.id, workspaceId: user.workspaceId, title }));
}

/** One chat with its messages. */
export async function openChat(db: Db, user: { id: string; workspaceId: string }, id: string) {
  const chat = await requireOwnChat(db, user.id, id, user.workspaceId);
  return { chat: chatView(chat), messages: await listMessagesByChat(db, chat.id) };
}

/** Rename, or 404. */
export async function renameOwnChat(db: Db, user: { id: string; workspaceId: string }, id: string, title: string) {
  await requireOwnChat(db, user.id, id, user.workspaceId);
  if (!(await renameChat(db, { id, ownerId: user.id }, title))) throw new AppError("chat.not_found", "No such chat.");
  return chatView(await requireOwnChat(db, user.id, id, user.workspaceId));
}

/** Delete, or 404. */
export async function deleteOwnChat(db: Db, user: { id: string; workspaceId: string }, id: string): Promise<void> {
  await requireOwnChat(db, user.id, id, user.workspaceId);
  if (!(await deleteChat(db, { id, ownerId: user.id }))) throw new AppError("chat.not_found", "No such chat.");
}
