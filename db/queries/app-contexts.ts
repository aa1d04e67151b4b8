/** Context MCP Apps gave the model, per (chat, tool call), until the chat's next user message takes it. */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { appContexts } from "../schema";
import { gated } from "../transaction";
import { all, exec } from "../exec";

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

/**
 * Every pending context of a chat, removed by the same statement (the next user message holds
 * them): one `DELETE … RETURNING`, so a context saved meanwhile is either taken or kept, never
 * lost, without a transaction's four round trips on Postgres before the turn's first token.
 */
export async function takeAppContexts(db: Db, chatId: string): Promise<AppContextRecord[]> {
  return gated(db, async () => {
    const taken = await all(db.delete(appContexts).where(eq(appContexts.chatId, chatId)).returning());
    return taken.sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime()).map(({ updatedAt: _updatedAt, ...rest }) => rest);
  });
}
