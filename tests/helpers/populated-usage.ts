/**
 * The usage tables' part of the populated instance (tests/helpers/populated-instance.ts): a model
 * request and an MCP request (which fill the daily sums and latency buckets as they are written),
 * a workspace price and a budget, through the app's own recording and query functions.
 */
import type { Db } from "@/db/client";
import { flushUsage } from "@/db/queries/usage-rows";
import { upsertBudget, upsertPrice } from "@/db/queries/usage-settings";
import { recordMcpRequest, recordModelUsage } from "@/lib/usage/record";

/** Record one of each usage row for `userId` in `workspaceId` and write them now. */
export async function populateUsage(
  db: Db,
  ids: { userId: string; workspaceId: string; serverId: string; chatId: string },
  now: Date,
): Promise<void> {
  await upsertPrice(db, {
    scope: ids.workspaceId,
    provider: "openai",
    model: "gpt-4o-mini",
    inputMicrosPerM: 150_000,
    outputMicrosPerM: 600_000,
    cachedMicrosPerM: 75_000,
    updatedBy: ids.userId,
  });
  await upsertBudget(db, { scope: "workspace", targetId: ids.workspaceId, unit: "cents", monthlyLimit: 5_000, updatedBy: ids.userId });
  await recordModelUsage(
    db,
    {
      userId: ids.userId,
      workspaceId: ids.workspaceId,
      chatId: ids.chatId,
      source: "chat",
      provider: "openai.chat",
      model: "gpt-4o-mini",
      usage: {
        inputTokens: 1200,
        outputTokens: 300,
        inputTokenDetails: { cacheReadTokens: 200 },
        outputTokenDetails: { reasoningTokens: 0 },
      },
      latencyMs: 850,
      outcome: "ok",
    },
    now,
  );
  await recordMcpRequest(
    db,
    {
      userId: ids.userId,
      workspaceId: ids.workspaceId,
      serverId: ids.serverId,
      serverName: "notes",
      kind: "tool",
      name: "search",
      durationMs: 42,
      outcome: "ok",
      bytesIn: 20,
      bytesOut: 512,
    },
    now,
  );
  await flushUsage(db);
}
