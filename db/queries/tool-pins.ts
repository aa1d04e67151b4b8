/** Pinned tool definitions per server (rug-pull protection), keyed by (server, raw tool name). */
import { and, eq } from "drizzle-orm";
import type { Db } from "../client";
import { bumpGeneration } from "../generation";
import { toolPins } from "../schema";
import { gated } from "../transaction";
import { all, exec, one } from "../exec";

/** `pinned`: the listing matches what a person approved; `new`/`changed`: held until reviewed. */
export type PinState = "pinned" | "new" | "changed";

/** One stored pin. Definitions are the JSON objects whose hashes are stored beside them. */
export interface ToolPinRecord {
  serverId: string;
  toolName: string;
  state: PinState;
  approvedHash: string | null;
  approvedDefinition: unknown;
  currentHash: string;
  currentDefinition: unknown;
  approvedBy: string | null;
  updatedAt: Date;
}

/** Every pin of one server. */
export async function listToolPinsByServer(db: Db, serverId: string): Promise<ToolPinRecord[]> {
  return gated(db, async () => {
    return (await all(db.select().from(toolPins).where(eq(toolPins.serverId, serverId)))) as ToolPinRecord[];
  });
}

/** One pin, or null. */
export async function getToolPin(db: Db, ref: { serverId: string; toolName: string }): Promise<ToolPinRecord | null> {
  return gated(db, async () => {
    const row = await one(
      db
        .select()
        .from(toolPins)
        .where(and(eq(toolPins.serverId, ref.serverId), eq(toolPins.toolName, ref.toolName))),
    );
    return (row as ToolPinRecord | undefined) ?? null;
  });
}

/** Insert or replace one pin. */
export async function saveToolPin(db: Db, pin: Omit<ToolPinRecord, "updatedAt">): Promise<void> {
  return gated(db, async () => {
    const values = { ...pin, updatedAt: new Date() };
    await exec(
      db
        .insert(toolPins)
        .values(values)
        .onConflictDoUpdate({ target: [toolPins.serverId, toolPins.toolName], set: values }),
    );
    bumpGeneration();
  });
}
