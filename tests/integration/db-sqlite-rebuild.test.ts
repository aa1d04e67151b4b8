/**
 * SQLite migration 0006 rebuilds mcp_servers to give shared_credentials_user_id its ON DELETE SET NULL.
 * An instance filled under 0005 keeps every row of every table (the DROP must not cascade to the
 * servers' credentials, pins, policies and trust), and deleting the shared-credentials user now
 * clears the column instead of failing.
 */
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, openDatabase } from "@/db/client";
import { resetInstanceKey } from "@/db/key-check";
import { populateInstance, type PopulatedInstance } from "../helpers/populated-instance";

let tmp: string;
let before: string;
let planted: PopulatedInstance;
const savedKey = process.env.SWITCHBOARD_SECRET_KEY;

/** The migrations up to and including `tag` (the schema an older release left behind). */
function migrationsUpTo(tag: string): string {
  const folder = path.join(tmp, "old-migrations");
  fs.cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const file = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(file, "utf8")) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === tag) + 1);
  fs.writeFileSync(file, JSON.stringify(journal));
  return folder;
}

/** Every row of every table, by table, in rowid order. */
function everyRow(sqlite: Database.Database): Record<string, unknown[]> {
  const tables = sqlite
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name != '__drizzle_migrations' order by name",
    )
    .all() as { name: string }[];
  return Object.fromEntries(tables.map(({ name }) => [name, sqlite.prepare(`select rowid, * from "${name}" order by rowid`).all()]));
}

const sharedKeyAction = (sqlite: Database.Database) =>
  (sqlite.pragma("foreign_key_list(mcp_servers)") as { from: string; on_delete: string }[]).find(
    (fk) => fk.from === "shared_credentials_user_id",
  )?.on_delete;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-rebuild-"));
  process.env.SWITCHBOARD_SECRET_KEY = randomBytes(32).toString("hex");
  resetInstanceKey();
  before = path.join(tmp, "before.db");
  // Filled through today's query functions at today's schema, then carried down into a file at 0005:
  // the query functions write columns later migrations added, which the old schema does not have.
  const full = path.join(tmp, "full.db");
  planted = await populateInstance(full, 20);
  const { sqlite } = openDatabase(before, migrationsUpTo("0005_oauth_state_for_everyone"));
  try {
    copyCommonColumns(sqlite, full);
  } finally {
    sqlite.close();
  }
});

/** Copy every row of `from` into the tables `into` has, through the columns both have. */
function copyCommonColumns(into: Database.Database, from: string): void {
  into.pragma("foreign_keys = OFF");
  into.prepare("attach database ? as source").run(from);
  const columns = (schema: string, table: string) =>
    new Set((into.prepare(`select name from pragma_table_info(?, ?)`).all(table, schema) as { name: string }[]).map((c) => c.name));
  into.transaction(() => {
    for (const table of Object.keys(everyRow(into))) {
      const sourceColumns = columns("source", table);
      const shared = [...columns("main", table)].filter((name) => sourceColumns.has(name)).map((name) => `"${name}"`);
      if (shared.length) into.exec(`insert into main."${table}" (${shared}) select ${shared} from source."${table}"`);
    }
  })();
  into.exec("detach database source");
  into.pragma("foreign_keys = ON");
}
afterAll(() => {
  if (savedKey === undefined) delete process.env.SWITCHBOARD_SECRET_KEY;
  else process.env.SWITCHBOARD_SECRET_KEY = savedKey;
  resetInstanceKey();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("SQLite migration 0006 (mcp_servers rebuilt)", () => {
  it("keeps every row of every table and sets the foreign key to SET NULL", () => {
    const old = new Database(before);
    const rows = everyRow(old);
    expect(sharedKeyAction(old)).toBe("NO ACTION");
    old.close();
    expect(rows.mcp_servers).toHaveLength(1);
    for (const child of ["server_credentials", "oauth_states", "tool_pins", "tool_policies", "workspace_tool_policies", "server_trust"]) {
      expect(rows[child].length, child).toBeGreaterThan(0);
    }

    const file = path.join(tmp, "after.db");
    fs.copyFileSync(before, file);
    const { sqlite } = openDatabase(file);
    try {
      // Every row kept, with every value it had; later migrations may add tables and columns.
      const after = everyRow(sqlite);
      for (const [table, kept] of Object.entries(rows)) {
        const names = Object.keys((kept[0] ?? {}) as object);
        const projected = after[table].map((row) =>
          Object.fromEntries(names.map((name) => [name, (row as Record<string, unknown>)[name]])),
        );
        expect(projected, table).toEqual(kept);
      }
      expect(sharedKeyAction(sqlite)).toBe("SET NULL");
      expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
      expect(sqlite.pragma("foreign_key_check")).toEqual([]);
    } finally {
      sqlite.close();
    }
  });

  it("clears the column when the shared-credentials user is deleted (before: refused)", () => {
    const old = new Database(path.join(tmp, "before.db"));
    old.pragma("foreign_keys = ON");
    expect(() => old.prepare("delete from users where id = ?").run(planted.adminId)).toThrow(/FOREIGN KEY constraint failed/);
    old.close();

    const { sqlite } = openDatabase(path.join(tmp, "after.db"));
    try {
      sqlite.prepare("delete from users where id = ?").run(planted.adminId);
      const server = sqlite.prepare("select shared_credentials_user_id as shared from mcp_servers where id = ?").get(planted.serverId) as {
        shared: string | null;
      };
      expect(server.shared).toBeNull();
    } finally {
      sqlite.close();
    }
  });
});
