/**
 * The layer order of lib/ (scripts/domain-order.cjs) is enforced pair by pair: a fixture tree holds,
 * for every (lower, upper) pair, one module of the lower layer importing one of the upper layer —
 * half of them type-only, which counts too — plus one downward import that must stay allowed, a
 * lib/ module importing app/ and a layer importing an entry point. dependency-cruiser with the
 * project's own config must report each under its own rule.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const CRUISER = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");
const { DOMAIN_ORDER, orderRuleName } = createRequire(__filename)(path.join(ROOT, "scripts/domain-order.cjs")) as {
  DOMAIN_ORDER: { path: string }[];
  orderRuleName: (lower: string, upper: string) => string;
};

/** A module inside a layer (a folder gets a file of its own; a single-module layer is that module). */
const moduleIn = (layer: string, name: string) => (layer.endsWith(".ts") ? layer : `${layer}/${name}.ts`);
const specifier = (from: string, to: string) => {
  const rel = path.relative(path.dirname(from), to).replace(/\.ts$/, "");
  return rel.startsWith(".") ? rel : `./${rel}`;
};

const files = new Map<string, string>();
const planted: { rule: string; from: string; to: string }[] = [];
DOMAIN_ORDER.forEach((lower, i) => {
  for (const [j, upper] of DOMAIN_ORDER.slice(i + 1).entries()) {
    const target = moduleIn(upper.path, "target");
    const from = moduleIn(lower.path, `up-${i}-${j}`);
    // A single-module layer (lib/http.ts) holds every planted import of its own in one file.
    const typeOnly = (i + j) % 2 === 0;
    const line = typeOnly
      ? `import type { T } from "${specifier(from, target)}";\nexport type U${j} = T;\n`
      : `import { t } from "${specifier(from, target)}";\nexport const u${j} = t;\n`;
    files.set(from, (files.get(from) ?? "") + line);
    planted.push({ rule: orderRuleName(lower.path, upper.path), from, to: target });
  }
});
for (const layer of DOMAIN_ORDER) {
  const target = moduleIn(layer.path, "target");
  files.set(target, `${files.get(target) ?? ""}export const t = 1;\nexport type T = number;\n`);
}
// Allowed: the top layer imports the bottom one.
files.set("lib/use-cases/down.ts", `import { t } from "../net/target";\nexport const down = t;\n`);
files.set("app/page-helper.ts", "export const helper = 1;\n");
files.set("lib/agent/to-app.ts", `import { helper } from "../../app/page-helper";\nexport const x = helper;\n`);
files.set("lib/lane/entry.ts", "export const entry = 1;\n");
files.set("lib/runtime/to-lane.ts", `import { entry } from "../lane/entry";\nexport const y = entry;\n`);

let dir = "";

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-layer-order-"));
  fs.copyFileSync(path.join(ROOT, ".dependency-cruiser.cjs"), path.join(dir, ".dependency-cruiser.cjs"));
  fs.mkdirSync(path.join(dir, "scripts"));
  fs.copyFileSync(path.join(ROOT, "scripts/domain-order.cjs"), path.join(dir, "scripts/domain-order.cjs"));
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@/*": ["./*"] } } }));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  for (const [file, text] of files) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the layer order of lib/", () => {
  it("reports every upward pair under its own rule, and allows a downward import", () => {
    const result = spawnSync(process.execPath, [CRUISER, "--config", ".dependency-cruiser.cjs", "--output-type", "err", "app", "lib"], {
      cwd: dir,
      encoding: "utf8",
    });
    const out = result.stdout + result.stderr;
    expect(result.status).not.toBe(0);
    // 15 layers: 105 pairs, each broken once.
    expect(planted.length).toBe((DOMAIN_ORDER.length * (DOMAIN_ORDER.length - 1)) / 2);
    const missing = planted.filter((p) => !out.includes(`${p.rule}: ${p.from} → ${p.to}`));
    expect(missing).toEqual([]);
    expect(out).not.toContain("lib/use-cases/down.ts");
    expect(out).toContain("lib-never-imports-app: lib/agent/to-app.ts → app/page-helper.ts");
    expect(out).toContain("entries-stay-on-top: lib/runtime/to-lane.ts → lib/lane/entry.ts");
  });
});
