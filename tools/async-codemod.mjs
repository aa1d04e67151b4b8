#!/usr/bin/env node
/**
 * The async data layer codemod (issue 26, item 2): makes every query function of db/queries async,
 * runs each through the connection gate and rewrites `db.transaction(…)` to the transaction port
 * (db/transaction.ts, written from tools/async-codemod/), then follows the type checker: a call that
 * now returns a promise gets `await`, its function becomes `async` (an explicit return type becomes
 * `Promise<…>`), and so on up through lib/, app/ and tests/ until nothing changes. Last, it lists the
 * promises nobody awaits that the original tree did not have (statements, conditions, async
 * callbacks of array methods) and the type errors left for a hand.
 *
 *   node tools/async-codemod.mjs [--root <dir>] [--dry-run] [--no-format] [--max-rounds N]
 *
 * Re-runnable: a function already async is left alone, so a second run changes nothing.
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
const maxRounds = Number(option("--max-rounds", "12"));
const require = createRequire(path.join(root, "package.json"));
const ts = require("typescript");

const QUERIES_DIR = "db/queries/";
const PORT_FILE = "db/transaction.ts";
const TEMPLATES = path.join(here, "async-codemod");
// Array methods whose callback result the method uses: an async callback there is a bug.
const BROKEN_WITH_ASYNC = new Set([
  "forEach",
  "filter",
  "some",
  "every",
  "find",
  "findIndex",
  "findLast",
  "findLastIndex",
  "sort",
  "reduce",
  "reduceRight",
  "toSorted",
]);

const rel = (file) => path.relative(root, file).split(path.sep).join("/");
const log = (...m) => console.log("async-codemod:", ...m);

/** Everything the run could not do by itself, for the report. */
const manual = [];
const note = (sf, node, why) => {
  const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  const key = `${rel(sf.fileName)}:${line + 1}: ${why}`;
  if (!manual.includes(key)) manual.push(key);
};

// ---------------------------------------------------------------------------------------------
// Program

function readConfig() {
  const configPath = path.join(root, "tsconfig.json");
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
  return { options: { ...parsed.options, incremental: false, noEmit: true }, fileNames: parsed.fileNames };
}

let oldProgram;
function makeProgram() {
  const { options, fileNames } = readConfig();
  const files = fileNames.filter((f) => !f.includes(`${path.sep}.next${path.sep}`) && !f.includes("/tools/async-codemod/"));
  const program = ts.createProgram({ rootNames: files, options, oldProgram });
  oldProgram = program;
  return program;
}

const projectFiles = (program) =>
  program.getSourceFiles().filter((sf) => !sf.isDeclarationFile && !sf.fileName.includes("/node_modules/") && sf.fileName.startsWith(root));

// ---------------------------------------------------------------------------------------------
// Edits: insertions only (plus a few token replacements), applied from the end of each file.

class Edits {
  constructor() {
    this.byFile = new Map();
    this.done = new Set();
  }
  /** Insert `text` at `pos`; `rank` orders insertions at one position (lower first). */
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
  once(key) {
    if (this.done.has(key)) return false;
    this.done.add(key);
    return true;
  }
  get size() {
    let n = 0;
    for (const { edits } of this.byFile.values()) n += edits.length;
    return n;
  }
  /** Apply every edit; returns the files changed. */
  apply() {
    const changed = [];
    for (const [file, { sf, edits }] of this.byFile) {
      let text = sf.getFullText();
      // From the end; at one position, the insertion meant to come first is applied last.
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
const isExported = (fn) => !!fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** A stable name for a function across programs: file + its declared name path. */
function keyOf(fn) {
  const names = [];
  for (let n = fn; n && !ts.isSourceFile(n); n = n.parent) {
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isClassDeclaration(n)) && n.name) names.unshift(n.name.getText());
    else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name)) names.unshift(n.name.text);
    else if (ts.isPropertyAssignment(n) && n.name) names.unshift(n.name.getText());
    else if (isFunctionLike(n) && n !== fn && !ts.isArrowFunction(n) && !ts.isFunctionExpression(n)) return undefined;
    else if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && n !== fn) return undefined;
  }
  if (!names.length) return undefined;
  return `${rel(fn.getSourceFile().fileName)}#${names.join(".")}`;
}

/** The function a call resolves to, when it is one declared in the project. */
function calledFunction(checker, call) {
  let symbol;
  const callee = call.expression;
  const name = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isIdentifier(callee) ? callee : undefined;
  if (!name) return undefined;
  symbol = checker.getSymbolAtLocation(name);
  if (!symbol) return undefined;
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const decl = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (!decl) return undefined;
  if (ts.isShorthandPropertyAssignment(decl)) {
    const value = checker.getShorthandAssignmentValueSymbol(decl);
    let target = value;
    if (target && target.flags & ts.SymbolFlags.Alias) target = checker.getAliasedSymbol(target);
    return functionOfDeclaration(target?.valueDeclaration ?? target?.declarations?.[0]);
  }
  return functionOfDeclaration(decl);
}

