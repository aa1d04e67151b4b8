/**
 * The SQLite column kit: how the shared table definitions in db/schema.ts become SQLite columns.
 * Times are integer milliseconds, booleans 0/1 integers, JSON is text; the kit's types are the ones
 * every query is typed against, so the Postgres kit (db/columns/postgres.ts) mirrors its call shapes.
 */
import { sql, type Writable } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// The statement's time in milliseconds, as SQLite computes it (the DDL every migration already holds).
const nowMs = sql`(unixepoch('subsec') * 1000)`;

/** The SQLite column kit (see the module comment). */
export const sqliteColumns = {
  table: sqliteTable,
  index,
  uniqueIndex,
  primaryKey,
  /** Free text. */
  text: <N extends string>(name: N) => text(name),
  /** Text restricted (in the types) to `values`; no database enum, so adding a value needs no migration. */
  enum: <N extends string, U extends string, T extends Readonly<[U, ...U[]]>>(name: N, values: T | Writable<T>) =>
    text(name, { enum: values }),
  /** A 32-bit-safe integer. */
  integer: <N extends string>(name: N) => integer(name),
  boolean: <N extends string>(name: N) => integer(name, { mode: "boolean" }),
  /** A point in time, read as a Date, kept to the millisecond. */
  timestamp: <N extends string>(name: N) => integer(name, { mode: "timestamp_ms" }),
  /** Any JSON value, written and read back as is. */
  json: <N extends string>(name: N) => text(name, { mode: "json" }),
  /** The text primary key `id` (ids come from db/ids.ts). */
  id: () => text("id").primaryKey(),
  /** An increasing integer primary key the database assigns. */
  serialId: <N extends string>(name: N) => integer(name).primaryKey({ autoIncrement: true }),
  /** `created_at`, set by the database on insert. */
  createdAt: () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(nowMs),
  /** `updated_at`, set by the database on insert (writers set it on update). */
  updatedAt: () => integer("updated_at", { mode: "timestamp_ms" }).notNull().default(nowMs),
};

/** What the shared table definitions are written against (the SQLite kit's shapes and types). */
export type ColumnKit = typeof sqliteColumns;
