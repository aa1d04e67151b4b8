/**
 * Proof that copied secrets are usable where they landed: a random sample of each encrypted column,
 * read back from the target and decrypted with the instance key. The plain values go nowhere.
 */
import { getTableConfig } from "drizzle-orm/pg-core";
import type pg from "pg";
import { SecretKeyError, type SecretKey } from "../../lib/crypto";
import { openSecret } from "../secrets";
import { DatabaseOpsError } from "./errors";
import type { TablePair } from "./table-order";

/** The encrypted columns of a table: the schema names them with the `_enc` suffix (db/schema.ts). */
export function encryptedColumns(table: TablePair): string[] {
  return getTableConfig(table.postgres)
    .columns.map((c) => c.name)
    .filter((name) => name.endsWith("_enc"));
}

/** Decrypt up to `size` random values of each encrypted column of `table` on the target; returns how many. */
export async function checkSecretSample(client: pg.ClientBase, table: TablePair, key: SecretKey, size: number): Promise<number> {
  let checked = 0;
  for (const column of encryptedColumns(table)) {
    const { rows } = await client.query<{ value: string }>(
      `select "${column}" as value from "${table.name}" where "${column}" is not null order by random() limit $1`,
      [size],
    );
    for (const { value } of rows) {
      try {
        openSecret(value, key);
      } catch (error) {
        if (!(error instanceof SecretKeyError)) throw error;
        throw new DatabaseOpsError(`a copied secret in ${table.name}.${column} does not decrypt with the instance key: ${error.message}`);
      }
      checked++;
    }
  }
  return checked;
}
