/**
 * The import-boundary rules (.dependency-cruiser.cjs) catch each kind of violation they exist for:
 * run dependency-cruiser with the project's config over a small fixture tree that breaks every rule
 * once, plus one type-only import from client code that must stay allowed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const CRUISER = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");

const FILES: Record<string, string> = {
  "db/queries/chats.ts": `import type { Turn } from "../../lib/agent/turn";\nexport type Row = Turn;\n`,
  "lib/agent/turn.ts": "export type Turn = { id: string };\n",
  "lib/errors.ts": `import { NetError } from "./net/errors";\nexport const E = NetError;\n`,
  "lib/net/errors.ts": "export class NetError extends Error {}\n",
  "lib/mcp/pool.ts": `import { NextResponse } from "next/server";\nexport const r = NextResponse;\n`,
  "lib/runtime/engine.ts": "export const pool = 1;\n",
  // Only db/ builds SQL: lib/ reaches neither drizzle nor the tables, not even for a type.
  "db/schema.ts": "export const users = 1;\n",
  "lib/models/defaults.ts": `import { eq } from "drizzle-orm";\nimport type { users } from "../../db/schema";\nexport const q: typeof users | typeof eq = eq;\n`,
  "lib/runtime/view.ts": "export type View = { id: string };\n",
  "app/_components/panel.tsx": `"use client";\nimport { pool } from "@/lib/runtime/engine";\nimport type { View } from "@/lib/runtime/view";\nexport const p: View | number = pool;\n`,
  "lib/auth/a.ts": `import { b } from "./b";\nexport const a = () => b;\n`,
  "lib/auth/b.ts": `import { a } from "./a";\nexport const b = () => a;\n`,
  // OAuth: the shared part imports neither flow; the web and headless flows never import each other,
  // and the command line does not reach the web flow even through a module in between.
  "lib/oauth/shared/provider.ts": `import { flow } from "../web/flow";\nexport const provider = flow;\n`,
  "lib/oauth/web/flow.ts": `import { authorizer } from "../headless/authorizer";\nexport const flow = authorizer;\n`,
  "lib/oauth/headless/authorizer.ts": "export const authorizer = 1;\n",
  "lib/oauth/headless/memory-store.ts": `import { deps } from "../web/deps";\nexport const store = deps;\n`,
  "lib/oauth/web/deps.ts": "export const deps = 1;\n",
  "lib/cli/main.ts": `import { relay } from "./relay";\nexport const main = relay;\n`,
  "lib/cli/relay.ts": `import { wiring } from "../runtime/wiring";\nexport const relay = wiring;\n`,
  "lib/runtime/wiring.ts": `import { deps } from "../oauth/web/deps";\nexport const wiring = deps;\n`,
  // The direct lane: a route module names the lane's contract types only; the table (app/_direct) loads its code.
  "lib/lane/contract.ts": "export type LaneAnswer = { body: unknown };\n",
  "lib/lane/lane-table.ts": "export type DirectRoute = { path: string };\nexport const laneTable = () => [];\n",
  "app/api/fast/route.ts": `import type { LaneAnswer } from "@/lib/lane/contract";\nimport { laneTable } from "@/lib/lane/lane-table";\nexport const a: LaneAnswer | unknown = laneTable;\n`,
  "app/api/peek/route.ts": `import type { DirectRoute } from "@/lib/lane/lane-table";\nexport type R = DirectRoute;\n`,
  "app/_direct/routes.ts": `import { laneTable } from "@/lib/lane/lane-table";\nexport const DIRECT_ROUTES = laneTable();\n`,
};

let dir = "";

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-boundaries-"));
  fs.copyFileSync(path.join(ROOT, ".dependency-cruiser.cjs"), path.join(dir, ".dependency-cruiser.cjs"));
  fs.mkdirSync(path.join(dir, "scripts"));
  fs.copyFileSync(path.join(ROOT, "scripts/domain-order.cjs"), path.join(dir, "scripts/domain-order.cjs"));
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@/*": ["./*"] } } }));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("import boundaries", () => {
  it("reports each violation under its rule, and allows type-only imports from client code", () => {
    const result = spawnSync(
      process.execPath,
      [CRUISER, "--config", ".dependency-cruiser.cjs", "--output-type", "err", "app", "lib", "db"],
      {
        cwd: dir,
        encoding: "utf8",
      },
    );
    const out = result.stdout + result.stderr;
    expect(result.status).not.toBe(0);
    expect(out).toContain("db-is-the-bottom: db/queries/chats.ts → lib/agent/turn.ts");
    expect(out).toContain("leaves-are-leaves: lib/errors.ts → lib/net/errors.ts");
    expect(out).toMatch(/sql-stays-in-db: lib\/models\/defaults\.ts → \S*node_modules\/drizzle-orm\//);
    expect(out).toContain("sql-stays-in-db: lib/models/defaults.ts → db/schema.ts");
    expect(out).toMatch(/engine-is-standalone: lib\/mcp\/pool\.ts → \S*node_modules\/next\//);
    expect(out).toContain("client-imports-browser-safe: app/_components/panel.tsx → lib/runtime/engine.ts");
    expect(out).toMatch(/no-circular: lib\/auth\/(a|b)\.ts →\s+lib\/auth\/(a|b)\.ts/);
    expect(out).toContain("oauth-shared-is-shared: lib/oauth/shared/provider.ts → lib/oauth/web/flow.ts");
    expect(out).toContain("oauth-web-not-headless: lib/oauth/web/flow.ts → lib/oauth/headless/authorizer.ts");
    expect(out).toContain("oauth-headless-not-web: lib/oauth/headless/memory-store.ts → lib/oauth/web/deps.ts");
    expect(out).toContain("cli-never-reaches-oauth-web: lib/cli/main.ts → lib/oauth/web/deps.ts");
    expect(out).toContain("lane-is-fenced: app/api/fast/route.ts → lib/lane/lane-table.ts");
    expect(out).toContain("lane-contract-only: app/api/peek/route.ts → lib/lane/lane-table.ts");
    expect(out).not.toContain("lib/lane/contract.ts");
    expect(out).not.toContain("app/_direct/routes.ts");
    expect(out).not.toContain("lib/runtime/view.ts");
  });
});
