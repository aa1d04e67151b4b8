/** Context MCP Apps gave the model, per (chat, tool call), until the chat's next user message takes it. */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { appContexts } from "../schema";
import { gated, rows, stepTransaction, write } from "../transaction";
import { exec } from "../exec";

/** One app's context for the model. */
export interface AppContextRecord {
  chatId: string;
  toolCallId: string;
  serverId: string;
  serverName: string;
  text: string;
}

/** Store or replace the context of one app (each update replaces the previous one). */
export async function saveAppContext(db: Db, record: AppContextRecord): Promise<void> {
  return gated(db, async () => {
    const values = { ...record, updatedAt: new Date() };
    await exec(
      db
        .insert(appContexts)
        .values(values)
        .onConflictDoUpdate({ target: [appContexts.chatId, appContexts.toolCallId], set: values }),
    );
  });
}

/** Every pending context of a chat, removed in the same transaction (the next user message holds them). */
export async function takeAppContexts(db: Db, chatId: string): Promise<AppContextRecord[]> {
  return gated(db, async () => {
    return stepTransaction(db, function* (tx) {
      const taken = yield* rows(tx.select().from(appContexts).where(eq(appContexts.chatId, chatId)).orderBy(appContexts.updatedAt));
      yield* write(tx.delete(appContexts).where(eq(appContexts.chatId, chatId)));
      return taken.map(({ updatedAt: _updatedAt, ...rest }) => rest);
    });
  });
}
