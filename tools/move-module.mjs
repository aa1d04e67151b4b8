#!/usr/bin/env node
/**
 * Moves project modules and rewrites every import of them, so a move is one command and one commit.
 *
 *   node tools/move-module.mjs <from> <to> [<from> <to> …]
 *
 * Each pair is a file or a folder (a folder moves with everything under it). The files are moved
 * with `git mv`; then every import specifier in the project (static and dynamic `import`, `export …
 * from`, `require`, `vi.mock`/`vi.importActual`) that points at a moved file is rewritten, keeping
 * its style: `@/…` stays an alias path, a relative path is recomputed from the importing file. The
 * moved files' own relative imports are recomputed too. Paths named in Markdown are left to the
 * docs check (`npm run check:docs`), which fails on each one that no longer exists.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = process.cwd();
const SCANNED = [
  "app",
  "lib",
  "db",
  "bin",
  "scripts",
  "tests",
  "bench",
  "tools",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
  "vitest.config.mts",
  "playwright.config.ts",
  "drizzle.config.ts",
];
const SOURCE = /\.(ts|tsx|mts|mjs|cjs|js)$/;
const EXTENSIONS = ["", ".ts", ".tsx", ".mts", ".mjs", ".js", "/index.ts", "/index.tsx"];
const SPECIFIER = /((?:from|import|require|vi\.mock|vi\.importActual|vi\.doMock)\s*\(?\s*)(["'])([^"'\n]+)\2/g;

function walk(entry, found = []) {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return found;
  if (fs.statSync(full).isFile()) {
    if (SOURCE.test(entry)) found.push(entry);
    return found;
  }
  for (const child of fs.readdirSync(full)) {
    if (child === "node_modules" || child === ".next") continue;
    walk(path.join(entry, child), found);
  }
  return found;
}

/** The project file a specifier points at, relative to the root, or undefined (a package). */
function resolveSpecifier(fromFile, spec) {
  let base;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith("./") || spec.startsWith("../")) base = path.join(path.dirname(fromFile), spec);
  else return undefined;
  for (const ext of EXTENSIONS) {
    const candidate = path.normalize(base + ext);
    if (fs.existsSync(path.join(ROOT, candidate)) && fs.statSync(path.join(ROOT, candidate)).isFile()) return { file: candidate, ext };
  }
  return undefined;
}

/** The specifier for `targetFile` from `fromFile`, in the style of `original`. */
function specifierFor(fromFile, targetFile, original, ext) {
  let target = targetFile;
  // Keep the original's extension habits: drop what the resolver added.
  if (ext && target.endsWith(ext)) target = target.slice(0, -ext.length);
  else if (ext.startsWith("/index")) target = path.dirname(targetFile);
  if (original.startsWith("@/")) return `@/${target.split(path.sep).join("/")}`;
  let rel = path.relative(path.dirname(fromFile), target).split(path.sep).join("/");
  if (!rel.startsWith(".")) rel = `./${rel}`;
  return rel;
}

const pairs = process.argv.slice(2);
if (pairs.length === 0 || pairs.length % 2 !== 0) {
  console.error("usage: node tools/move-module.mjs <from> <to> [<from> <to> …]");
  process.exit(2);
}

// Old file → new file, for every file under each moved path.
const moved = new Map();
for (let i = 0; i < pairs.length; i += 2) {
  const from = path.normalize(pairs[i]);
  const to = path.normalize(pairs[i + 1]);
  const full = path.join(ROOT, from);
  if (!fs.existsSync(full)) throw new Error(`${from} does not exist`);
  if (fs.statSync(full).isFile()) moved.set(from, to);
  else for (const file of walk(from)) moved.set(file, path.join(to, path.relative(from, file)));
}

// Read every importer's specifiers while the old paths still resolve.
const files = SCANNED.flatMap((entry) => walk(entry));
const edits = new Map();
for (const file of files) {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const newFile = moved.get(file) ?? file;
  let changed = false;
  const next = text.replace(SPECIFIER, (whole, lead, quote, spec) => {
    const resolved = resolveSpecifier(file, spec);
    if (!resolved) return whole;
    const target = moved.get(resolved.file) ?? resolved.file;
    if (target === resolved.file && newFile === file) return whole;
    const rewritten = specifierFor(newFile, target, spec, resolved.ext);
    if (rewritten === spec) return whole;
    changed = true;
    return `${lead}${quote}${rewritten}${quote}`;
  });
  if (changed) edits.set(newFile, next);
}

for (let i = 0; i < pairs.length; i += 2) {
  fs.mkdirSync(path.dirname(path.join(ROOT, pairs[i + 1])), { recursive: true });
  execFileSync("git", ["mv", pairs[i], pairs[i + 1]], { stdio: "inherit" });
}
for (const [file, text] of edits) fs.writeFileSync(path.join(ROOT, file), text);
console.log(`moved ${moved.size} file(s); rewrote imports in ${edits.size} file(s)`);
