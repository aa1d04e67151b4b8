/**
 * The Postgres column kit: the same calls as db/columns/sqlite.ts, building pg-core columns of the same
 * row types. Times are `timestamptz(3)` (millisecond Dates, like SQLite's), booleans `boolean`, JSON is
 * `json` (kept as written, like SQLite's text: jsonb would reorder keys and refuse `\u0000`).
 */
import type { Writable } from "drizzle-orm";
import { bigint, boolean, index, integer, json, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { ColumnKit } from "./sqlite";

// Every entry of the SQLite kit; the column helpers take the same arguments (what they build is
// pg-core's). The table and index functions differ in their callbacks' column types, so only their
// presence is checked.
type Structural = "table" | "index" | "uniqueIndex" | "primaryKey";
type KitShape = { [K in Structural]: unknown } & {
  [K in Exclude<keyof ColumnKit, Structural>]: ColumnKit[K] extends (...args: infer A) => unknown ? (...args: A) => unknown : never;
};

const time = <N extends string>(name: N) => timestamp(name, { withTimezone: true, precision: 3 });

/** The Postgres column kit (see the module comment); each entry mirrors the SQLite kit's of the same name. */
export const postgresColumns = {
  table: pgTable,
  index,
  uniqueIndex,
  primaryKey,
  text: <N extends string>(name: N) => text(name),
  enum: <N extends string, U extends string, T extends Readonly<[U, ...U[]]>>(name: N, values: T | Writable<T>) =>
    text(name, { enum: values }),
  integer: <N extends string>(name: N) => integer(name),
  boolean: <N extends string>(name: N) => boolean(name),
  timestamp: time,
  json: <N extends string>(name: N) => json(name),
  id: () => text("id").primaryKey(),
  // By default, not always: a copy from SQLite (`db copy`, to come) keeps the audit ids it writes.
  serialId: <N extends string>(name: N) => bigint(name, { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
  createdAt: () => time("created_at").notNull().defaultNow(),
  updatedAt: () => time("updated_at").notNull().defaultNow(),
} satisfies KitShape;
