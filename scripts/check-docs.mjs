#!/usr/bin/env node
// `npm run check:docs`: the documentation says only what is true of the tree. README.md and
// docs/**/*.md are read outside fenced code blocks; each finding is one `file:line: …` line and the
// check exits 1 when there is any. It fails on:
//   - a relative link whose file is missing, or whose `#anchor` names no heading of its target
//     (GitHub's slugs: lower case, punctuation dropped, spaces to `-`, repeats get `-1`, `-2`…);
//   - a project path in backticks (`lib/mcp/pool.ts`, `scripts/`, `app/api/**/route.ts`) that
//     matches nothing; a bare file name (`pool.ts`) must name some file of the tree;
//   - a code symbol named in backticks that the code does not have: a call (`requireUser()`,
//     `pool.callTool(…)`) or a camelCase/PascalCase name (`appPool`) that neither the code (comments
//     included), its JSON configs nor a dependency's type declarations have; a symbol tied to a file
//     (`lib/x.ts`'s `name`, `name` in `lib/x.ts`, `lib/x.ts` (`name`), `lib/x.ts#name`) that that
//     file does not contain;
//   - an environment variable read by the code and missing from docs/configuration.md's
//     "Environment variables" tables, or listed there and read nowhere.
// docs/testing.md#the-docs-check explains each rule. `--root <dir>` checks another tree (the tests).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const argv = process.argv.slice(2);
const rootArg = argv.indexOf("--root");
const root = path.resolve(rootArg >= 0 ? argv[rootArg + 1] : path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));

/** Folders never read: dependencies, build output, runtime data. */
const SKIP_DIRS = new Set(["node_modules", ".git", ".next", "data", "test-results", "playwright-report", "coverage"]);
/** Top-level folders a backticked path must start with to be checked as a project path. */
const PATH_ROOTS = new Set(["lib", "app", "db", "scripts", "bin", "tests", "docs", "drizzle", "bench", "tools", ".ci"]);
/** Extensions a bare file name must have to be checked against the tree. */
const FILE_EXT = /^[\w-][\w.-]*\.(ts|tsx|mts|mjs|cjs|js|json|md|ya?ml|sql)$/;
const CODE_EXT = /\.(ts|tsx|mts|mjs|cjs|js)$/;
/** Where an environment variable read counts as the app's (tests and benchmarks may read their own). */
const ENV_READERS = ["lib", "app", "db", "scripts", "bin", "proxy.ts", "instrumentation.ts", "next.config.ts"];
const CONFIGURATION = "docs/configuration.md";

const findings = [];
const report = (file, line, message) => findings.push({ file, line, message });

/** Every file under the root, as `/`-separated relative paths. */
function walk(dir = "", found = []) {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(rel, found);
    else found.push(rel);
  }
  return found;
}
const FILES = walk();
const DIRS = new Set(
  FILES.flatMap((f) =>
    f
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
);
const BASENAMES = new Set(FILES.map((f) => f.split("/").pop()));
const exists = (rel) => FILES.includes(rel) || DIRS.has(rel);
const read = (rel) => fs.readFileSync(path.join(root, rel), "utf8");

/** Code without its comments (strings kept: a tool or variable name in a string is real use). */
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")).replace(/(^|[\s;{}(),])\/\/.*$/gm, "$1");
}
const codeCache = new Map();
const code = (rel) => {
  if (!codeCache.has(rel)) codeCache.set(rel, stripComments(read(rel)));
  return codeCache.get(rel);
};
const CODE_FILES = FILES.filter((f) => CODE_EXT.test(f) && !f.startsWith("docs/"));
let knownWords;
/** Every identifier of the code with its comments, and of the root's JSON configs. */
function wordsKnown() {
  knownWords ??= new Set(
    [...CODE_FILES, ...FILES.filter((f) => !f.includes("/") && f.endsWith(".json"))].flatMap(
      (f) => read(f).match(/[A-Za-z_$][\w$]*/g) ?? [],
    ),
  );
  return knownWords;
}
const declaredCache = new Map();
/** Whether a dependency's type declarations name `word` (the SDK, Node, the DOM, TypeScript's options). */
function declaredByDependency(word) {
  if (!declaredCache.has(word)) {
    const search = fs.existsSync(path.join(root, "node_modules"))
      ? spawnSync("grep", ["-rlw", "-m1", "--include=*.d.ts", word, "node_modules"], { cwd: root, encoding: "utf8" })
      : null;
    declaredCache.set(word, Boolean(search?.stdout?.trim()));
  }
  return declaredCache.get(word);
}
const hasWord = (text, word) => new RegExp(`(^|[^\\w$])${word.replace(/\$/g, "\\$")}($|[^\\w$])`).test(text);

