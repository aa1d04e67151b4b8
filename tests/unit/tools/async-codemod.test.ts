/**
 * tools/async-codemod.mjs on a small project: query functions become async and gated, callers
 * await them up the chain (values, conditions, `.map`), transactions go through the port, pure
 * helpers stay synchronous, and a second run changes nothing.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const TOOL = path.resolve("tools/async-codemod.mjs");
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
  "db/client.ts": `export interface Db {
  select(): unknown;
  insert(): unknown;
  transaction<T>(fn: (tx: Db) => T): T;
  read(key: string): string | undefined;
}
`,
  "db/queries/items.ts": `import type { Db } from "../client";

export function normalise(name: string): string {
  return name.trim();
}

export function getItem(db: Db, id: string): string | null {
  return db.read(normalise(id)) ?? null;
}

export function copyItem(db: Db, from: string): string | null {
  return db.transaction((tx) => {
    getItem(tx, from);
    return getItem(db, from);
  });
}
`,
  "lib/labels.ts": `import type { Db } from "../db/client";
import { getItem } from "../db/queries/items";

export function label(db: Db, id: string): string {
  return getItem(db, id) ?? "none";
}

export function labels(db: Db, ids: string[]) {
  return ids.map((id) => getItem(db, id));
}

export function known(db: Db, id: string) {
  if (label(db, id) !== "none") return true;
  return false;
}
`,
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "async-codemod-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.writeFileSync(path.join(dir, "package.json"), "{}");
  fs.symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("async-codemod", () => {
  it("converts the queries and their callers, and a second run changes nothing", () => {
    const first = run();
    expect(first.stdout).toContain("functions made async");
    const items = read("db/queries/items.ts");
    expect(items).toContain("export function normalise(name: string): string");
    expect(items).toMatch(
      /export async function getItem\(db: Db, id: string\): Promise<string \| null> \{\s*return gated\(db, async \(\) => \{/,
    );
    expect(items).toMatch(
      /return await withTransaction\(db, async \(tx\) => \{\s*await getItem\(tx, from\);\s*return await getItem\(tx, from\);/,
    );
    expect(items).toMatch(/import \{ gated, withTransaction \} from "\.\.\/transaction";/);
    const labels = read("lib/labels.ts");
    expect(labels).toContain("export async function label(db: Db, id: string): Promise<string>");
    expect(labels).toContain('return await getItem(db, id) ?? "none";');
    expect(labels).toMatch(/return await Promise\.all\(ids\.map\(async \(id\) => await getItem\(db, id\)\)\);/);
    expect(labels).toContain('if (await label(db, id) !== "none") return true;');
    expect(fs.existsSync(path.join(dir, "db/transaction.ts"))).toBe(true);

    const before = Object.keys(files).map(read);
    run();
    expect(Object.keys(files).map(read)).toEqual(before);
  }, 600_000);
});
