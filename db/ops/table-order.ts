/**
 * Every table of the schema in foreign-key dependency order (a table after every table it references),
 * derived from the definitions themselves, so a new table or reference needs no list kept by hand.
 */
import { getTableName, is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { PgTable } from "drizzle-orm/pg-core";
import * as sqliteSchema from "../schema-sqlite";
import * as postgresSchema from "../schema-postgres";

/** One table in both dialects, under its schema key (`mcpServers`) and SQL name (`mcp_servers`). */
export interface TablePair {
  key: string;
  name: string;
  sqlite: SQLiteTable;
  postgres: PgTable;
}

function pairs(): TablePair[] {
  // Every table either schema module exports; a module namespace lists its exports sorted by name,
  // so ties in the order fall the same way on every run.
  const postgres = new Map(Object.entries(postgresSchema).filter(([, value]) => is(value, PgTable)) as [string, PgTable][]);
  return (Object.entries(sqliteSchema).filter(([, value]) => is(value, SQLiteTable)) as [string, SQLiteTable][]).map(([key, sqlite]) => {
    const twin = postgres.get(key);
    if (!twin) throw new Error(`table ${key} has no Postgres twin in db/schema-postgres.ts`);
    return { key, name: getTableName(sqlite), sqlite, postgres: twin };
  });
}

/** The tables, each after the tables its foreign keys point to; a cycle throws (the schema has none). */
export function tablesInDependencyOrder(): TablePair[] {
  const all = pairs();
  const needs = new Map(
    all.map((t) => [
      t.name,
      new Set(
        getTableConfig(t.sqlite)
          .foreignKeys.map((fk) => getTableName(fk.reference().foreignTable))
          .filter((n) => n !== t.name),
      ),
    ]),
  );
  const ordered: TablePair[] = [];
  const placed = new Set<string>();
  while (ordered.length < all.length) {
    const ready = all.filter((t) => !placed.has(t.name) && [...(needs.get(t.name) ?? [])].every((n) => placed.has(n)));
    if (ready.length === 0) throw new Error("the schema's foreign keys form a cycle: no copy order exists");
    for (const t of ready) {
      ordered.push(t);
      placed.add(t.name);
    }
  }
  return ordered;
}
