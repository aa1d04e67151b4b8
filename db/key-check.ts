/**
 * Binds the data to the key that encrypted it: the first start records the key's fingerprint,
 * later starts compare. A wrong or lost key fails once with a message naming the fix.
 */
import { eq } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type * as postgresSchema from "./schema-postgres";
import { instanceMeta as postgresInstanceMeta } from "./schema-postgres";
import type * as schema from "./schema-sqlite";
import { instanceMeta } from "./schema-sqlite";
import { SecretKeyError, loadSecretKey, wrongKeyMessage, type SecretKey } from "../lib/crypto";
import { dataDir } from "../lib/env";

/** The `instance_meta` row holding the fingerprint of the key the data is encrypted with. */
export const KEY_ID = "secret_key_id";
let cachedKey: SecretKey | undefined;

/** The instance key (cached after first load). */
export function instanceKey(): SecretKey {
  cachedKey ??= loadSecretKey(dataDir());
  return cachedKey;
}

/** Forget the cached key (tests switch data directories). */
export function resetInstanceKey(): void {
  cachedKey = undefined;
}

/** Record the key fingerprint on first start; throw SecretKeyError when it differs later. */
export function checkInstanceKey(db: BetterSQLite3Database<typeof schema>, key: SecretKey = instanceKey()): void {
  const row = db.select().from(instanceMeta).where(eq(instanceMeta.key, KEY_ID)).get();
  if (!row) {
    db.insert(instanceMeta).values({ key: KEY_ID, value: key.id }).run();
    return;
  }
  if (row.value !== key.id) throw new SecretKeyError(wrongKeyMessage(row.value, key.id));
}

/**
 * `checkInstanceKey` on Postgres (awaited): the fingerprint is recorded by whichever of several
 * processes starting at once comes first (the others' inserts do nothing), then compared.
 */
export async function checkInstanceKeyPostgres(db: NodePgDatabase<typeof postgresSchema>, key: SecretKey = instanceKey()): Promise<void> {
  await db.insert(postgresInstanceMeta).values({ key: KEY_ID, value: key.id }).onConflictDoNothing();
  const [row] = await db.select().from(postgresInstanceMeta).where(eq(postgresInstanceMeta.key, KEY_ID)).limit(1);
  if (row && row.value !== key.id) throw new SecretKeyError(wrongKeyMessage(row.value, key.id));
}
