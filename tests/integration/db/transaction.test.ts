/**
 * The transaction port (db/transaction.ts) on both databases: a throw anywhere inside rolls back
 * every write; nested calls are savepoints; on SQLite, a query of another request waits for an open
 * transaction instead of landing inside it (and being rolled back with it).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "@/db/client";
import { migratePostgres } from "@/db/migrate-postgres";
import { getWorkspaceBySlug, renameWorkspace } from "@/db/queries/workspaces";
import * as sqliteTables from "@/db/schema-sqlite";
import * as pgTables from "@/db/schema-postgres";
import { rows, stepTransaction, withTransaction, write } from "@/db/transaction";
import { startPostgres, type TestPostgres } from "../../helpers/postgres";

const boom = new Error("boom");

describe("withTransaction on SQLite", () => {
  let db: Db;
  let close: () => void;
  beforeAll(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tx-"));
    const opened = openDatabase(path.join(dir, "t.db"));
    db = opened.db;
    close = () => {
      opened.sqlite.close();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  });
  afterAll(() => close());

  const insert = (handle: Db, slug: string) => handle.insert(sqliteTables.workspaces).values({ id: slug, name: slug, slug }).run();

  it("commits what the body wrote and returns its result", async () => {
    const result = await withTransaction(db, async (tx) => {
      insert(tx, "kept-1");
      await Promise.resolve();
      insert(tx, "kept-2");
      return 7;
    });
    expect(result).toBe(7);
    expect(await getWorkspaceBySlug(db, "kept-2")).not.toBeNull();
  });

  it("rolls back every write when the body throws after an await", async () => {
    await expect(
      withTransaction(db, async (tx) => {
        insert(tx, "lost-1");
        await renameWorkspace(tx, "kept-1", "renamed");
        await new Promise((resolve) => setTimeout(resolve, 5));
        insert(tx, "lost-2");
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await getWorkspaceBySlug(db, "lost-1")).toBeNull();
    expect(await getWorkspaceBySlug(db, "lost-2")).toBeNull();
    expect((await getWorkspaceBySlug(db, "kept-1"))?.name).toBe("kept-1");
  });

  it("keeps another request's query out of an open transaction: it waits, and survives the rollback", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    const tx = withTransaction(db, async (t) => {
      insert(t, "uncommitted");
      await held;
      order.push("tx body done");
      throw boom;
    });
    // Another request, while the transaction is open: it must neither see nor join it.
    const outside = renameWorkspace(db, "kept-2", "outside").then(() => order.push("outside write"));
    const read = getWorkspaceBySlug(db, "uncommitted").then((w) => {
      order.push("outside read");
      return w;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    release();
    await expect(tx).rejects.toBe(boom);
    await outside;
    expect(await read).toBeNull();
    expect(order).toEqual(["tx body done", "outside write", "outside read"]);
    expect((await getWorkspaceBySlug(db, "kept-2"))?.name).toBe("outside");
  });

  it("runs a nested call as a savepoint: its throw undoes only its own writes", async () => {
    await withTransaction(db, async (tx) => {
      insert(tx, "outer");
      await withTransaction(tx, async (inner) => {
        insert(inner, "inner");
        throw boom;
      }).catch(() => undefined);
    });
    expect(await getWorkspaceBySlug(db, "outer")).not.toBeNull();
    expect(await getWorkspaceBySlug(db, "inner")).toBeNull();
  });

  it("runs transactions one after another, never interleaved", async () => {
    const log: string[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        withTransaction(db, async (tx) => {
          log.push(`begin ${n}`);
          insert(tx, `serial-${n}`);
          await new Promise((resolve) => setTimeout(resolve, 2));
          log.push(`end ${n}`);
        }),
      ),
    );
    expect(log).toEqual(["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"]);
  });

  it("runs a step transaction synchronously (no promise), and rolls it back when its body throws", async () => {
    const result = stepTransaction(db, function* (tx) {
      yield* write(tx.insert(sqliteTables.workspaces).values({ id: "steps", name: "steps", slug: "steps" }));
      return yield* rows(
        tx.select({ name: sqliteTables.workspaces.name }).from(sqliteTables.workspaces).where(eq(sqliteTables.workspaces.id, "steps")),
      );
    });
    expect(result).toEqual([{ name: "steps" }]);
    expect(() =>
      stepTransaction(db, function* (tx) {
        yield* write(tx.insert(sqliteTables.workspaces).values({ id: "steps-lost", name: "lost", slug: "steps-lost" }));
        throw boom;
      }),
    ).toThrow(boom);
    expect(await getWorkspaceBySlug(db, "steps-lost")).toBeNull();
  });
});

describe("withTransaction on Postgres", () => {
  let cluster: TestPostgres;
  let pool: pg.Pool;
  let db: ReturnType<typeof drizzlePg<typeof pgTables>>;
  beforeAll(async () => {
    cluster = await startPostgres();
    pool = new pg.Pool({ connectionString: await cluster.createDatabase("tx"), max: 4 });
    await migratePostgres(pool);
    db = drizzlePg(pool, { schema: pgTables });
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  const asDb = (handle: unknown) => handle as Db;
  const insert = (handle: unknown, slug: string) =>
    (handle as typeof db).insert(pgTables.workspaces).values({ id: slug, name: slug, slug });
  const exists = async (slug: string) => (await db.select().from(pgTables.workspaces).where(eq(pgTables.workspaces.slug, slug))).length > 0;

  it("commits, and rolls back every write when the body throws", async () => {
    await withTransaction(asDb(db), async (tx) => {
      await insert(tx, "pg-kept");
    });
    await expect(
      withTransaction(asDb(db), async (tx) => {
        await insert(tx, "pg-lost-1");
        await new Promise((resolve) => setTimeout(resolve, 5));
        await insert(tx, "pg-lost-2");
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await exists("pg-kept")).toBe(true);
    expect(await exists("pg-lost-1")).toBe(false);
    expect(await exists("pg-lost-2")).toBe(false);
  });

  it("runs the body on one pooled connection; another request meanwhile runs on another and does not see it", async () => {
    const backend = async (handle: unknown) =>
      (await (handle as typeof db).execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)).rows[0].pid;
    await withTransaction(asDb(db), async (tx) => {
      const own = await backend(tx);
      await insert(tx, "pg-one-client");
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await backend(tx)).toBe(own);
      expect(await backend(db)).not.toBe(own);
      expect(await exists("pg-one-client")).toBe(false);
      await withTransaction(tx, async (inner) => {
        expect(await backend(inner)).toBe(own);
      });
    });
    expect(await exists("pg-one-client")).toBe(true);
  });

  it("rolls back a step transaction when its body throws", async () => {
    await expect(
      Promise.resolve(
        stepTransaction(asDb(db), function* (tx) {
          yield* write(
            (tx as unknown as typeof db).insert(pgTables.workspaces).values({ id: "pg-steps", name: "s", slug: "pg-steps" }) as never,
          );
          throw boom;
        }),
      ),
    ).rejects.toBe(boom);
    expect(await exists("pg-steps")).toBe(false);
  });

  it("lets only one of two transactions that check, then write, pass its check (serializable, the loser run again)", async () => {
    // Both read before either writes (a barrier for the first attempts): at READ COMMITTED both
    // would see no "solo" workspace and both insert one.
    let arrived = 0;
    let bothRead!: () => void;
    const barrier = new Promise<void>((resolve) => {
      bothRead = resolve;
    });
    const attempts: string[] = [];
    const claim = (id: string) =>
      withTransaction(asDb(db), async (tx) => {
        attempts.push(id);
        const taken = await (tx as unknown as typeof db).select().from(pgTables.workspaces).where(eq(pgTables.workspaces.name, "solo"));
        arrived += 1;
        if (arrived === 2) bothRead();
        await barrier;
        if (taken.length > 0) return "taken";
        await (tx as unknown as typeof db).insert(pgTables.workspaces).values({ id, name: "solo", slug: id });
        return "claimed";
      });
    expect((await Promise.all([claim("solo-a"), claim("solo-b")])).sort()).toEqual(["claimed", "taken"]);
    expect(attempts).toHaveLength(3);
    expect(await db.select().from(pgTables.workspaces).where(eq(pgTables.workspaces.name, "solo"))).toHaveLength(1);
  });

  it("runs transactions on one key one after another, each seeing the last one's write, with no retry; another key does not wait", async () => {
    const attempts: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const claim = (id: string, name: string, key: string, hold?: Promise<void>) =>
      withTransaction(
        asDb(db),
        async (tx) => {
          attempts.push(id);
          const taken = await (tx as unknown as typeof db).select().from(pgTables.workspaces).where(eq(pgTables.workspaces.name, name));
          if (hold !== undefined) await hold;
          if (taken.length > 0) return "taken";
          await (tx as unknown as typeof db).insert(pgTables.workspaces).values({ id, name, slug: id });
          return "claimed";
        },
        { serializeOn: key },
      );
    const first = claim("keyed-a", "keyed", "k1", gate);
    while (attempts.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const second = claim("keyed-b", "keyed", "k1");
    // Another key runs while k1 is held.
    expect(await claim("keyed-c", "other", "k2")).toBe("claimed");
    release();
    expect(await first).toBe("claimed");
    // At READ COMMITTED its check ran after the first committed: it sees that write.
    expect(await second).toBe("taken");
    expect(attempts).toEqual(["keyed-a", "keyed-c", "keyed-b"]);
  });

  it("runs a nested call as a savepoint", async () => {
    await withTransaction(asDb(db), async (tx) => {
      await insert(tx, "pg-outer");
      await withTransaction(tx, async (inner) => {
        await insert(inner, "pg-inner");
        throw boom;
      }).catch(() => undefined);
    });
    expect(await exists("pg-outer")).toBe(true);
    expect(await exists("pg-inner")).toBe(false);
  });
});