// --- Markdown -------------------------------------------------------------------------------------

/** The lines of a Markdown file with fenced code blocks blanked (their text is not prose). */
function proseLines(text) {
  let fence = null;
  return text.split("\n").map((line) => {
    const open = line.match(/^\s*(```+|~~~+)/);
    if (fence) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = null;
      return "";
    }
    if (open) {
      fence = open[1];
      return "";
    }
    return line;
  });
}

/** GitHub's anchor for a heading's text. */
function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

const anchorCache = new Map();
/** The anchors a Markdown file offers: its headings' slugs (repeats numbered) and explicit ids. */
function anchorsOf(rel) {
  if (anchorCache.has(rel)) return anchorCache.get(rel);
  const seen = new Map();
  const anchors = new Set();
  for (const line of proseLines(read(rel))) {
    const heading = line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/);
    if (heading) {
      const base = slug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n ? `${base}-${n}` : base);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]);
  }
  anchorCache.set(rel, anchors);
  return anchors;
}

/** Inline code spans of a line: a run of backticks up to the next run of the same length. */
function codeSpans(line) {
  const spans = [];
  const runs = [...line.matchAll(/`+/g)];
  for (let i = 0; i < runs.length; i++) {
    const close = runs.findIndex((run, j) => j > i && run[0].length === runs[i][0].length);
    if (close < 0) continue;
    const start = runs[i].index;
    const end = runs[close].index + runs[close][0].length;
    spans.push({ text: line.slice(start + runs[i][0].length, runs[close].index).trim(), index: start, end });
    i = close;
  }
  return spans;
}
/** A line with its code spans blanked. */
const withoutCode = (line) => codeSpans(line).reduceRight((text, span) => text.slice(0, span.index) + text.slice(span.end), line);

function checkLinks(rel, lines) {
  const dir = path.posix.dirname(rel);
  lines.forEach((line, i) => {
    const noCode = withoutCode(line);
    const targets = [...noCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
    const reference = noCode.match(/^\s*\[[^\]]+\]:\s*(\S+)/);
    if (reference) targets.push(reference[1]);
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue; // http:, mailto:…
      const [filePart, anchor] = target.split("#");
      const file = filePart ? path.posix.normalize(path.posix.join(dir, decodeURIComponent(filePart))).replace(/\/$/, "") : rel;
      if (file.startsWith("../") || !exists(file)) {
        report(rel, i + 1, `dead link ${target}: ${file} does not exist`);
        continue;
      }
      if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(file).has(decodeURIComponent(anchor).toLowerCase()))
        report(rel, i + 1, `dead link ${target}: no heading "#${anchor}" in ${file}`);
    }
  });
}

/** A segment pattern (`*`, `**`, `<name>`, `{a,b}`, `…`) as a regular expression, else null. */
function segmentPattern(segment) {
  if (!/[*<{…]|\.\.\./.test(segment)) return null;
  let source = "";
  for (const part of segment.split(/(\*+|<[^>]*>|\{[^}]*\}|…|\.\.\.)/)) {
    if (!part) continue;
    if (/^\*+$|^<.*>$|^…$|^\.\.\.$/.test(part)) source += "[^/]*";
    else if (part.startsWith("{")) source += `(${part.slice(1, -1).split(",").map(escapeRegExp).join("|")})`;
    else source += escapeRegExp(part);
  }
  return source;
}
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether a backticked project path names something in the tree. */
function pathExists(candidate) {
  const clean = candidate.replace(/\/$/, "");
  if (exists(clean)) return true;
  // A module specifier without its extension (`lib/errors`).
  if (!/\.[a-z]+$/.test(clean) && [".ts", ".tsx", ".mjs", "/index.ts"].some((ext) => exists(clean + ext))) return true;
  const segments = clean.split("/");
  if (!segments.some(segmentPattern)) return false;
  const source = segments.map((s) => (s === "**" ? ".*" : (segmentPattern(s) ?? escapeRegExp(s)))).join("/");
  const pattern = new RegExp(`^${source.replace(/\/\.\*\//g, "(/.*)?/")}(/|$)`);
  return FILES.some((f) => pattern.test(f)) || [...DIRS].some((d) => pattern.test(d));
}

