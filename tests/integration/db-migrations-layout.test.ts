/**
 * The SQLite migrations moved from `drizzle/` to `drizzle/sqlite/` (a pure rename). drizzle's migrator
 * records applied migrations by content hash and creation time, never by path, so an instance migrated
 * from the old folder opens under the new one with nothing applied twice and nothing lost.
 */
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, openDatabase } from "@/db/client";

let tmp: string;

interface Journal {
  entries: { tag: string }[];
}

/** A copy of the migrations laid out as before the move (`<dir>/drizzle/*.sql`), keeping the first `count`. */
function oldLayout(count?: number): string {
  const dir = fs.mkdtempSync(path.join(tmp, "old-"));
  const folder = path.join(dir, "drizzle");
  fs.cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  if (count !== undefined) {
    const file = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(file, "utf8")) as Journal;
    journal.entries = journal.entries.slice(0, count);
    fs.writeFileSync(file, JSON.stringify(journal));
  }
  return folder;
}

/** Migrate `file` from `folder` the way db/client.ts did before the move, and add a row. */
function migrateOld(file: string, folder: string): void {
  const sqlite = new Database(file);
  migrate(drizzle(sqlite), { migrationsFolder: folder });
  sqlite.prepare("insert into users (id, email, name, password_hash) values ('u1', 'old@example.com', 'Old', 'x')").run();
  sqlite.close();
}

function applied(sqlite: Database.Database): { hash: string; created_at: number }[] {
  return sqlite.prepare("select hash, created_at from __drizzle_migrations order by id").all() as {
    hash: string;
    created_at: number;
  }[];
}

function schemaOf(sqlite: Database.Database): unknown[] {
  return sqlite.prepare("select type, name, sql from sqlite_master where name not like 'sqlite_%' order by name").all();
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-layout-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("SQLite migrations in drizzle/sqlite/", () => {
  it("opens a database migrated from the old drizzle/ folder without applying anything again", () => {
    const file = path.join(tmp, "full.db");
    migrateOld(file, oldLayout());
    const before = new Database(file, { readonly: true });
    const rowsBefore = applied(before);
    before.close();
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as Journal;
    expect(rowsBefore).toHaveLength(journal.entries.length);

    const opened = openDatabase(file);
    expect(applied(opened.sqlite)).toEqual(rowsBefore);
    expect(opened.sqlite.prepare("select email from users").all()).toEqual([{ email: "old@example.com" }]);
    opened.sqlite.close();
  });

  it("brings an instance that stopped part-way in the old layout up to date, each migration once", () => {
    const file = path.join(tmp, "partial.db");
    migrateOld(file, oldLayout(3));
    const opened = openDatabase(file);
    const rows = applied(opened.sqlite);
    const fresh = openDatabase(path.join(tmp, "fresh.db"));
    expect(rows).toEqual(applied(fresh.sqlite));
    expect(new Set(rows.map((r) => r.hash)).size).toBe(rows.length);
    expect(schemaOf(opened.sqlite)).toEqual(schemaOf(fresh.sqlite));
    expect(opened.sqlite.prepare("select email from users").all()).toEqual([{ email: "old@example.com" }]);
    opened.sqlite.close();
    fresh.sqlite.close();
  });
});
