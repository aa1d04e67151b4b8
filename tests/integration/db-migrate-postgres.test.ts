/**
 * Postgres migrations under the advisory lock (db/migrate-postgres.ts), on a throw-away cluster:
 * processes that start at once migrate once, and a migration waits for whoever holds the lock.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATION_LOCK_KEY, migratePostgres, POSTGRES_MIGRATIONS_DIR } from "@/db/migrate-postgres";
import { startPostgres, type TestPostgres } from "../helpers/postgres";

let cluster: TestPostgres;
const pools: pg.Pool[] = [];

function pool(url: string): pg.Pool {
  const created = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(created);
  return created;
}

const journal = JSON.parse(fs.readFileSync(path.join(POSTGRES_MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};

async function applied(url: string): Promise<string[]> {
  const { rows } = await pool(url).query<{ hash: string }>("select hash from drizzle.__drizzle_migrations order by id");
  return rows.map((r) => r.hash);
}

beforeAll(async () => {
  cluster = await startPostgres();
  console.log(`test cluster started in ${cluster.startMs} ms`);
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await cluster?.stop();
});

describe("migratePostgres", () => {
  it("migrates once when two processes start at once on a fresh database", async () => {
    const url = await cluster.createDatabase("concurrent");
    await Promise.all([migratePostgres(pool(url)), migratePostgres(pool(url))]);
    const hashes = await applied(url);
    expect(hashes).toHaveLength(journal.entries.length);
    expect(new Set(hashes).size).toBe(hashes.length);
    const { rows } = await pool(url).query("select count(*)::int as n from users");
    expect(rows[0].n).toBe(0);
    // A later start finds nothing to do.
    await migratePostgres(pool(url));
    expect(await applied(url)).toEqual(hashes);
  });

  it("waits while another holds the migration lock, then migrates", async () => {
    const url = await cluster.createDatabase("held");
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      let done = false;
      const migration = migratePostgres(pool(url)).then(() => {
        done = true;
      });
      await new Promise((r) => setTimeout(r, 750));
      expect(done).toBe(false);
      const { rows } = await holder.query("select to_regclass('public.users') as t");
      expect(rows[0].t).toBeNull();
      await holder.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
      await migration;
      expect(await applied(url)).toHaveLength(journal.entries.length);
    } finally {
      await holder.end();
    }
  });

  it("gives the lock back when a migration fails, so the next start can run", async () => {
    const url = await cluster.createDatabase("broken");
    const bad = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-broken-migrations-"));
    try {
      fs.cpSync(POSTGRES_MIGRATIONS_DIR, bad, { recursive: true });
      const first = journal.entries[0].tag;
      fs.appendFileSync(path.join(bad, `${first}.sql`), "\n--> statement-breakpoint\nselect * from no_such_table;");
      const p = pool(url);
      await expect(migratePostgres(p, bad)).rejects.toThrow(/no_such_table/);
      // Nothing half-applied (one transaction), and the lock is free again.
      const { rows } = await p.query("select to_regclass('public.users') as t");
      expect(rows[0].t).toBeNull();
      await migratePostgres(p);
      expect(await applied(url)).toHaveLength(journal.entries.length);
    } finally {
      fs.rmSync(bad, { recursive: true, force: true });
    }
  });
});
