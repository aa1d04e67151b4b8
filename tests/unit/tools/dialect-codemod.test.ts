/**
 * tools/dialect-codemod.mjs on a small project with real drizzle builders: `.get()`, `.all()` and
 * `.run()` in async functions become the awaited helpers of db/exec.ts, what it cannot do safely is
 * left and reported, the result type-checks, and a second run changes nothing.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const TOOL = path.resolve("tools/dialect-codemod.mjs");
let dir: string;
const read = (file: string) => fs.readFileSync(path.join(dir, file), "utf8");
const run = () => spawnSync(process.execPath, [TOOL, "--root", dir, "--no-format"], { encoding: "utf8", timeout: 300_000 });

const files: Record<string, string> = {
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      strict: true,
      target: "ES2022",
      module: "esnext",
      moduleResolution: "bundler",
      skipLibCheck: true,
      noEmit: true,
      lib: ["esnext"],
      types: [],
    },
    include: ["**/*.ts"],
    exclude: ["node_modules"],
  }),
  "db/client.ts": `import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
export type Db = BetterSQLite3Database;
`,
  "db/schema.ts": `import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
export const items = sqliteTable("items", { id: text("id").primaryKey(), name: text("name").notNull(), n: integer("n").notNull() });
`,
  "db/queries/items.ts": `import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { items } from "../schema";

export async function itemName(db: Db, id: string) {
  return db.select({ name: items.name }).from(items).where(eq(items.id, id)).get()?.name ?? null;
}

export async function listIds(db: Db) {
  return db.select().from(items).all().map((row) => row.id);
}

export async function renameItem(db: Db, id: string, name: string): Promise<boolean> {
  return db.update(items).set({ name }).where(eq(items.id, id)).run().changes > 0;
}

export async function addItem(db: Db, id: string) {
  return db.insert(items).values({ id, name: id, n: 0 }).returning().get();
}

export async function bump(db: Db, id: string) {
  const row = db.select().from(items).where(eq(items.id, id)).get();
  db.update(items).set({ n: (row?.n ?? 0) + 1 }).where(eq(items.id, id)).run();
}

export function countSync(db: Db) {
  return db.select().from(items).all().length;
}

export function addInTransaction(db: Db) {
  db.transaction((tx) => {
    tx.insert(items).values({ id: "t", name: "t", n: 0 }).run();
  });
}

export async function shadowed(db: Db) {
  const all = 1;
  return db.select().from(items).all().length + all;
}

export async function lastRowid(db: Db) {
  return db.insert(items).values({ id: "r", name: "r", n: 0 }).run().lastInsertRowid;
}

export async function rawValues(db: Db) {
  return db.select().from(items).values();
}

const seen = new Map<string, number>();
export async function notABuilder() {
  return [...seen.values()];
}
`,
  "tests/items.test.ts": `import { it } from "vitest";
import type { Db } from "../db/client";
import { items } from "../db/schema";

declare const db: Db;
it("reads", () => {
  db.select().from(items).get();
});
`,
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "dialect-codemod-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.writeFileSync(path.join(dir, "package.json"), "{}");
  fs.symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("dialect-codemod", () => {
  it("rewrites the execution calls to the helpers, reports the rest, and a second run changes nothing", () => {
    const first = run();
    expect(first.stdout).toContain("4 one(), 1 all(), 2 exec(), 1 test callbacks made async; 5 sites left");
    expect(first.stdout).toContain("changed files type-check clean");
    expect(first.status).toBe(0);
    const items = read("db/queries/items.ts");
    expect(items).toContain('import { all, exec, one } from "../exec";');
    expect(items).toContain("return (await one(db.select({ name: items.name }).from(items).where(eq(items.id, id))))?.name ?? null;");
    expect(items).toContain("return (await all(db.select().from(items))).map((row) => row.id);");
    expect(items).toContain("return await exec(db.update(items).set({ name }).where(eq(items.id, id))) > 0;");
    // The driver typed a write's returned row as always there: so does the rewrite.
    expect(items).toContain("return (await one(db.insert(items).values({ id, name: id, n: 0 }).returning()))!;");
    expect(items).toContain("await exec(db.update(items).set({ n: (row?.n ?? 0) + 1 }).where(eq(items.id, id)));");
    // Left as they were: a synchronous function, a driver-level transaction, a local `all`, a Map.
    expect(items).toContain("return db.select().from(items).all().length;\n");
    expect(items).toContain('tx.insert(items).values({ id: "t", name: "t", n: 0 }).run();');
    expect(items).toContain("return db.select().from(items).all().length + all;");
    expect(items).toContain("return [...seen.values()];");
    expect(first.stdout).toMatch(/items\.ts:\d+: \.all\(\) in the synchronous countSync/);
    expect(first.stdout).toMatch(/items\.ts:\d+: \.run\(\) in a synchronous driver-level transaction/);
    expect(first.stdout).toMatch(/items\.ts:\d+: a local name `all` hides the helper/);
    expect(first.stdout).toMatch(/items\.ts:\d+: \.run\(\) whose result is used for something else than \.changes/);
    expect(first.stdout).toMatch(/items\.ts:\d+: \.values\(\) \(arrays of column values\): no neutral helper/);
    expect(items).toContain('return db.insert(items).values({ id: "r", name: "r", n: 0 }).run().lastInsertRowid;');
    expect(first.stdout).toMatch(/1 functions now yield between a read and a later write[^\n]*\n\s+db\/queries\/items\.ts:\d+: bump/);
    const test = read("tests/items.test.ts");
    expect(test).toContain('it("reads", async () => {\n  await one(db.select().from(items));');
    expect(fs.existsSync(path.join(dir, "db/exec.ts"))).toBe(true);

    const before = [...Object.keys(files), "db/exec.ts"].map(read);
    const second = run();
    expect(second.stdout).toContain("0 files changed");
    expect([...Object.keys(files), "db/exec.ts"].map(read)).toEqual(before);
  }, 600_000);
});
