/**
 * sqliteConnectionOf (db/client.ts): the connection telemetry wraps for statement spans is SQLite's;
 * a Postgres handle has none (telemetry's start-up bound its absent `prepare` and threw there).
 */
import Database from "better-sqlite3";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type Db, sqliteConnectionOf } from "@/db/client";

const sqlite = new Database(":memory:");
// A pool connects on its first query only: none is made here.
const pool = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none" });
afterAll(async () => {
  sqlite.close();
  await pool.end();
});

describe("sqliteConnectionOf", () => {
  it("answers the better-sqlite3 connection of a SQLite handle", () => {
    expect(sqliteConnectionOf(drizzleSqlite(sqlite) as unknown as Db)).toBe(sqlite);
  });

  it("answers null for a Postgres handle", () => {
    expect(sqliteConnectionOf(drizzlePg(pool) as unknown as Db)).toBeNull();
  });
});
