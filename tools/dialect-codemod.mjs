#!/usr/bin/env node
/**
 * The dialect-neutral execution codemod (issue 26; the pass after tools/async-codemod.mjs): rewrites
 * better-sqlite3's synchronous execution of drizzle query builders, which node-postgres builders do
 * not have, into the helpers of db/exec.ts (written from tools/dialect-codemod/), awaited:
 *
 *   q.get()            -> await one(q)        first row or undefined
 *   q.all()            -> await all(q)        the rows
 *   q.run().changes    -> await exec(q)       rows changed (SQLite `changes`, Postgres `rowCount`)
 *   q.run();           -> await exec(q);
 *
 * Only builders of drizzle's SQLite query builders are touched (found by the type checker, not by
 * name), and only where the enclosing function is already async (the async codemod made every query
 * function so). Everything else is listed for a hand: synchronous functions (and the synchronous
 * driver-level transactions kept by the async codemod), `.values()`, a `.run()` result used for
 * something else than `.changes`, prepared statements. Last it lists the query functions that now
 * yield between a read and a later write (atomic while synchronous on SQLite; check each).
 *
 *   node tools/dialect-codemod.mjs [--root <dir>] [--dry-run] [--no-format]
 *
 * Re-runnable: a converted site is no builder call any more, so a second run changes nothing.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(option("--root", path.join(here, "..")));
const dryRun = args.includes("--dry-run");
const noFormat = args.includes("--no-format");
const require = createRequire(path.join(root, "package.json"));
const ts = require("typescript");

const HELPERS_FILE = "db/exec.ts";
const HELPERS_TEST = "tests/integration/db/exec.test.ts";
const TEMPLATES = path.join(here, "dialect-codemod");
// drizzle's SQLite query builders (select, insert, update, delete, relational query, raw).
const SQLITE_BUILDERS = /\/node_modules\/drizzle-orm\/sqlite-core\/query-builders\//;
const HELPER_OF = { get: "one", all: "all", run: "exec" };
// Test callbacks the runner awaits: made async when a converted site sits directly in one.
const TEST_HOOKS = new Set(["it", "test", "beforeAll", "beforeEach", "afterAll", "afterEach"]);

const rel = (file) => path.relative(root, file).split(path.sep).join("/");
const log = (...m) => console.log("dialect-codemod:", ...m);

/** What the run left for a hand, for the report. */
const manual = [];
const note = (sf, node, why) => {
  const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  const key = `${rel(sf.fileName)}:${line + 1}: ${why}`;
  if (!manual.includes(key)) manual.push(key);
};

// ---------------------------------------------------------------------------------------------
// Program

function makeProgram() {
  const configPath = path.join(root, "tsconfig.json");
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const tools = path.join(root, "tools") + path.sep;
  const files = parsed.fileNames.filter((f) => !f.includes(`${path.sep}.next${path.sep}`) && !f.startsWith(tools));
  return ts.createProgram({ rootNames: files, options: { ...parsed.options, incremental: false, noEmit: true } });
}

const projectFiles = (program) =>
  program.getSourceFiles().filter((sf) => !sf.isDeclarationFile && !sf.fileName.includes("/node_modules/") && sf.fileName.startsWith(root));

// ---------------------------------------------------------------------------------------------
// Edits: insertions and replacements, applied from the end of each file.

class Edits {
  constructor() {
    this.byFile = new Map();
  }
  insert(sf, pos, text, rank = 0) {
    this.list(sf).push({ pos, end: pos, text, rank });
  }
  replace(sf, pos, end, text) {
    this.list(sf).push({ pos, end, text, rank: 0 });
  }
  list(sf) {
    if (!this.byFile.has(sf.fileName)) this.byFile.set(sf.fileName, { sf, edits: [] });
    return this.byFile.get(sf.fileName).edits;
  }
  /** Apply every edit; returns the files changed. */
  apply() {
    const changed = [];
    for (const [file, { sf, edits }] of this.byFile) {
      let text = sf.getFullText();
      const sorted = edits.map((e, i) => ({ ...e, i })).sort((a, b) => b.pos - a.pos || b.rank - a.rank || b.i - a.i);
      for (const e of sorted) text = text.slice(0, e.pos) + e.text + text.slice(e.end);
      if (!dryRun) fs.writeFileSync(file, text);
      changed.push(file);
    }
    return changed;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers over the AST

const isFunctionLike = (n) =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n) ||
  ts.isConstructorDeclaration(n);

function enclosingFunction(node) {
  for (let n = node.parent; n; n = n.parent) if (isFunctionLike(n)) return n;
  return undefined;
}

const isAsync = (fn) => !!fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);

