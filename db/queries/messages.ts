/**
 * Chat messages with all their parts as UI-message JSON. Callers check chat ownership first
 * (db/queries/chats.ts); writes are additionally bound to the chat so a message id from another
 * chat can never be overwritten.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client";
import { messages } from "../schema";
import type { ChatMessage } from "../../lib/domain/chat-message";
import { gated, rows, stepTransaction, write } from "../transaction";
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
 */
export async function saveMessage(db: Db, chatId: string, message: ChatMessage): Promise<boolean> {
  return gated(db, async () => {
    return stepTransaction(db, function* (tx) {
      const [existing] = yield* rows(tx.select({ chatId: messages.chatId }).from(messages).where(eq(messages.id, message.id)).limit(1));
      if (existing && existing.chatId !== chatId) return false;
      if (existing) {
        yield* write(
          tx
            .update(messages)
            .set({ parts: message.parts, metadata: message.metadata ?? null })
            .where(and(eq(messages.id, message.id), eq(messages.chatId, chatId))),
        );
      } else {
        // After every message of the chat: `seq` orders what one millisecond saved (SQLite's rowid did).
        const seq = sql`(select coalesce(max(${messages.seq}), 0) + 1 from ${messages} where ${messages.chatId} = ${chatId})`;
        yield* write(
          tx
            .insert(messages)
            .values({ id: message.id, chatId, role: message.role, parts: message.parts, metadata: message.metadata ?? null, seq }),
        );
      }
      return true;
    });
  });
}

/** Delete the given messages of one chat (retry and edit-and-resend drop the answer they replace). */
export async function deleteMessagesOfChat(db: Db, chatId: string, ids: string[]): Promise<void> {
  return gated(db, async () => {
    if (ids.length === 0) return;
    await exec(db.delete(messages).where(and(eq(messages.chatId, chatId), inArray(messages.id, ids))));
  });
}
