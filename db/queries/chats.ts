/**
 * Chats, always scoped by owner: another user's chat id is simply not found (404 by URL and API).
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { newId } from "../ids";
import { chats } from "../schema";
import { gated } from "../transaction";
import { all, exec, one } from "../exec";

/** A chat as listed and opened. */
export type ChatRecord = typeof chats.$inferSelect;

/** Title of a chat before its first message names it. */
export const UNTITLED_CHAT = "New chat";

/** Create an empty chat for its owner. */
export async function createChat(db: Db, input: { ownerId: string; workspaceId: string; title?: string }): Promise<ChatRecord> {
  return gated(db, async () => {
    const row = { id: newId(), ownerId: input.ownerId, workspaceId: input.workspaceId, title: input.title?.trim() || UNTITLED_CHAT };
    return (await one(db.insert(chats).values(row).returning()))!;
  });
}

/** The owner's chats, most recently active first. */
export async function listChatsByOwner(db: Db, ownerId: string): Promise<ChatRecord[]> {
  return gated(db, async () => {
    return await all(db.select().from(chats).where(eq(chats.ownerId, ownerId)).orderBy(desc(chats.updatedAt)));
  });
}

/** One chat of its owner, or null (also when it belongs to someone else). */
export async function getChatById(db: Db, ref: { id: string; ownerId: string }): Promise<ChatRecord | null> {
  return gated(db, async () => {
    return (
      (await one(
        db
          .select()
          .from(chats)
          .where(and(eq(chats.id, ref.id), eq(chats.ownerId, ref.ownerId))),
      )) ?? null
    );
  });
}

/** Rename a chat of its owner; false when not found. */
export async function renameChat(db: Db, ref: { id: string; ownerId: string }, title: string): Promise<boolean> {
  return gated(db, async () => {
    const changed = await exec(
      db
        .update(chats)
        .set({ title: title.trim(), updatedAt: new Date() })
        .where(and(eq(chats.id, ref.id), eq(chats.ownerId, ref.ownerId))),
    );
    return changed > 0;
  });
}

/** Delete a chat (its messages cascade); false when not found. */
export async function deleteChat(db: Db, ref: { id: string; ownerId: string }): Promise<boolean> {
  return gated(db, async () => {
    return (await exec(db.delete(chats).where(and(eq(chats.id, ref.id), eq(chats.ownerId, ref.ownerId))))) > 0;
  });
}

/** Mark activity; names an untitled chat after its first message. */
export async function touchChat(db: Db, ref: { id: string; ownerId: string }, titleIfUntitled?: string): Promise<void> {
  return gated(db, async () => {
    const title = titleIfUntitled?.trim();
    await exec(
      db
        .update(chats)
        .set({
          updatedAt: new Date(),
          ...(title ? { title: sql`case when ${chats.title} = ${UNTITLED_CHAT} then ${title} else ${chats.title} end` } : {}),
        })
        .where(and(eq(chats.id, ref.id), eq(chats.ownerId, ref.ownerId))),
    );
  });
}