function nameOf(fn) {
  if (fn.name) return fn.name.getText();
  const p = fn.parent;
  if (ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (ts.isPropertyAssignment(p)) return p.name.getText();
  if (ts.isCallExpression(p)) return `callback of ${p.expression.getText().split("\n")[0].slice(-40)}()`;
  return "an anonymous function";
}

/** Whether `expr` must be parenthesised once awaited (it is the object of a member access or a call). */
function needsParens(expr) {
  const p = expr.parent;
  return (
    (ts.isPropertyAccessExpression(p) && p.expression === expr) ||
    (ts.isElementAccessExpression(p) && p.expression === expr) ||
    (ts.isCallExpression(p) && p.expression === expr) ||
    ts.isNonNullExpression(p) ||
    (ts.isTaggedTemplateExpression(p) && p.tag === expr)
  );
}

/** `X.get()` / `.all()` / `.run()` / `.values()` with no argument on one of drizzle's SQLite builders. */
function builderCall(checker, n) {
  if (!ts.isCallExpression(n) || n.arguments.length !== 0 || !ts.isPropertyAccessExpression(n.expression)) return undefined;
  const method = n.expression.name.text;
  if (!["get", "all", "run", "values"].includes(method)) return undefined;
  const symbol = checker.getSymbolAtLocation(n.expression.name);
  const decls = symbol?.declarations ?? [];
  if (!decls.some((d) => SQLITE_BUILDERS.test(d.getSourceFile().fileName.split(path.sep).join("/")))) return undefined;
  return { call: n, method, receiver: n.expression.expression };
}

/** A `x.transaction(cb)` call on a drizzle handle whose callback is `fn` (a synchronous driver-level transaction). */
function isDriverTransactionBody(checker, fn) {
  const call = fn.parent;
  if (!call || !ts.isCallExpression(call) || !call.arguments.includes(fn)) return false;
  if (!ts.isPropertyAccessExpression(call.expression) || call.expression.name.text !== "transaction") return false;
  const type = checker.getTypeAtLocation(call.expression.expression);
  return !!type.getProperty("select") && !!type.getProperty("insert");
}

/** The body of a `withTransaction(db, async (tx) => …)` call (the port of db/transaction.ts). */
function isPortBody(fn) {
  const call = fn.parent;
  return !!call && ts.isCallExpression(call) && call.arguments.includes(fn) && call.expression.getText() === "withTransaction";
}

/** A callback the test runner awaits (`it("…", () => …)`): it may become async. */
function isTestCallback(fn) {
  const call = fn.parent;
  return (
    (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) &&
    ts.isCallExpression(call) &&
    call.arguments.includes(fn) &&
    TEST_HOOKS.has(call.expression.getText().split(".")[0])
  );
}

function mayBeUndefined(type) {
  if (type.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Void)) return true;
  return type.isUnion() && type.types.some(mayBeUndefined);
}

/** A name visible at `node` that is not the helper of that name (a local `all`, say). */
function shadows(checker, node, name, helpersFile) {
  const symbols = checker.getSymbolsInScope(node, ts.SymbolFlags.Value);
  const found = symbols.find((s) => s.name === name);
  if (!found) return false;
  let target = found;
  if (target.flags & ts.SymbolFlags.Alias) target = checker.getAliasedSymbol(target);
  const decl = target.declarations?.[0];
  return !decl || rel(decl.getSourceFile().fileName) !== helpersFile;
}

// ---------------------------------------------------------------------------------------------
// The rewrite

const stats = { one: 0, all: 0, exec: 0, left: 0, asyncTests: 0 };

