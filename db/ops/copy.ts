/**
 * `switchboard db copy`: a SQLite instance moved into Postgres. The target is migrated, then filled in
 * one transaction (so a failure leaves it as it was): every table in foreign-key order, in batches,
 * values as the schema reads them (secrets stay the same encrypted envelopes), identities moved past
 * the copied ids; before the commit, row counts are compared and a sample of secrets is decrypted.
 */
import type Database from "better-sqlite3";
import { getTableColumns } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import type { SecretKey } from "../../lib/crypto";
import { KEY_ID } from "../key-check";
import { MIGRATION_LOCK_KEY, migratePostgres } from "../migrate-postgres";
import { DatabaseOpsError } from "./errors";
import { assertSameKey } from "./instance-key";
import { describePending, migrationsFolder, migrationStatus } from "./migration-status";
import { connectPostgres, describeAddress, postgresAddress, postgresKeyId } from "./postgres-target";
import { checkSecretSample } from "./secret-sample";
import { openSqliteReadOnly, sqliteKeyId, sqliteLastMigration } from "./sqlite-source";
import { tablesInDependencyOrder, type TablePair } from "./table-order";

/** What `copySqliteToPostgres` needs. */
export interface CopyOptions {
  /** The source SQLite file (opened read-only). */
  from: string;
  /** The target `postgres://` URL. */
  to: string;
  /** The instance key the source's secrets are encrypted with (db/ops/instance-key.ts). */
  key: SecretKey;
  /** The Switchboard install, whose drizzle/ folders hold the migrations. */
  projectRoot: string;
  /** Empty a target that already holds data instead of refusing it (default false). */
  force?: boolean;
  /** Secrets decrypted per encrypted column to verify the copy (default 20). */
  sampleSize?: number;
}

/** What a copy moved and checked. */
export interface CopyReport {
  target: string;
  tables: { name: string; rows: number }[];
  rows: number;
  secretsChecked: number;
  ms: number;
}

// Postgres takes at most 65535 parameters per statement; a batch stays well under it.
const MAX_PARAMETERS = 30_000;

/** Copy the SQLite instance `from` into the Postgres database `to` (see the module comment). */
export async function copySqliteToPostgres(options: CopyOptions): Promise<CopyReport> {
  const started = performance.now();
  const order = tablesInDependencyOrder();
  const sqlite = openSqliteReadOnly(options.from, ["__drizzle_migrations", ...order.map((t) => t.name)]);
  try {
    const status = migrationStatus(migrationsFolder(options.projectRoot, "sqlite"), sqliteLastMigration(sqlite));
    if (status.pending) {
      throw new DatabaseOpsError(
        `${options.from} is from an older Switchboard (${describePending(status)}): start the app on it once (or run switchboard db migrate with SWITCHBOARD_DATA_DIR set to its directory), then copy`,
      );
    }
    assertSameKey(sqliteKeyId(sqlite, KEY_ID), options.key, `source ${options.from}`);
    const pool = await connectPostgres(options.to);
    try {
      await migratePostgres(pool, migrationsFolder(options.projectRoot, "postgres"));
      const tables = await copyInOneTransaction(pool, sqlite, order, options);
      return {
        target: describeAddress(postgresAddress(options.to)),
        tables: tables.map(({ name, rows }) => ({ name, rows })),
        rows: tables.reduce((sum, t) => sum + t.rows, 0),
        secretsChecked: tables.reduce((sum, t) => sum + t.secretsChecked, 0),
        ms: Math.round(performance.now() - started),
      };
    } finally {
      await pool.end();
    }
  } finally {
    sqlite.close();
  }
}

