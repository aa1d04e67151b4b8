/**
 * db/exec.ts on both databases: `one` answers the first row (or undefined) and reads no more,
 * `all` the rows, `exec` how many rows a write changed; on SQLite each hands back the driver's value
 * at once (no promise).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq, like, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "@/db/client";
import { all, exec, one, oneOf, prepared } from "@/db/exec";
import { migratePostgres } from "@/db/migrate-postgres";
import * as sqliteTables from "@/db/schema-sqlite";
import * as pgTables from "@/db/schema-postgres";
import { startPostgres, type TestPostgres } from "../../helpers/postgres";

// The same cases on both: typed against the SQLite handle (the query functions' type); on Postgres
// the builders are node-postgres ones at run time, which is what is tested.
function sharedCases(handle: () => Db, tables: typeof sqliteTables) {
  const { workspaces } = tables;
  const add = (db: Db, ...slugs: string[]) => exec(db.insert(workspaces).values(slugs.map((slug) => ({ id: slug, name: slug, slug }))));

  it("exec answers how many rows an insert, an update and a delete changed", async () => {
    const db = handle();
    expect(await add(db, "a-1", "a-2", "a-3")).toBe(3);
    expect(await exec(db.update(workspaces).set({ name: "renamed" }).where(like(workspaces.slug, "a-%")))).toBe(3);
    expect(await exec(db.update(workspaces).set({ name: "none" }).where(eq(workspaces.slug, "missing")))).toBe(0);
    expect(await exec(db.delete(workspaces).where(eq(workspaces.slug, "a-1")))).toBe(1);
    expect(await exec(db.delete(workspaces).where(eq(workspaces.slug, "a-1")))).toBe(0);
  });

  it("exec on a write with returning answers the rows it returned", async () => {
    const db = handle();
    await add(db, "r-1", "r-2");
    const changed = await exec(
      db.update(workspaces).set({ name: "r" }).where(like(workspaces.slug, "r-%")).returning({ id: workspaces.id }),
    );
    expect(changed).toBe(2);
  });

  it("one answers the first row in the query's order, or undefined", async () => {
    const db = handle();
    await add(db, "o-2", "o-1", "o-3");
    const first = await one(
      db.select({ slug: workspaces.slug }).from(workspaces).where(like(workspaces.slug, "o-%")).orderBy(asc(workspaces.slug)),
    );
    expect(first).toEqual({ slug: "o-1" });
    expect(await one(db.select().from(workspaces).where(eq(workspaces.slug, "missing")))).toBeUndefined();
  });

  it("one answers the row a write returned", async () => {
    const db = handle();
    const row = await one(
      db.insert(workspaces).values({ id: "w-1", name: "w", slug: "w-1" }).returning({ id: workspaces.id, name: workspaces.name }),
    );
    expect(row).toEqual({ id: "w-1", name: "w" });
    const gone = await one(db.delete(workspaces).where(eq(workspaces.slug, "missing")).returning({ id: workspaces.id }));
    expect(gone).toBeUndefined();
  });

  it("all answers every row in order, and an empty list when none match", async () => {
    const db = handle();
    await add(db, "l-3", "l-1", "l-2");
    const rows = await all(
      db.select({ slug: workspaces.slug }).from(workspaces).where(like(workspaces.slug, "l-%")).orderBy(asc(workspaces.slug)),
    );
    expect(rows.map((r) => r.slug)).toEqual(["l-1", "l-2", "l-3"]);
    expect(await all(db.select().from(workspaces).where(eq(workspaces.slug, "missing")))).toEqual([]);
  });

  it("a prepared look-up runs again and again with new values", async () => {
    const db = handle();
    await add(db, "p-1", "p-2");
    const bySlug = prepared(
      db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(eq(workspaces.slug, sql.placeholder("slug"))),
      "exec_test_by_slug",
    );
    expect(await oneOf(bySlug, { slug: "p-1" })).toEqual({ id: "p-1" });
    expect(await oneOf(bySlug, { slug: "p-2" })).toEqual({ id: "p-2" });
    expect(await oneOf(bySlug, { slug: "missing" })).toBeUndefined();
  });
}

describe("db/exec on SQLite", () => {
  let db: Db;
  let close: () => void;
  beforeAll(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "exec-"));
    const opened = openDatabase(path.join(dir, "t.db"));
    db = opened.db;
    close = () => {
      opened.sqlite.close();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  });
  afterAll(() => close());

  sharedCases(() => db, sqliteTables);

  it("hands back the driver's value at once: no promise to wait for", () => {
    const { workspaces } = sqliteTables;
    const changed = exec(db.insert(workspaces).values({ id: "s-1", name: "s", slug: "s-1" }));
    expect(changed).toBe(1);
    expect(one(db.select({ slug: workspaces.slug }).from(workspaces).where(eq(workspaces.slug, "s-1")))).toEqual({ slug: "s-1" });
    expect(all(db.select({ slug: workspaces.slug }).from(workspaces).where(eq(workspaces.slug, "s-1")))).toEqual([{ slug: "s-1" }]);
  });
});

describe("db/exec on Postgres", () => {
  let cluster: TestPostgres;
  let pool: pg.Pool;
  let db: ReturnType<typeof drizzlePg<typeof pgTables>>;
  const statements: string[] = [];
  beforeAll(async () => {
    cluster = await startPostgres();
    pool = new pg.Pool({ connectionString: await cluster.createDatabase("exec"), max: 2 });
    await migratePostgres(pool);
    db = drizzlePg(pool, { schema: pgTables, logger: { logQuery: (query) => statements.push(query) } });
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  sharedCases(() => db as unknown as Db, pgTables as unknown as typeof sqliteTables);

  it("one limits a select to one row (it reads no more than it returns)", async () => {
    const { workspaces } = pgTables;
    statements.length = 0;
    await one(db.select().from(workspaces).orderBy(asc(workspaces.slug)));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/ limit \$1$/);
  });
});
