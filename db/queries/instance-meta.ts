/** Instance-wide settings kept in `instance_meta` (key → text value), such as the second-factor policies. */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { instanceMeta } from "../schema";
import { gated } from "../transaction";
import { exec, one } from "../exec";

/** The value stored under `key`, or null. */
export async function getInstanceMeta(db: Db, key: string): Promise<string | null> {
  return gated(db, async () => {
    return (await one(db.select({ value: instanceMeta.value }).from(instanceMeta).where(eq(instanceMeta.key, key))))?.value ?? null;
  });
}

/** Store `value` under `key` (replacing it). */
export async function setInstanceMeta(db: Db, key: string, value: string): Promise<void> {
  return gated(db, async () => {
    await exec(db.insert(instanceMeta).values({ key, value }).onConflictDoUpdate({ target: instanceMeta.key, set: { value } }));
  });
}
