/**
 * Retention of the usage rows (docs/usage.md#retention): rows older than the retention are deleted;
 * the daily sums and latency buckets, added to when each row was written, stay.
 */
import { lt } from "drizzle-orm";
import type { Db } from "../client";
import { usageMcpRequests, usageModelRequests } from "../schema";
import { afterUsageFlush } from "./usage-rows";
import { exec } from "../exec";

/** Delete the model and MCP rows recorded before `before`; returns how many of each went. */
export async function pruneUsageRows(db: Db, before: Date): Promise<{ model: number; mcp: number }> {
  return afterUsageFlush(db, async () => {
    const model = await exec(db.delete(usageModelRequests).where(lt(usageModelRequests.at, before)));
    const mcp = await exec(db.delete(usageMcpRequests).where(lt(usageMcpRequests.at, before)));
    return { model, mcp };
  });
}
