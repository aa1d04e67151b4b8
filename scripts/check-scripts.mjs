#!/usr/bin/env node
// `npm run check:scripts`: the usual npm scripts catch what they exist for. In a throw-away copy of
// only the files they read (package.json, the tools' configs, node_modules linked), `format` fixes
// a badly formatted file, after which `lint`, `typecheck`, `check:boundaries` and `check:docs` pass
// on the clean copy; then one violation each is planted (a lint error, a type error, a boundary
// breach, a dead link) and each script must exit non-zero and name its own violation. Also checks that every npm script has a
// one-line description in package.json's "scripts-info" and a row in docs/testing.md.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const COPIED = [
  "package.json",
  "biome.json",
  "tsconfig.json",
  ".dependency-cruiser.cjs",
  ".gitignore",
  ".nvmrc",
  "scripts/check-boundaries.mjs",
  "scripts/domain-order.cjs",
  "scripts/check-docs.mjs",
];
// dependency-cruiser reads these folders; each gets one clean module (and app/ a client component,
// without which the config's list of client files would be empty).
const CLEAN = {
  "app/_components/badge.tsx": '"use client";\n\nexport const Badge = () => <span>ok</span>;\n',
  "app/page-data.ts": 'import { code } from "@/lib/errors";\n\nexport const title = code.toUpperCase();\n',
  "lib/errors.ts": 'export const code = "ok";\n',
  "lib/net/errors.ts": "export class NetError extends Error {}\n",
  "db/row.ts": "export type Row = { id: string };\n",
  "bin/cli.mjs": "export const cli = 1;\n",
};
const UNFORMATTED = {
  file: "lib/format-me.ts",
  text: "export const  spaced =  [1,2 ,3]\n",
  formatted: "export const spaced = [1, 2, 3];\n",
};
/** One violation per script, and the text its output must contain. */
const PLANTED = [
  {
    script: "lint",
    file: "lib/lint-error.ts",
    text: "export function same(a: number) {\n  return a == 1;\n}\n",
    expect: /lint-error\.ts.*noDoubleEquals/s,
  },
  { script: "typecheck", file: "lib/type-error.ts", text: 'export const count: number = "three";\n', expect: /type-error\.ts.*TS2322/ },
  {
    script: "check:boundaries",
    file: "lib/errors.ts",
    text: 'import { NetError } from "./net/errors";\n\nexport const code = NetError.name;\n',
    expect: /leaves-are-leaves: lib\/errors\.ts → lib\/net\/errors\.ts/,
  },
  {
    script: "check:docs",
    file: "README.md",
    text: "# Planted\n\nSee [the guide](docs/missing.md).\n",
    expect: /README\.md:3: dead link docs\/missing\.md/,
  },
];

const failures = [];
const fail = (message) => failures.push(message);

/** `npm run <script>` in `dir`, with the npm that started us when there is one. */
function npmRun(dir, script) {
  const cli = process.env.npm_execpath;
  const [command, args] = cli ? [process.execPath, [cli, "run", "--silent", script]] : ["npm", ["run", "--silent", script]];
  const result = spawnSync(command, args, { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { status: result.status, out: stripVTControlCharacters(`${result.stdout}${result.stderr}`) };
}

function write(dir, file, text) {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
}

function checkDescriptions() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const scripts = Object.keys(pkg.scripts);
  const described = Object.keys(pkg["scripts-info"] ?? {});
  const testing = fs.readFileSync(path.join(root, "docs/testing.md"), "utf8");
  for (const name of scripts) {
    if (!described.includes(name)) fail(`package.json "scripts-info" has no line for the script ${name}`);
    if (!testing.includes(`\`npm run ${name}\``) && !testing.includes(`\`npm ${name}\``))
      fail(`docs/testing.md does not list \`npm run ${name}\``);
  }
  for (const name of described) if (!scripts.includes(name)) fail(`package.json "scripts-info" describes ${name}, which is no script`);
}

function checkScripts() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-scripts-"));
  try {
    for (const file of COPIED) write(dir, file, fs.readFileSync(path.join(root, file), "utf8"));
    fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
    for (const [file, text] of Object.entries(CLEAN)) write(dir, file, text);
    write(dir, UNFORMATTED.file, UNFORMATTED.text);

    const unformatted = npmRun(dir, "lint");
    if (unformatted.status === 0 || !unformatted.out.includes("format-me.ts"))
      fail(`lint passed a badly formatted file:\n${unformatted.out}`);
    const format = npmRun(dir, "format");
    if (format.status !== 0) fail(`format failed on the clean copy:\n${format.out}`);
    if (fs.readFileSync(path.join(dir, UNFORMATTED.file), "utf8") !== UNFORMATTED.formatted)
      fail("format left the badly formatted file as it was");

    // Clean: each script passes, so a failure below comes from the planted violation.
    for (const { script } of PLANTED) {
      const clean = npmRun(dir, script);
      if (clean.status !== 0) fail(`${script} fails on the clean copy:\n${clean.out}`);
    }
    for (const { file, text } of PLANTED) write(dir, file, text);
    for (const { script, expect } of PLANTED) {
      const planted = npmRun(dir, script);
      if (planted.status === 0) fail(`${script} exited 0 with a planted violation`);
      else if (!expect.test(planted.out)) fail(`${script} failed without naming the planted violation (${expect}):\n${planted.out}`);
      else console.log(`check-scripts: npm run ${script} exits ${planted.status} on its planted violation`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

checkDescriptions();
checkScripts();
for (const message of failures) console.error(`check-scripts: ${message}`);
process.exit(failures.length ? 1 : 0);