function rewrite(program, edits) {
  const checker = program.getTypeChecker();
  const madeAsync = new Set();
  const readThenWrite = [];
  for (const sf of projectFiles(program)) {
    const file = rel(sf.fileName);
    if (file === HELPERS_FILE) continue;
    const wanted = new Set();
    // Per async function: the order of its converted reads and writes (for the yield report).
    const sequence = new Map();
    const visit = (n) => {
      const site = builderCall(checker, n);
      if (site) convert(sf, site, wanted, sequence);
      ts.forEachChild(n, visit);
    };
    visit(sf);
    for (const [fn, kinds] of sequence) {
      const firstRead = kinds.indexOf("read");
      if (firstRead >= 0 && kinds.lastIndexOf("write") > firstRead) readThenWrite.push({ sf, fn, inTransaction: isPortBody(fn) });
    }
    if (wanted.size) addImport(sf, edits, wanted);
  }
  return readThenWrite;

  function convert(sf, { call, method, receiver }, wanted, sequence) {
    const fn = enclosingFunction(call);
    const leave = (why) => {
      stats.left++;
      note(sf, call, why);
    };
    if (method === "values") return leave(".values() (arrays of column values): no neutral helper; select the columns instead (manual)");
    if (!fn) return leave(`top-level .${method}(): no async function to await in (manual)`);
    const helper = HELPER_OF[method];
    // `.run().changes` is what `exec` resolves to; any other use of the run result needs a hand.
    let whole = call;
    if (method === "run") {
      const p = call.parent;
      if (ts.isPropertyAccessExpression(p) && p.expression === call && p.name.text === "changes") whole = p;
      else if (!ts.isExpressionStatement(p))
        return leave(".run() whose result is used for something else than .changes (lastInsertRowid?): manual");
    }
    if (!isAsync(fn) && !madeAsync.has(fn)) {
      if (isDriverTransactionBody(checker, fn))
        return leave(
          `.${method}() in a synchronous driver-level transaction (kept for SQLite; its Postgres form awaits inside withTransaction)`,
        );
      if (!isTestCallback(fn))
        return leave(`.${method}() in the synchronous ${nameOf(fn)}: make it async (or move it into a query function) by hand`);
    }
    if (shadows(checker, call, helper, HELPERS_FILE)) return leave(`a local name \`${helper}\` hides the helper (manual)`);
    if (!isAsync(fn) && !madeAsync.has(fn)) {
      // A test callback: the runner awaits what it returns.
      madeAsync.add(fn);
      stats.asyncTests++;
      edits.insert(sf, fn.getStart(sf), "async ", -10);
    }
    // `.get()` typed without undefined (a write's `.returning()` row): `one` may answer undefined,
    // so the same promise the driver's typing made is kept with `!`.
    const bang = method === "get" && !mayBeUndefined(checker.getTypeAtLocation(call));
    const paren = bang || needsParens(whole);
    edits.insert(sf, receiver.getStart(sf), `${paren ? "(" : ""}await ${helper}(`, -1);
    edits.replace(sf, receiver.end, whole.end, paren ? `))${bang ? "!" : ""}` : ")");
    wanted.add(helper);
    stats[helper]++;
    if (!sequence.has(fn)) sequence.set(fn, []);
    sequence.get(fn).push(method === "run" ? "write" : isWrite(receiver) ? "write" : "read");
  }

  // A builder whose chain starts at `.insert(`/`.update(`/`.delete(` writes (with `.returning()`, `one` reads its rows).
  function isWrite(receiver) {
    for (let e = receiver; e; ) {
      if (ts.isCallExpression(e)) e = e.expression;
      else if (ts.isPropertyAccessExpression(e)) {
        if (["insert", "update", "delete"].includes(e.name.text)) return true;
        e = e.expression;
      } else return false;
    }
    return false;
  }
}

