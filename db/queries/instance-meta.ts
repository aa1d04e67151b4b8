/** Instance-wide settings kept in `instance_meta` (key → text value), such as the second-factor policies. */
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { instanceMeta } from "../schema";

/** The value stored under `key`, or null. */
export function getInstanceMeta(db: Db, key: string): string | null {
  return db.select({ value: instanceMeta.value }).from(instanceMeta).where(eq(instanceMeta.key, key)).get()?.value ?? null;
}

/** Store `value` under `key` (replacing it). */
export function setInstanceMeta(db: Db, key: string, value: string): void {
  db.insert(instanceMeta).values({ key, value }).onConflictDoUpdate({ target: instanceMeta.key, set: { value } }).run();
}