/** A code span as a project path to check, or null when it is something else (a URL, a command…). */
function asProjectPath(span) {
  const text = span
    .replace(/^@\//, "")
    .replace(/:\d+(-\d+)?$/, "")
    .replace(/#.*$/, "");
  if (!/^[\w.@()[\]{}*<>,…-]+(\/[\w.@()[\]{}*<>,…-]*)*$/.test(text)) return null;
  const first = text.split("/")[0];
  // `tools/call` is an MCP method, not the tools/ folder: there a path needs an extension or a final `/`.
  if (first === "tools" && !/(\.[a-z]+|\/)$/.test(text)) return null;
  if (text.includes("/")) return PATH_ROOTS.has(first) ? { kind: "path", text } : null;
  // A capitalised word before the dot is a member (`Response.json`), not a file name.
  if (/^[A-Z][a-z]/.test(text)) return null;
  return FILE_EXT.test(text) && !/[*<{…]/.test(text) ? { kind: "file", text } : null;
}

/** `name(…)` or `a.b.name(…)`: the called name, else null. */
const calledName = (span) => span.match(/^(?:new\s+)?(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)\(.*\)$/)?.[1] ?? null;
const IDENTIFIER = /^(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)(\(.*\))?$/;

/** Paths in plain prose (`see docs/limits.md#quotas`, `(lib/mcp/pool.ts)`): outside code spans and links. */
function checkProsePaths(rel, lines) {
  const roots = [...PATH_ROOTS]
    .filter((r) => r !== "tools")
    .map(escapeRegExp)
    .join("|");
  const mention = new RegExp(`(?<![\\w/.:@-])(?:${roots})/[\\w./\\[\\]()-]*[\\w/\\]](?:#[\\w-]+)?`, "g");
  lines.forEach((line, i) => {
    const prose = withoutCode(line)
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1 ")
      .replace(/<[^>]+>/g, "");
    for (const [text] of prose.matchAll(mention)) {
      const [file, anchor] = text.replace(/[.)]+$/, "").split("#");
      if (!pathExists(file)) report(rel, i + 1, `${file} names no file or folder`);
      else if (anchor && file.endsWith(".md") && !anchorsOf(file).has(anchor.toLowerCase()))
        report(rel, i + 1, `${file}#${anchor}: no such heading in ${file}`);
    }
  });
}

/** The spans of a line tied to a source file: "`file`'s `name`", "`name` in `file`", "`file` (`name`)", "`file` `name`". */
function tiedSymbols(line, spans) {
  const tied = new Map();
  spans.forEach((span, k) => {
    const next = spans[k + 1];
    if (!next) return;
    const between = line.slice(span.end, next.index);
    let pair = null;
    if (/^'s\s+$|^\s+\(?$/.test(between)) pair = { file: span.text, symbol: next };
    else if (/^\s+(in|from)\s+$/.test(between)) pair = { file: next.text, symbol: span };
    if (pair && CODE_EXT.test(pair.file) && pair.file.includes("/") && exists(pair.file) && !tied.has(pair.symbol))
      tied.set(pair.symbol, pair.file);
  });
  return tied;
}

function checkPathsAndSymbols(rel, lines) {
  lines.forEach((line, i) => {
    const spans = codeSpans(line);
    const tied = tiedSymbols(line, spans);
    for (const span of spans) {
      const asPath = asProjectPath(span.text);
      if (asPath?.kind === "path" && !pathExists(asPath.text)) report(rel, i + 1, `\`${span.text}\` names no file or folder`);
      if (asPath?.kind === "file" && !BASENAMES.has(asPath.text)) report(rel, i + 1, `\`${span.text}\` names no file of the tree`);
      // `lib/x.ts#name`: the file must have the symbol.
      const hashed = span.text.match(/^([\w./[\]()-]+\.(?:ts|tsx|mts|mjs|cjs|js))#([A-Za-z_$][\w$]*)$/);
      if (hashed && exists(hashed[1]) && !hasWord(code(hashed[1]), hashed[2]))
        report(rel, i + 1, `\`${hashed[2]}\` is not in ${hashed[1]}`);

      const file = tied.get(span);
      if (file) {
        const name = span.text.match(IDENTIFIER)?.[1];
        if (name && !hasWord(code(file), name)) report(rel, i + 1, `\`${name}\` is not in ${file}`);
        continue;
      }
      const called = calledName(span.text);
      if (called && !wordsKnown().has(called) && !declaredByDependency(called))
        report(rel, i + 1, `\`${span.text}\`: no \`${called}\` in the code or its dependencies`);
      // A bare camelCase or PascalCase name (`appPool`, `ManagedServer`): a word of ours or of a dependency.
      const bare = /^(?:[a-z][a-z0-9]*|[A-Z][a-z0-9]+)(?:[A-Z][a-z0-9]*)+$/.test(span.text);
      if (bare && !wordsKnown().has(span.text) && !declaredByDependency(span.text))
        report(rel, i + 1, `\`${span.text}\` is no name of the code, its configs or its dependencies`);
    }
  });
}

// --- Environment variables ------------------------------------------------------------------------

const ENV_NAME = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^(PORT|HOSTNAME|PATH|HOME|CI)$|^npm_[a-z_]+$/;
/** Names the code reads: `process.env.X` and `env.X` (not written, unless `writes`), `env["X"]`, and
 *  the app's own `SWITCHBOARD_…`/`NEXTAUTH_…` names as string literals (tables of variables read by key). */
function envReads(files, { writes = false } = {}) {
  const reads = new Map();
  const add = (name, file, index, text) => {
    if (!reads.has(name)) reads.set(name, `${file}:${text.slice(0, index).split("\n").length}`);
  };
  for (const file of files) {
    const text = code(file);
    for (const m of text.matchAll(/\benv\??\.([A-Za-z_][A-Za-z0-9_]*)\b(\s*=[^=])?/g))
      if (ENV_NAME.test(m[1]) && (writes || !m[2])) add(m[1], file, m.index, text);
    for (const m of text.matchAll(/\benv\[\s*["'`]([A-Za-z_][A-Za-z0-9_]*)["'`]\s*\](?!\s*=[^=])/g)) add(m[1], file, m.index, text);
    for (const m of text.matchAll(/["'`]((?:SWITCHBOARD|NEXTAUTH)_[A-Z0-9_]+)["'`]/g)) add(m[1], file, m.index, text);
  }
  return reads;
}

/** Variables in the first column of the tables under configuration.md's "Environment variables". */
function documentedEnv() {
  const documented = new Map();
  if (!exists(CONFIGURATION)) return documented;
  let inside = false;
  proseLines(read(CONFIGURATION)).forEach((line, i) => {
    if (/^##\s/.test(line)) inside = /^##\s+Environment variables\s*$/i.test(line);
    if (!inside || !line.startsWith("|")) return;
    const first = line.split("|")[1] ?? "";
    for (const span of codeSpans(first)) if (ENV_NAME.test(span.text)) documented.set(span.text, i + 1);
  });
  return documented;
}

function checkEnv() {
  const inScope = (f) => ENV_READERS.some((r) => f === r || f.startsWith(`${r}/`));
  const read = envReads(CODE_FILES.filter(inScope));
  // Documented and only set (AUTH_TRUST_HOST, set for next-auth) is still in use.
  const readAnywhere = envReads(CODE_FILES, { writes: true });
  const documented = documentedEnv();
  for (const [name, where] of read)
    if (!documented.has(name)) {
      const [file, line] = where.split(":");
      report(file, Number(line), `${name} is read here but not documented in ${CONFIGURATION}`);
    }
  for (const [name, line] of documented)
    if (!readAnywhere.has(name)) report(CONFIGURATION, line, `${name} is documented but no code reads it`);
}

// --- Run ------------------------------------------------------------------------------------------

const DOCS = FILES.filter((f) => f === "README.md" || (f.startsWith("docs/") && f.endsWith(".md")));
for (const rel of DOCS) {
  const lines = proseLines(read(rel));
  checkLinks(rel, lines);
  checkPathsAndSymbols(rel, lines);
  checkProsePaths(rel, lines);
}
checkEnv();

findings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
for (const { file, line, message } of findings) console.error(`${file}:${line}: ${message}`);
console.log(`check-docs: ${DOCS.length} pages, ${findings.length} finding${findings.length === 1 ? "" : "s"}`);
process.exit(findings.length ? 1 : 0);