function functionOfDeclaration(decl) {
  if (!decl) return undefined;
  if (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl)) return decl;
  if ((ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl) || ts.isPropertyDeclaration(decl)) && decl.initializer) {
    let init = decl.initializer;
    while (ts.isParenthesizedExpression(init) || ts.isAsExpression(init) || ts.isSatisfiesExpression(init)) init = init.expression;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
  }
  return undefined;
}

function skipParens(node) {
  let n = node.parent;
  while (n && ts.isParenthesizedExpression(n)) n = n.parent;
  return n;
}

/** Whether the value of `expr` is already awaited (or handed to `Promise.all`/`void` on purpose by the original code). */
function isAwaited(expr) {
  const parent = skipParens(expr);
  return !!parent && ts.isAwaitExpression(parent);
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

// ---------------------------------------------------------------------------------------------
// One propagation round over one program

let lookupCacheNeedsAsync = false;

function propagate(program, asyncKeys, seeds) {
  const checker = program.getTypeChecker();
  const edits = new Edits();
  const files = projectFiles(program);
  const madeAsync = new Set(); // function nodes made async in this round (or already async and in the set)
  const worklist = [];

  // Index: function declaration node -> calls to it.
  const callsTo = new Map();
  const keyed = new Map();
  for (const sf of files) {
    const visit = (n) => {
      if (ts.isCallExpression(n)) {
        const fn = calledFunction(checker, n);
        const file = fn?.getSourceFile().fileName ?? "";
        if (fn && file.startsWith(root) && !file.includes("/node_modules/")) {
          if (!callsTo.has(fn)) callsTo.set(fn, []);
          callsTo.get(fn).push(n);
        }
      }
      if (isFunctionLike(n)) {
        const k = keyOf(n);
        if (k && asyncKeys.has(k)) keyed.set(k, n);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  for (const fn of keyed.values()) worklist.push(fn);
  for (const seed of seeds(files, checker, edits)) {
    // A rewritten transaction call returns a promise now: awaited like a query call.
    if (ts.isCallExpression(seed)) awaitCall(seed);
    else makeAsync(seed);
  }

  function makeAsync(fn) {
    if (madeAsync.has(fn)) return;
    const sf = fn.getSourceFile();
    if (ts.isGetAccessorDeclaration(fn) || ts.isSetAccessorDeclaration(fn) || ts.isConstructorDeclaration(fn)) {
      note(sf, fn, "an accessor or constructor now awaits a query: needs a method instead (manual)");
      return;
    }
    if (fn.asteriskToken) {
      note(sf, fn, "a generator now awaits a query: make it an async generator (manual)");
      return;
    }
    madeAsync.add(fn);
    // Already async: its callers already take a promise; nothing above it changes.
    if (isAsync(fn)) return;
    const k = keyOf(fn);
    if (k) asyncKeys.add(k);
    {
      if (!edits.once(fn)) return;
      const pos =
        ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn)
          ? fn
              .getChildren(sf)
              .find((c) => c.kind === ts.SyntaxKind.FunctionKeyword)
              .getStart(sf)
          : ts.isMethodDeclaration(fn)
            ? fn.name.getStart(sf)
            : fn.getStart(sf) + (fn.modifiers?.length ? fn.modifiers.end - fn.getStart(sf) : 0);
      edits.insert(sf, ts.isArrowFunction(fn) && fn.modifiers?.length ? pos + 1 : pos, "async ", -10);
      if (fn.type) {
        if (ts.isTypePredicateNode(fn.type))
          note(sf, fn, "a type predicate (`x is T`) now awaits a query: async functions cannot be predicates (manual)");
        else if (!isPromiseTypeNode(fn.type)) {
          edits.insert(sf, fn.type.getStart(sf), "Promise<", -5);
          edits.insert(sf, fn.type.end, ">", 5);
        }
      }
    }
    worklist.push(fn);
    onCallbackMadeAsync(fn);
  }

  /** An inline callback made async: its caller's use of the result decides what else changes. */
  function onCallbackMadeAsync(fn) {
    if (!(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) return;
    const call = fn.parent;
    if (!ts.isCallExpression(call) || !call.arguments.includes(fn)) return;
    const sf = fn.getSourceFile();
    const callee = call.expression;
    if (!ts.isPropertyAccessExpression(callee)) return;
    const method = callee.name.text;
    // `Array.from(xs, async …)` is a map too.
    if (method === "map" || method === "flatMap" || (method === "from" && callee.expression.getText(sf) === "Array")) {
      if (!edits.once(`all:${call.pos}:${sf.fileName}`)) return;
      // xs.map(async …) -> (await Promise.all(xs.map(async …))); flatMap: mapped, then flattened.
      const chained = needsParens(call) || method === "flatMap";
      if (method === "flatMap") edits.replace(sf, callee.name.getStart(sf), callee.name.end, "map");
      edits.insert(sf, call.getStart(sf), `${chained ? "(" : ""}await Promise.all(`, -20 - (call.end - call.getStart(sf)));
      edits.insert(sf, call.end, `)${chained ? ")" : ""}${method === "flatMap" ? ".flat()" : ""}`, 20 + (call.end - call.getStart(sf)));
      const outer = enclosingFunction(call);
      if (outer) makeAsync(outer);
      else note(sf, call, "a top-level Promise.all now needs an await (manual)");
    } else if (method === "read" && isLookupCache(callee.expression)) {
      // The hot-path cache's synchronous loader (lib/lookup-cache.ts): its async twin, awaited.
      if (!edits.once(`readAsync:${call.pos}:${sf.fileName}`)) return;
      edits.replace(sf, callee.name.getStart(sf), callee.name.end, "readAsync");
      lookupCacheNeedsAsync = true;
      awaitCall(call);
    } else if (BROKEN_WITH_ASYNC.has(method)) {
      note(sf, call, `.${method}() with a callback that now awaits a query: rewrite as a for…of loop (manual)`);
    }
  }

  function isLookupCache(expr) {
    const type = checker.getTypeAtLocation(expr);
    return type.getSymbol()?.name === "LookupCache";
  }

  function awaitCall(call) {
    const sf = call.getSourceFile();
    if (isAwaited(call) || isExpectedPromise(call)) return;
    if (!edits.once(`await:${call.pos}:${sf.fileName}`)) return;
    const fn = enclosingFunction(call);
    if (!fn) {
      note(sf, call, "a top-level call now returns a promise (manual)");
      return;
    }
    const span = call.end - call.getStart(sf);
    if (needsParens(call)) {
      edits.insert(sf, call.getStart(sf), "(await ", -span);
      edits.insert(sf, call.end, ")", span);
    } else edits.insert(sf, call.getStart(sf), "await ", -span);
    makeAsync(fn);
  }

  while (worklist.length) {
    const fn = worklist.pop();
    for (const call of callsTo.get(fn) ?? []) awaitCall(call);
  }
  if (lookupCacheNeedsAsync) addReadAsync(program, edits);
  // `ReturnType<typeof f>` of a function made async names a promise now: its value is `Awaited<…>`.
  for (const sf of files) {
    const visit = (n) => {
      if (
        ts.isTypeReferenceNode(n) &&
        n.typeName.getText(sf) === "ReturnType" &&
        n.typeArguments?.length === 1 &&
        ts.isTypeQueryNode(n.typeArguments[0])
      ) {
        const wrapped = ts.isTypeReferenceNode(n.parent) && n.parent.typeName.getText(sf) === "Awaited";
        let symbol = checker.getSymbolAtLocation(n.typeArguments[0].exprName);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
        const fn = functionOfDeclaration(symbol?.valueDeclaration ?? symbol?.declarations?.[0]);
        const k = fn && keyOf(fn);
        if (!wrapped && fn && (madeAsync.has(fn) || (k && asyncKeys.has(k))) && edits.once(`awaited:${sf.fileName}:${n.pos}`)) {
          edits.insert(sf, n.getStart(sf), "Awaited<", -1000);
          edits.insert(sf, n.end, ">", 1000);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return edits;
}

/** `expect(q()).rejects…` / `.resolves…`: the promise itself is what the test hands over. */
function isExpectedPromise(call) {
  const parent = skipParens(call);
  return (
    !!parent &&
    ts.isCallExpression(parent) &&
    parent.expression.getText() === "expect" &&
    ts.isPropertyAccessExpression(parent.parent) &&
    ["rejects", "resolves"].includes(parent.parent.name.text)
  );
}

function isPromiseTypeNode(type) {
  return ts.isTypeReferenceNode(type) && type.typeName.getText() === "Promise";
}

// ---------------------------------------------------------------------------------------------
// Round 0: the query functions, the gate and the transaction port

function seedQueries() {
  return (files, checker, edits) => {
    const seeds = [];
    for (const sf of files) {
      const file = rel(sf.fileName);
      const isQueries = file.startsWith(QUERIES_DIR);
      const rewritten = rewriteTransactions(sf, checker, edits);
      seeds.push(...rewritten);
      for (const stmt of sf.statements) {
        // A query function takes the database handle; pure helpers there (normaliseEmail) stay synchronous.
        const takesDb = (f) => f.parameters.some((p) => p.type && /^(Db|Tx)$/.test(p.type.getText(sf)));
        if (isQueries && ts.isFunctionDeclaration(stmt) && isExported(stmt) && stmt.body && !stmt.asteriskToken && takesDb(stmt)) {
          seeds.push(stmt);
          if (!rewritten.some((call) => call.pos >= stmt.pos && call.end <= stmt.end)) gate(sf, stmt, edits);
        }
      }
      flushImports(sf, edits);
    }
    return seeds;
  };
}

/** `export function q(db: Db, …) { body }` -> `{ return gated(db, async () => { body }); }` (once). */
function gate(sf, fn, edits) {
  const first = fn.parameters[0];
  if (!first || !ts.isIdentifier(first.name) || !first.type || first.type.getText() !== "Db") return;
  const text = fn.body.getText(sf);
  // A synchronous driver-level transaction inside is gated with the rest: it must not start inside another chain's.
  if (/\bgated\(|withTransaction\(/.test(text)) return;
  if (!edits.once(`gate:${sf.fileName}:${fn.pos}`)) return;
  edits.insert(sf, fn.body.getStart(sf) + 1, ` return gated(${first.name.text}, async () => {`, 1);
  edits.insert(sf, fn.body.end - 1, "}); ", -1);
  addImport(sf, edits, "gated");
}

/** Whether a transaction body only drives the database itself (prepared statements), calling no query function and awaiting nothing. */
function isDriverLevel(cb, checker) {
  let found = false;
  const visit = (n) => {
    if (found) return;
    if (ts.isAwaitExpression(n)) found = true;
    else if (ts.isCallExpression(n)) {
      const fn = calledFunction(checker, n);
      if (fn && rel(fn.getSourceFile().fileName).startsWith(QUERIES_DIR) && isExported(fn)) found = true;
      if (
        fn &&
        !rel(fn.getSourceFile().fileName).startsWith("db/") &&
        fn.getSourceFile().fileName.startsWith(root) &&
        !fn.getSourceFile().fileName.includes("/node_modules/")
      )
        found = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(cb.body);
  return !found;
}

/** `db.transaction((tx) => …)` on a drizzle handle -> `withTransaction(db, async (tx) => …)`; `db` inside becomes `tx`. */
function rewriteTransactions(sf, checker, edits) {
  const rewritten = [];
  const visit = (n) => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      n.expression.name.text === "transaction" &&
      n.arguments.length === 1 &&
      (ts.isArrowFunction(n.arguments[0]) || ts.isFunctionExpression(n.arguments[0]))
    ) {
      const target = n.expression.expression;
      const type = checker.getTypeAtLocation(target);
      // A drizzle handle (root or transaction): it builds queries and opens transactions.
      const isDrizzle = !!type.getProperty("select") && !!type.getProperty("insert") && !!type.getProperty("transaction");
      const cb = n.arguments[0];
      if (isDrizzle && isDriverLevel(cb, checker)) {
        note(
          sf,
          n,
          "a synchronous driver-level transaction (no query function inside) is kept: on SQLite it must not run into another chain's transaction (check connectionBusy), on Postgres it needs its own async form (manual)",
        );
      } else if (isDrizzle && edits.once(`tx:${sf.fileName}:${n.pos}`)) {
        rewritten.push(n);
        const param = cb.parameters[0];
        const txName = param && ts.isIdentifier(param.name) ? param.name.text : "tx";
        // `db.transaction(` -> `withTransaction(db, `
        edits.replace(sf, n.expression.getStart(sf), n.arguments.pos, `withTransaction(${target.getText(sf)}, `);
        if (!isAsync(cb) && edits.once(cb)) edits.insert(sf, cb.getStart(sf), "async ", -10);
        if (!param) edits.replace(sf, cb.parameters.pos, cb.parameters.end, "tx");
        // The outer handle used inside the body would run outside the transaction on Postgres.
        if (ts.isIdentifier(target)) {
          const outer = checker.getSymbolAtLocation(target);
          const inner = (m) => {
            if (ts.isIdentifier(m) && m.text === target.text && checker.getSymbolAtLocation(m) === outer) {
              const p = m.parent;
              if (!(ts.isPropertyAccessExpression(p) && p.name === m) && !(ts.isPropertyAssignment(p) && p.name === m)) {
                if (ts.isShorthandPropertyAssignment(p)) edits.replace(sf, m.getStart(sf), m.end, `${m.text}: ${txName}`);
                else edits.replace(sf, m.getStart(sf), m.end, txName);
              }
            }
            ts.forEachChild(m, inner);
          };
          inner(cb.body);
        } else note(sf, n, "transaction on a handle that is not a plain variable: check that the body uses tx (manual)");
        addImport(sf, edits, "withTransaction");
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return rewritten;
}

const importsWanted = new Map();
function addImport(sf, _edits, name) {
  if (rel(sf.fileName) === PORT_FILE) return;
  if (!importsWanted.has(sf.fileName)) importsWanted.set(sf.fileName, new Set());
  importsWanted.get(sf.fileName).add(name);
}

/** One import of the port per file, with every name the rewrites of that file need. */
function flushImports(sf, edits) {
  const names = importsWanted.get(sf.fileName);
  if (!names?.size) return;
  importsWanted.delete(sf.fileName);
  const present = sf.statements.filter((s) => ts.isImportDeclaration(s) && /transaction["']$/.test(s.moduleSpecifier.getText(sf)));
  const missing = [...names].filter((n) => !present.some((s) => new RegExp(`\\b${n}\\b`).test(s.getText(sf))));
  if (!missing.length) return;
  let spec = path
    .relative(path.dirname(sf.fileName), path.join(root, PORT_FILE.replace(/\.ts$/, "")))
    .split(path.sep)
    .join("/");
  if (!spec.startsWith(".")) spec = `./${spec}`;
  const lastImport = [...sf.statements].reverse().find((s) => ts.isImportDeclaration(s));
  const pos = lastImport ? lastImport.end : 0;
  edits.insert(sf, pos, `${lastImport ? "\n" : ""}import { ${missing.sort().join(", ")} } from "${spec}";${lastImport ? "" : "\n"}`, 100);
}

// Calls to these after round 0 are matched by key in later programs, since nodes change.
function writePort() {
  const target = path.join(root, PORT_FILE);
  if (fs.existsSync(target)) return false;
  if (!dryRun) fs.writeFileSync(target, fs.readFileSync(path.join(TEMPLATES, "transaction.ts.tmpl"), "utf8"));
  return true;
}

// Written after the run: the test is already written for the async layer.
function writePortTest() {
  const testTarget = path.join(root, "tests/integration/db/transaction.test.ts");
  if (dryRun || fs.existsSync(testTarget)) return false;
  fs.mkdirSync(path.dirname(testTarget), { recursive: true });
  fs.writeFileSync(testTarget, fs.readFileSync(path.join(TEMPLATES, "transaction.test.ts.tmpl"), "utf8"));
  return true;
}

const READ_ASYNC = `
  /** \`read\` with an async loader: the stamp is the one taken before loading, as for \`read\`. */
  async readAsync<T extends V | null | undefined>(key: string, stamp: string, load: () => Promise<T>): Promise<T> {
    const hit = this.get(key, stamp);
    if (hit !== undefined) return hit as T;
    const value = await load();
    if (value !== null && value !== undefined) this.set(key, stamp, value);
    return value;
  }
`;

/** Give lib/lookup-cache.ts its async loader once a cached lookup needs one (an edit of this round). */
function addReadAsync(program, edits) {
  const sf = program.getSourceFile(path.join(root, "lib/lookup-cache.ts"));
  if (!sf || /\basync readAsync\b/.test(sf.text) || !edits.once("readAsync-method")) return;
  const anchor = sf.text.indexOf("  /** How many entries are held");
  if (anchor < 0) manual.push("lib/lookup-cache.ts: add readAsync (async twin of read) by hand: its anchor moved");
  else edits.insert(sf, anchor, `${READ_ASYNC.slice(1)}\n`, 0);
}

// ---------------------------------------------------------------------------------------------
// Diagnostics: the awaits only the type checker sees (a promise where a value is expected)

// Codes whose fix is "add the missing await" (TypeScript's own addMissingAwait code fix handles these).
const MISSING_AWAIT = new Set([
  2345, 2322, 2339, 2349, 2351, 2365, 2367, 2461, 2488, 2495, 2504, 2548, 2549, 2741, 2769, 2801, 2802, 2806, 2362, 2363, 18046, 2531, 2532,
  18047, 18048, 2352, 2740, 2739, 2559, 2353, 2551, 2554, 2355,
]);

function languageService(program) {
  const { options } = readConfig();
  const files = projectFiles(program).map((sf) => sf.fileName);
  const host = {
    getScriptFileNames: () => files,
    getScriptVersion: () => "0",
    getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined),
    getCurrentDirectory: () => root,
    getCompilationSettings: () => ({ ...options, incremental: false }),
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

/** Apply TypeScript's addMissingAwait fix to every diagnostic that offers it; returns the number applied. */
function fixMissingAwaits(program, asyncKeys, changedFiles) {
  const service = languageService(program);
  const prog = service.getProgram();
  const edits = new Edits();
  const taken = new Map();
  let applied = 0;
  for (const sf of projectFiles(prog)) {
    const diags = prog.getSemanticDiagnostics(sf);
    for (const d of diags) {
      if (d.start === undefined) continue;
      if (d.code === 1308) {
        // 'await' in a function that is not async: make it async (and its callers follow next round).
        const node = findNode(sf, d.start);
        const fn = node && enclosingFunction(node);
        if (fn && (ts.isConstructorDeclaration(fn) || ts.isGetAccessorDeclaration(fn) || ts.isSetAccessorDeclaration(fn))) {
          note(sf, fn, "a constructor or accessor awaits: needs an async factory or method (manual)");
        } else if (fn && !isAsync(fn) && edits.once(fn)) {
          markAsyncByEdit(sf, fn, edits);
          const k = keyOf(fn);
          if (k) asyncKeys.add(k);
          applied++;
        }
        continue;
      }
      if ([2345, 2322, 2739, 2740, 2741].includes(d.code) && widenCallbackType(prog, sf, d, edits)) {
        applied++;
        continue;
      }
      if (!MISSING_AWAIT.has(d.code)) continue;
      let fixes = [];
      try {
        fixes = service.getCodeFixesAtPosition(sf.fileName, d.start, d.start + d.length, [d.code], ts.getDefaultFormatCodeSettings(), {});
      } catch {
        continue;
      }
      // At the declaration (`const x = await q()`) rather than at each use, when TypeScript offers both.
      const fix = fixes.find((f) => f.fixName === "addMissingAwaitToInitializer") ?? fixes.find((f) => f.fixName === "addMissingAwait");
      if (!fix) continue;
      // Fixes may reprint a region: one that overlaps a region already changed waits for the next round.
      const overlaps = fix.changes.some((change) =>
        change.textChanges.some((t) =>
          (taken.get(change.fileName) ?? []).some(([a, b]) => t.span.start <= b && a <= t.span.start + t.span.length),
        ),
      );
      if (overlaps) continue;
      for (const change of fix.changes) {
        const target = prog.getSourceFile(change.fileName);
        if (!taken.has(change.fileName)) taken.set(change.fileName, []);
        for (const t of change.textChanges) {
          taken.get(change.fileName).push([t.span.start, t.span.start + t.span.length]);
          edits.replace(target, t.span.start, t.span.start + t.span.length, t.newText);
        }
      }
      applied++;
    }
  }
  // The changed files are formatted at the end like every other edit's (a widened type was left unformatted).
  for (const f of edits.apply()) changedFiles.add(f);
  return applied;
}

/**
 * An async function handed where the project declares a synchronous function type (a callback
 * parameter `taken: (slug) => boolean`, a type alias such as a provider factory, an interface
 * method): that declared type now returns `Promise<…>`, so its callers await it next round.
 */
function widenCallbackType(prog, sf, d, edits) {
  const checker = prog.getTypeChecker();
  let node = findNode(sf, d.start);
  while (node && !(ts.isExpression(node) && node.getStart(sf) === d.start) && node.parent && node.parent.getStart(sf) === d.start)
    node = node.parent;
  if (!node) return false;
  let expr = node;
  while (expr.parent && expr.parent.getStart(sf) === d.start && expr.parent.end <= d.start + d.length) expr = expr.parent;
  // The error sits on the async function, on the expression it returns, or on a `return` of it.
  const candidates = [node, expr, enclosingFunction(node)];
  if (ts.isReturnStatement(expr) && expr.expression) candidates.push(expr.expression);
  if (node.parent && ts.isReturnStatement(node.parent) && node.parent.expression) candidates.push(node.parent.expression);
  for (const c of candidates) {
    if (!c) continue;
    const type = checker.getTypeAtLocation(c);
    const sig = checker.getSignaturesOfType(type, ts.SignatureKind.Call)[0];
    if (!sig || !isPromiseType(checker, checker.getReturnTypeOfSignature(sig))) continue;
    const target = ts.isExpression(c) ? checker.getContextualType(c) : undefined;
    const decl = target && (target.aliasSymbol?.declarations?.[0] ?? target.getSymbol()?.declarations?.[0]);
    let fnType;
    if (decl && ts.isTypeAliasDeclaration(decl) && ts.isFunctionTypeNode(decl.type)) fnType = decl.type;
    else if (decl && (ts.isFunctionTypeNode(decl) || ts.isMethodSignature(decl))) fnType = decl;
    else if (decl && ts.isPropertySignature(decl) && decl.type && ts.isFunctionTypeNode(decl.type)) fnType = decl.type;
    if (!fnType?.type) continue;
    const file = fnType.getSourceFile();
    const returns = fnType.type;
    const hasPromise = isPromiseTypeNode(returns) || (ts.isUnionTypeNode(returns) && returns.types.some(isPromiseTypeNode));
    if (!file.fileName.startsWith(root) || file.fileName.includes("/node_modules/") || hasPromise) continue;
    if (!edits.once(`widen:${file.fileName}:${fnType.pos}`)) return true;
    // `T | Promise<T>`: synchronous implementations (tests' fakes) stay valid; callers await either.
    edits.insert(file, returns.end, ` | Promise<${returns.getText(file)}>`, 5);
    return true;
  }
  return false;
}

function markAsyncByEdit(sf, fn, edits) {
  const pos =
    ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn)
      ? fn
          .getChildren(sf)
          .find((c) => c.kind === ts.SyntaxKind.FunctionKeyword)
          .getStart(sf)
      : ts.isMethodDeclaration(fn)
        ? fn.name.getStart(sf)
        : fn.getStart(sf);
  edits.insert(sf, pos, "async ", -10);
  if (fn.type && !ts.isTypePredicateNode(fn.type) && !isPromiseTypeNode(fn.type)) {
    edits.insert(sf, fn.type.getStart(sf), "Promise<", -5);
    edits.insert(sf, fn.type.end, ">", 5);
  }
}

function findNode(sf, pos) {
  let found;
  const visit = (n) => {
    if (pos >= n.getStart(sf) && pos < n.end) {
      found = n;
      ts.forEachChild(n, visit);
    }
  };
  visit(sf);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Ignored promises: what the checker types as a promise where nobody awaits it

function isPromiseType(checker, type) {
  if (!type) return false;
  if (type.isUnion()) return type.types.some((t) => isPromiseType(checker, t));
  const symbol = type.getSymbol();
  return (
    symbol?.name === "Promise" || (!!type.getProperty("then") && symbol?.name !== "undefined" && !!checker.getPropertyOfType(type, "catch"))
  );
}

/** Every unawaited promise in a statement or condition, and every async callback of an array method that ignores it. */
function floatingPromises(program) {
  const checker = program.getTypeChecker();
  const found = [];
  for (const sf of projectFiles(program)) {
    const add = (node, kind) => {
      const fn = enclosingFunction(node);
      found.push({
        sf,
        node,
        kind,
        key: `${rel(sf.fileName)}|${kind}|${fn ? (keyOf(fn) ?? "") : ""}|${node
          .getText(sf)
          .replace(/\s+/g, " ")
          .replace(/\bawait /g, "")}`,
      });
    };
    const visit = (n) => {
      if (ts.isExpressionStatement(n)) {
        const e = n.expression;
        if (
          !ts.isAwaitExpression(e) &&
          !ts.isVoidExpression(e) &&
          !(ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken)
        ) {
          if (ts.isCallExpression(e) && isPromiseType(checker, checker.getTypeAtLocation(e))) {
            const callee = e.expression;
            // `.then(…)`/`.catch(…)`/`.finally(…)` chains handle their own outcome.
            const handled = ts.isPropertyAccessExpression(callee) && ["then", "catch", "finally"].includes(callee.name.text);
            if (!handled) add(e, "statement");
          }
        }
      }
      const condition =
        ts.isIfStatement(n) || ts.isWhileStatement(n) || ts.isDoStatement(n)
          ? n.expression
          : ts.isConditionalExpression(n)
            ? n.condition
            : ts.isPrefixUnaryExpression(n) && n.operator === ts.SyntaxKind.ExclamationToken
              ? n.operand
              : ts.isBinaryExpression(n) &&
                  [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken].includes(n.operatorToken.kind)
                ? n.left
                : undefined;
      if (condition && isPromiseType(checker, checker.getTypeAtLocation(condition))) add(condition, "condition");
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && BROKEN_WITH_ASYNC.has(n.expression.name.text)) {
        const cb = n.arguments[0];
        if (cb && (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) && isAsync(cb))
          add(n, `async callback of .${n.expression.name.text}()`);
      }
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === "map") {
        const t = checker.getTypeAtLocation(n);
        const el = checker.getIndexTypeOfType?.(t, ts.IndexKind.Number);
        const parent = skipParens(n);
        const gathered = parent && ts.isCallExpression(parent) && /Promise\.(all|allSettled)$/.test(parent.expression.getText(sf));
        if (el && isPromiseType(checker, el) && !gathered) add(n, "array of promises not gathered with Promise.all");
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Tests: `expect(() => q()).toThrow(…)` on a function that now returns a promise never sees the
// rejection (and `.not.toThrow()` passes whatever happens): rewritten to `await expect(q()).rejects…`.

function throwingExpectations(program, edits, asyncKeys) {
  const checker = program.getTypeChecker();
  let n = 0;
  for (const sf of projectFiles(program)) {
    const visit = (node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        /^toThrow(Error)?$/.test(node.expression.name.text)
      ) {
        let target = node.expression.expression;
        const negated = ts.isPropertyAccessExpression(target) && target.name.text === "not";
        if (negated) target = target.expression;
        const fnArg = ts.isCallExpression(target) && target.expression.getText(sf) === "expect" ? target.arguments[0] : undefined;
        if (fnArg && (ts.isArrowFunction(fnArg) || ts.isFunctionExpression(fnArg))) {
          const signature = checker.getSignaturesOfType(checker.getTypeAtLocation(fnArg), ts.SignatureKind.Call)[0];
          const returns = signature && checker.getReturnTypeOfSignature(signature);
          if (returns && isPromiseType(checker, returns) && edits.once(`expect:${sf.fileName}:${node.pos}`)) {
            // `async () => await q()` (made so by an earlier round) hands over `q()` itself, not its awaited value.
            const inner = ts.isArrowFunction(fnArg) && !ts.isBlock(fnArg.body) ? fnArg.body : undefined;
            const body = inner ? (ts.isAwaitExpression(inner) ? inner.expression : inner).getText(sf) : `(${fnArg.getText(sf)})()`;
            if (negated) {
              // The promise must settle without a rejection: await it where the expectation stood.
              edits.replace(sf, node.getStart(sf), node.end, `await ${body}`);
            } else {
              edits.replace(sf, target.getStart(sf), node.expression.name.getStart(sf), `await expect(${body}).rejects.`);
            }
            const fn = enclosingFunction(node);
            if (fn && !isAsync(fn) && edits.once(fn)) {
              markAsyncByEdit(sf, fn, edits);
              const k = keyOf(fn);
              if (k) asyncKeys.add(k);
            }
            n++;
            return;
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------

function diagnosticsOf(program) {
  const out = [];
  for (const sf of projectFiles(program)) for (const d of program.getSemanticDiagnostics(sf)) out.push(d);
  for (const d of program.getSyntacticDiagnostics()) out.push(d);
  return out;
}

function format(d) {
  const msg = ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0];
  if (!d.file) return `TS${d.code}: ${msg}`;
  const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
  return `${rel(d.file.fileName)}:${line + 1}: TS${d.code}: ${msg}`;
}

function main() {
  const started = Date.now();
  log(`root ${root}${dryRun ? " (dry run)" : ""}`);
  let program = makeProgram();
  const baseline = new Map();
  for (const f of floatingPromises(program)) baseline.set(f.key, (baseline.get(f.key) ?? 0) + 1);
  log(`baseline: ${baseline.size} unawaited promises already in the tree (left alone)`);

  const portWritten = writePort();
  if (portWritten) {
    log(`wrote ${PORT_FILE}`);
    program = makeProgram();
  }
  const asyncKeys = new Set();
  const changedFiles = new Set();
  // Round 0: seeds (query functions, gate, transactions) and their callers.
  const round0 = propagate(program, asyncKeys, seedQueries());
  for (const f of round0.apply()) changedFiles.add(f);
  log(`round 0: ${round0.size} edits, ${asyncKeys.size} functions async`);

  for (let round = 1; round <= maxRounds; round++) {
    program = makeProgram();
    const expectEdits = new Edits();
    const expectations = throwingExpectations(program, expectEdits, asyncKeys);
    if (expectations) {
      for (const f of expectEdits.apply()) changedFiles.add(f);
      program = makeProgram();
    }
    // Floating promises the tree did not have: await them where they stand.
    const budget = new Map(baseline);
    const floating = floatingPromises(program).filter((f) => {
      const n = budget.get(f.key) ?? 0;
      if (n > 0) budget.set(f.key, n - 1);
      return n === 0;
    });
    const awaitEdits = new Edits();
    let awaited = 0;
    for (const f of floating) {
      if (f.kind !== "statement" && f.kind !== "condition") continue;
      const fn = enclosingFunction(f.node);
      if (!fn) continue;
      const sf = f.sf;
      if (needsParens(f.node) || f.kind === "condition") {
        awaitEdits.insert(sf, f.node.getStart(sf), "(await ", -1);
        awaitEdits.insert(sf, f.node.end, ")", 1);
      } else awaitEdits.insert(sf, f.node.getStart(sf), "await ", -1);
      if (!isAsync(fn) && awaitEdits.once(fn)) {
        markAsyncByEdit(sf, fn, awaitEdits);
        const k = keyOf(fn);
        if (k) asyncKeys.add(k);
      }
      awaited++;
    }
    if (awaited) {
      for (const f of awaitEdits.apply()) changedFiles.add(f);
      program = makeProgram();
    }
    const edits = propagate(program, asyncKeys, () => []);
    for (const f of edits.apply()) changedFiles.add(f);
    if (edits.size) program = makeProgram();
    const fixed = fixMissingAwaits(program, asyncKeys, changedFiles);
    log(
      `round ${round}: ${expectations} throw expectations, ${awaited} ignored promises awaited, ${edits.size} propagation edits, ${fixed} checker fixes`,
    );
    if (!expectations && !awaited && !edits.size && !fixed) break;
  }

  if (writePortTest()) log("wrote tests/integration/db/transaction.test.ts");
  program = makeProgram();
  const remaining = diagnosticsOf(program);
  const budget = new Map(baseline);
  const leftFloating = floatingPromises(program).filter((f) => {
    const n = budget.get(f.key) ?? 0;
    if (n > 0) budget.set(f.key, n - 1);
    return n === 0;
  });
  if (!dryRun && !noFormat && changedFiles.size) {
    const biome = path.join(root, "node_modules", ".bin", "biome");
    if (fs.existsSync(biome)) {
      const { spawnSync } = require("node:child_process");
      spawnSync(biome, ["format", "--write", ...[...changedFiles].filter((f) => fs.existsSync(f))], { cwd: root, stdio: "ignore" });
    }
  }
  log(`${changedFiles.size} files changed, ${asyncKeys.size} functions made async, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (manual.length) {
    log(`${manual.length} spots for a hand:`);
    for (const m of manual) console.log(`  ${m}`);
  }
  if (leftFloating.length) {
    log(`${leftFloating.length} promises nobody awaits that involve a function made async (check each):`);
    for (const f of leftFloating) {
      const { line } = f.sf.getLineAndCharacterOfPosition(f.node.getStart(f.sf));
      console.log(`  ${rel(f.sf.fileName)}:${line + 1}: ${f.kind}: ${f.node.getText(f.sf).slice(0, 80).replace(/\s+/g, " ")}`);
    }
  }
  if (remaining.length) {
    log(`${remaining.length} type errors left:`);
    for (const d of remaining) console.log(`  ${format(d)}`);
    process.exitCode = 1;
  } else log("tsc --noEmit: clean");
}

main();