async function copyInOneTransaction(pool: pg.Pool, sqlite: Database.Database, order: TablePair[], options: CopyOptions) {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("begin");
    // Starting apps migrate under this lock: none sees a half-filled database as its own.
    await client.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await emptyOrRefuse(client, order, options.force === true);
    // One read transaction on the source: every table comes from the same moment, even while the app writes.
    sqlite.exec("begin");
    const copied: { name: string; rows: number; secretsChecked: number }[] = [];
    try {
      for (const table of order) copied.push({ name: table.name, rows: await copyTable(client, sqlite, table), secretsChecked: 0 });
      await compareCounts(client, sqlite, order);
    } finally {
      sqlite.exec("commit");
    }
    await moveIdentitiesPastCopiedIds(client);
    assertSameKey(await postgresKeyId(client, KEY_ID), options.key, `target ${describeAddress(postgresAddress(options.to))}`);
    for (const [i, table] of order.entries())
      copied[i].secretsChecked = await checkSecretSample(client, table, options.key, options.sampleSize ?? 20);
    await client.query("commit");
    return copied;
  } catch (error) {
    broken = error as Error;
    await client.query("rollback").catch(() => {});
    if (error instanceof DatabaseOpsError) throw error;
    throw new DatabaseOpsError(`the copy failed and was rolled back (no row of the target changed): ${(error as Error).message}`);
  } finally {
    // A connection that failed midway is dropped rather than reused.
    client.release(broken && !(broken instanceof DatabaseOpsError) ? broken : undefined);
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function rowCounts(client: pg.PoolClient, order: TablePair[]): Promise<Map<string, number>> {
  const query = order.map((t) => `select ${pgLiteral(t.name)} as name, count(*)::int as n from ${quote(t.name)}`).join(" union all ");
  const { rows } = await client.query<{ name: string; n: number }>(query);
  return new Map(rows.map((r) => [r.name, r.n]));
}

const pgLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

async function emptyOrRefuse(client: pg.PoolClient, order: TablePair[], force: boolean): Promise<void> {
  const held = [...(await rowCounts(client, order))].filter(([, n]) => n > 0);
  if (held.length === 0) return;
  if (!force) {
    const list = held
      .map(([name, n]) => `${n} in ${name}`)
      .slice(0, 4)
      .join(", ");
    throw new DatabaseOpsError(`the target already holds data (${list}${held.length > 4 ? ", …" : ""}): pass --force to replace it`);
  }
  await client.query(`truncate table ${order.map((t) => quote(t.name)).join(", ")} restart identity cascade`);
}

async function copyTable(client: pg.PoolClient, sqlite: Database.Database, table: TablePair): Promise<number> {
  const columns = Object.entries(getTableColumns(table.sqlite));
  const batchSize = Math.max(1, Math.min(1000, Math.floor(MAX_PARAMETERS / columns.length)));
  const target = drizzle(client);
  let batch: Record<string, unknown>[] = [];
  let rows = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    try {
      await target.insert(table.postgres).values(batch as never);
    } catch (error) {
      throw new DatabaseOpsError(
        `copying ${table.name} failed, the copy was rolled back (no row of the target changed): ${firstLine(error)}`,
      );
    }
    rows += batch.length;
    batch = [];
  };
  for (const raw of sqlite.prepare(`select * from ${quote(table.name)}`).iterate() as Iterable<Record<string, unknown>>) {
    // Each value as the schema reads it (Date, boolean, parsed JSON); the Postgres columns write it back.
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    batch.push(row);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return rows;
}

function firstLine(error: unknown): string {
  const e = error as { cause?: { message?: string }; message?: string };
  // drizzle wraps the driver's error ("Failed query: …" with the SQL); the cause says what went wrong.
  return (e.cause?.message ?? e.message ?? String(error)).split("\n")[0];
}

async function compareCounts(client: pg.PoolClient, sqlite: Database.Database, order: TablePair[]): Promise<void> {
  const target = await rowCounts(client, order);
  for (const table of order) {
    const source = (sqlite.prepare(`select count(*) as n from ${quote(table.name)}`).get() as { n: number }).n;
    if (target.get(table.name) !== source) {
      throw new DatabaseOpsError(
        `row counts differ in ${table.name} (source ${source}, target ${target.get(table.name)}): the copy was rolled back`,
      );
    }
  }
}

/** Every identity column of the target continues after the largest id copied into it (audit ids). */
async function moveIdentitiesPastCopiedIds(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ table_name: string; column_name: string }>(
    "select table_name, column_name from information_schema.columns where table_schema = current_schema() and is_identity = 'YES'",
  );
  for (const { table_name: table, column_name: column } of rows) {
    await client.query(
      `select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${quote(column)}) from ${quote(table)}), 0) + 1, false)`,
      [quote(table), column],
    );
  }
}
