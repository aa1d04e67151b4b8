/** Instance-wide settings kept in `instance_meta` (key → text value), such as the second-factor policies. */
import { and, eq } from "drizzle-orm";
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

/** Store `value` under `key` unless a value is there already; answers the value stored afterwards. */
export async function setInstanceMetaOnce(db: Db, key: string, value: string): Promise<string> {
  return gated(db, async () => {
    await exec(db.insert(instanceMeta).values({ key, value }).onConflictDoNothing({ target: instanceMeta.key }));
    return (await one(db.select({ value: instanceMeta.value }).from(instanceMeta).where(eq(instanceMeta.key, key))))?.value ?? value;
  });
}

/** Remove `key` if it holds `value`; true for the one caller that removed it. */
export async function takeInstanceMeta(db: Db, key: string, value: string): Promise<boolean> {
  return gated(
    db,
    async () => (await exec(db.delete(instanceMeta).where(and(eq(instanceMeta.key, key), eq(instanceMeta.value, value))))) === 1,
  );
}