/** One import of the helpers per file, with every name its sites need. */
function addImport(sf, edits, names) {
  const present = sf.statements.filter(
    (s) => ts.isImportDeclaration(s) && /\/exec["']$|^["']\.\/exec["']$/.test(s.moduleSpecifier.getText(sf)),
  );
  const missing = [...names].filter((n) => !present.some((s) => new RegExp(`\\b${n}\\b`).test(s.getText(sf))));
  if (!missing.length) return;
  let spec = path
    .relative(path.dirname(sf.fileName), path.join(root, HELPERS_FILE.replace(/\.ts$/, "")))
    .split(path.sep)
    .join("/");
  if (!spec.startsWith(".")) spec = `./${spec}`;
  const lastImport = [...sf.statements].reverse().find((s) => ts.isImportDeclaration(s));
  const pos = lastImport ? lastImport.end : 0;
  edits.insert(sf, pos, `${lastImport ? "\n" : ""}import { ${missing.sort().join(", ")} } from "${spec}";${lastImport ? "" : "\n"}`, 100);
}

/** Write a template when its target is absent (the helpers and their test are tool output too). */
function writeTemplate(template, target) {
  const file = path.join(root, target);
  if (fs.existsSync(file)) return false;
  if (!dryRun) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(path.join(TEMPLATES, template), file);
  }
  return true;
}

function main() {
  const started = Date.now();
  log(`root ${root}${dryRun ? " (dry run)" : ""}`);
  const written = [];
  if (writeTemplate("exec.ts.tmpl", HELPERS_FILE)) written.push(HELPERS_FILE);
  const program = makeProgram();
  const edits = new Edits();
  const readThenWrite = rewrite(program, edits);
  const changed = edits.apply();
  // The helpers' test needs the project's throw-away Postgres (tests/helpers/postgres.ts).
  if (fs.existsSync(path.join(root, "tests/helpers/postgres.ts")) && writeTemplate("exec.test.ts.tmpl", HELPERS_TEST))
    written.push(HELPERS_TEST);
  for (const f of written) log(`${dryRun ? "would write" : "wrote"} ${f}`);
  if (!dryRun && !noFormat && changed.length) {
    const biome = path.join(root, "node_modules", ".bin", "biome");
    if (fs.existsSync(biome)) {
      const { spawnSync } = require("node:child_process");
      spawnSync(biome, ["format", "--write", ...changed], { cwd: root, stdio: "ignore" });
    }
  }
  log(
    `${changed.length} files changed: ${stats.one} one(), ${stats.all} all(), ${stats.exec} exec(), ${stats.asyncTests} test callbacks made async; ${stats.left} sites left; ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (manual.length) {
    log(`${manual.length} spots for a hand:`);
    for (const m of manual) console.log(`  ${m}`);
  }
  // The changed files and the helpers, type-checked as the run left them.
  const checked = new Set([...changed, ...written.map((f) => path.join(root, f))]);
  const errors = [];
  if (!dryRun && checked.size) {
    const after = makeProgram();
    for (const sf of projectFiles(after)) if (checked.has(sf.fileName)) errors.push(...after.getSemanticDiagnostics(sf));
  }
  const listed = (sites) => {
    for (const { sf, fn } of sites) {
      const { line } = sf.getLineAndCharacterOfPosition(fn.getStart(sf));
      let outer = fn;
      while (enclosingFunction(outer)) outer = enclosingFunction(outer);
      console.log(`  ${rel(sf.fileName)}:${line + 1}: ${nameOf(outer)}`);
    }
  };
  const bare = readThenWrite.filter((r) => !r.inTransaction);
  const inPort = readThenWrite.filter((r) => r.inTransaction);
  if (bare.length) {
    log(
      `${bare.length} functions now yield between a read and a later write (atomic while synchronous on SQLite; one statement or one transaction where it matters):`,
    );
    listed(bare);
  }
  if (inPort.length) {
    log(
      `${inPort.length} transaction bodies read and then write (atomic on SQLite; on Postgres, READ COMMITTED: check the read under concurrency):`,
    );
    listed(inPort);
  }
  if (errors.length) {
    log(`${errors.length} type errors left in the changed files:`);
    for (const d of errors) {
      const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
      console.log(
        `  ${rel(d.file.fileName)}:${line + 1}: TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]}`,
      );
    }
    process.exitCode = 1;
  } else if (checked.size && !dryRun) log("changed files type-check clean");
}

main();
