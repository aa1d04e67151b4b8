/**
 * One logical schema, two dialects: the SQLite migrations (drizzle/sqlite/) and the Postgres ones
 * (drizzle/postgres/), each applied to a fresh database, give the same tables, columns, nullability,
 * defaults, primary keys, indexes, unique and foreign-key constraints (with their actions).
 */
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { openDatabase } from "@/db/client";
import { sqliteColumns } from "@/db/columns/sqlite";
import { migratePostgres } from "@/db/migrate-postgres";
import * as sqliteSchema from "@/db/schema-sqlite";
import * as postgresSchema from "@/db/schema-postgres";
import { defineTables } from "@/db/tables";
import { startPostgres, type TestPostgres } from "../helpers/postgres";
import { compareSchemas, normaliseDefault, postgresShape, type SchemaShape, sqliteShape } from "../helpers/schema-shape";

let cluster: TestPostgres;
let tmp: string;
let sqlite: SchemaShape;
let postgres: SchemaShape;
const pools: pg.Pool[] = [];

async function migratedPostgres(name: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: await cluster.createDatabase(name), max: 2 });
  pools.push(pool);
  await migratePostgres(pool);
  return pool;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-parity-"));
  const opened = openDatabase(path.join(tmp, "parity.db"));
  sqlite = sqliteShape(opened.sqlite);
  opened.sqlite.close();
  cluster = await startPostgres();
  postgres = await postgresShape(await migratedPostgres("parity"));
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await cluster?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("schema parity", () => {
  it("reads every table of the schema from both databases", () => {
    const tables = Object.values(defineTables(sqliteColumns)).map((t) => getTableName(t));
    expect(Object.keys(sqlite).sort()).toEqual([...tables].sort());
    expect(Object.keys(postgres).sort()).toEqual([...tables].sort());
    // The introspection reads real facts, not empty shapes that would agree vacuously.
    expect(sqlite.users.indexes.users_email_unique).toEqual({ columns: ["email"], unique: true });
    expect(postgres.memberships.primaryKey).toEqual(["workspace_id", "user_id"]);
    expect(postgres.sessions.foreignKeys).toEqual([
      { columns: ["user_id"], table: "users", references: ["id"], onDelete: "CASCADE", onUpdate: "NO ACTION" },
    ]);
    expect(sqlite.oauth_states.columns.for_everyone).toEqual({ notNull: true, default: "false", generated: false });
    expect(postgres.audit_log.columns.id.generated).toBe(true);
    expect(postgres.chats.columns.created_at.default).toBe("now");
  });

  it("has the same tables, columns, defaults, keys and indexes on SQLite and Postgres", () => {
    expect(compareSchemas(sqlite, postgres)).toEqual([]);
  });

  it("names a difference planted in the Postgres database", async () => {
    const pool = await migratedPostgres("planted");
    await pool.query(`
      alter table users alter column name drop not null;
      alter table server_trust alter column trusted set default true;
      drop index sessions_user_idx;
      alter table chats drop constraint chats_owner_id_users_id_fk;
      alter table chats add constraint chats_owner_id_users_id_fk foreign key (owner_id) references users(id) on delete set null;
      alter table instance_meta add column note text;
    `);
    const differences = compareSchemas(sqlite, await postgresShape(pool));
    expect(differences).toEqual([
      expect.stringMatching(/^chats: foreign key .*"CASCADE".* only in sqlite$/),
      expect.stringMatching(/^chats: foreign key .*"SET NULL".* only in postgres$/),
      "instance_meta.note: column only in postgres",
      'server_trust.trusted: default "false" in sqlite, "true" in postgres',
      "sessions: index sessions_user_idx only in sqlite",
      "users.name: notNull true in sqlite, false in postgres",
    ]);
  });

  it("exports each table for Postgres under the same name, with the same columns and row types", () => {
    for (const [name, table] of Object.entries(sqliteSchema)) {
      if (typeof table === "function") continue;
      const twin = (postgresSchema as Record<string, unknown>)[name];
      expect(is(twin, PgTable), name).toBe(true);
      expect(getTableName(twin as PgTable)).toBe(getTableName(table));
      expect(Object.keys(getTableColumns(twin as PgTable))).toEqual(Object.keys(getTableColumns(table)));
    }
    expectTypeOf<typeof postgresSchema.users.$inferSelect>().toEqualTypeOf<typeof sqliteSchema.users.$inferSelect>();
    expectTypeOf<typeof postgresSchema.auditLog.$inferInsert>().toEqualTypeOf<typeof sqliteSchema.auditLog.$inferInsert>();
    expectTypeOf<typeof postgresSchema.toolPins.$inferSelect>().toEqualTypeOf<typeof sqliteSchema.toolPins.$inferSelect>();
  });
});

describe("compareSchemas", () => {
  const base = (): SchemaShape => ({
    t: {
      columns: { id: { notNull: true, default: null, generated: false }, at: { notNull: true, default: "now", generated: false } },
      primaryKey: ["id"],
      indexes: { t_at_idx: { columns: ["at", "id"], unique: false } },
      foreignKeys: [{ columns: ["id"], table: "u", references: ["id"], onDelete: "CASCADE", onUpdate: "NO ACTION" }],
    },
  });

  it("finds nothing between equal shapes, whatever the column order", () => {
    const b = base();
    b.t.columns = { at: b.t.columns.at, id: b.t.columns.id };
    expect(compareSchemas(base(), b)).toEqual([]);
  });

  it("names a missing table, a default, an index's column order, a primary key and a foreign key's action", () => {
    const b = base();
    b.extra = structuredClone(b.t);
    b.t.columns.at.default = null;
    b.t.indexes.t_at_idx.columns = ["id", "at"];
    b.t.primaryKey = ["id", "at"];
    b.t.foreignKeys[0].onDelete = "NO ACTION";
    expect(compareSchemas(base(), b, ["a", "b"])).toEqual([
      "extra: table only in b",
      't.at: default "now" in a, null in b',
      't: primary key ["id"] in a, ["id","at"] in b',
      't: index t_at_idx is {"columns":["at","id"],"unique":false} in a, {"columns":["id","at"],"unique":false} in b',
      expect.stringMatching(/^t: foreign key .*"CASCADE".* only in a$/),
      expect.stringMatching(/^t: foreign key .*"NO ACTION","onUpdate".* only in b$/),
    ]);
  });

  it("spells both dialects' defaults alike", () => {
    expect(normaliseDefault("(unixepoch('subsec') * 1000)")).toBe("now");
    expect(normaliseDefault("now()")).toBe("now");
    expect(normaliseDefault("false")).toBe("false");
    expect(normaliseDefault("'member'::text")).toBe("'member'");
    expect(normaliseDefault(null)).toBeNull();
  });
});
