/**
 * Chat messages with all their parts as UI-message JSON. Callers check chat ownership first
 * (db/queries/chats.ts); writes are additionally bound to the chat so a message id from another
 * chat can never be overwritten.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client";
import { messages } from "../schema";
import type { ChatMessage } from "../../lib/domain/chat-message";
import { gated } from "../transaction";
import { all, exec } from "../exec";

/** The messages of a chat in order, as the UI and the agent use them. */
export async function listMessagesByChat(db: Db, chatId: string): Promise<ChatMessage[]> {
  return gated(db, async () => {
    return (
      await all(db.select().from(messages).where(eq(messages.chatId, chatId)).orderBy(asc(messages.createdAt), asc(messages.seq)))
    ).map((row) => ({
      id: row.id,
      role: row.role,
      parts: row.parts as ChatMessage["parts"],
      ...(row.metadata ? { metadata: row.metadata } : {}),
    }));
  });
}

/**
 * Insert a message, or replace the parts of the same message in the same chat (a streamed answer
 * is saved after each step and again at the end). Returns false when the id belongs to another chat.
 *
 * One statement (an upsert whose update applies only within `chatId`), not a read then a write in a
 * transaction: on Postgres that was four round trips before a turn's first token. A message is
 * written by the one turn of its chat, so nothing races the read of `seq` but another message of
 * the same chat saved in the same instant, whose order `created_at` still gives.
 */
export async function saveMessage(db: Db, chatId: string, message: ChatMessage): Promise<boolean> {
  return gated(db, async () => {
    const metadata = message.metadata ?? null;
    // After every message of the chat: `seq` orders what one millisecond saved (SQLite's rowid did).
    const seq = sql`(select coalesce(max(${messages.seq}), 0) + 1 from ${messages} where ${messages.chatId} = ${chatId})`;
    const saved = await all(
      db
        .insert(messages)
        .values({ id: message.id, chatId, role: message.role, parts: message.parts, metadata, seq })
        .onConflictDoUpdate({ target: messages.id, set: { parts: message.parts, metadata }, setWhere: eq(messages.chatId, chatId) })
        .returning({ id: messages.id }),
    );
    return saved.length === 1;
  });
}

/** Delete the given messages of one chat (retry and edit-and-resend drop the answer they replace). */
export async function deleteMessagesOfChat(db: Db, chatId: string, ids: string[]): Promise<void> {
  return gated(db, async () => {
    if (ids.length === 0) return;
    await exec(db.delete(messages).where(and(eq(messages.chatId, chatId), inArray(messages.id, ids))));
  });
}
