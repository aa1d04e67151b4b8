/**
 * Import boundaries, checked in `npm test` (docs/architecture.md explains the layers).
 * Run: `npm run check:boundaries` (scripts/check-boundaries.mjs).
 */
const fs = require("node:fs");
const path = require("node:path");
const { DOMAIN_ORDER, layerPattern, orderRuleName } = require("./scripts/domain-order.cjs");

/** Leaf modules: they import no project module except other leaves. */
const LEAVES = [
  "lib/errors.ts",
  "lib/error-brand.ts",
  "lib/redact.ts",
  "lib/crypto.ts",
  "lib/env.ts",
  "lib/singleton.ts",
  "lib/shutdown.ts",
];

/**
 * Modules that may run in the browser, and so may be imported (as values) by client code. Client
 * code is every file marked "use client" and everything it imports. A module listed here must
 * itself import only modules listed here (type-only imports are erased and do not count).
 */
const BROWSER_SAFE = [
  "app/_components/",
  "lib/domain/",
  "lib/agent/approvals.ts",
  "lib/agent/chat-request.ts",
  "lib/trust/policy.ts",
  "lib/agent/safe-content.ts",
  "lib/agent/structured-table.ts",
  "lib/agent/uri-template.ts",
  "lib/net/safe-link.ts",
  "lib/redact.ts",
  "lib/trust/diff.ts",
];

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// An empty list matches nothing (a bare `^()` would match every path).
const anyOf = (paths) => (paths.length === 0 ? "(?!)" : `^(${paths.map(escapeRegExp).join("|")})`);

/** Every project file whose first statement is the "use client" directive. */
function clientFiles(dir, found = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) clientFiles(file, found);
    else if (/\.(ts|tsx)$/.test(entry.name) && /^\s*["']use client["']/.test(fs.readFileSync(file, "utf8"))) found.push(file);
  }
  return found;
}

const CLIENT_ENTRIES = ["app", "lib"]
  .filter((dir) => fs.existsSync(dir))
  .flatMap((dir) => clientFiles(dir))
  .map((f) => f.split(path.sep).join("/"));
const PROJECT = "^(app|lib|db|bin|scripts)/";
const ERASED = ["type-only", "type-import"];

/**
 * One rule per (lower, upper) pair of lib/'s layer order (scripts/domain-order.cjs): a layer never
 * imports one above it, not even a type, so the folders form no cycle and a move that would point
 * upward fails the check with the pair's name.
 */
const LAYER_ORDER_RULES = DOMAIN_ORDER.flatMap((lower, i) =>
  DOMAIN_ORDER.slice(i + 1).map((upper) => ({
    name: orderRuleName(lower.path, upper.path),
    severity: "error",
    comment: `${lower.path} (${lower.why}) sits below ${upper.path} (${upper.why}): it must not import it.`,
    from: { path: layerPattern(lower.path) },
    to: { path: layerPattern(upper.path) },
  })),
);

module.exports = {
  forbidden: [
    ...LAYER_ORDER_RULES,
    {
      name: "lib-never-imports-app",
      severity: "error",
      comment: "app/ is the web edge on top of lib/: lib/ and db/ run without it (the command line, tests, the lane).",
      from: { path: "^(lib|db)/" },
      to: { path: "^app/" },
    },
    {
      name: "entries-stay-on-top",
      severity: "error",
      comment:
        "The command line (lib/cli) and the direct lane (lib/lane) are entry points, each started by its own program " +
        "(bin/, scripts/server.mjs); no layer of lib/ depends on them.",
      from: { path: "^lib/", pathNot: "^lib/(cli|lane)/" },
      to: { path: "^lib/(cli|lane)/" },
    },
    {
      name: "lane-is-fenced",
      severity: "error",
      comment:
        "The direct lane's code (lib/lane) is loaded only by its wiring: instrumentation.ts installs it for " +
        "scripts/server.mjs, and its table (app/_direct, derived from the route modules) feeds it. A route module " +
        "declares `lane` with the lane's types, never its code, so an ordinary route carries no lane plumbing.",
      from: { path: "^(app|db|bin|scripts)/", pathNot: "^app/_direct/" },
      to: { path: "^lib/lane/", dependencyTypesNot: ERASED },
    },
    {
      name: "lane-contract-only",
      severity: "error",
      comment:
        "What a route module may name of the lane is its contract (lib/lane/contract.ts: the `lane` declaration's " +
        "types), not the lane's internals, which can then change without touching a route.",
      from: { path: "^app/", pathNot: "^app/_direct/" },
      to: { path: "^lib/lane/", pathNot: "^lib/lane/contract\\.ts$" },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules form a tree: a cycle makes load order matter and hides which layer owns what.",
      from: { path: PROJECT },
      to: { circular: true },
    },
    {
      name: "db-is-the-bottom",
      severity: "error",
      comment:
        "db/ imports nothing from app/ or lib/ except leaf modules, the shared domain types (lib/domain/) and the " +
        "server config schema (lib/mcp/config.ts, itself free of project imports).",
      from: { path: "^db/" },
      to: { path: "^(app|lib)/", pathNot: anyOf([...LEAVES, "lib/domain/", "lib/mcp/config.ts"]) },
    },
    {
      name: "sql-stays-in-db",
      severity: "error",
      comment:
        "Only db/ builds SQL and knows which database it runs on (issue 26): app/, lib/, bin/ and scripts/ call the " +
        "query functions of db/queries, never drizzle, a database driver or the table definitions (not even their types).",
      from: { path: "^(app|lib|bin|scripts)/" },
      to: {
        path: ["(^|/)node_modules/(drizzle-orm|better-sqlite3|pg)/", "^db/(schema|schema-postgres|tables)\\.ts$", "^db/columns/"],
      },
    },
    {
      name: "engine-is-standalone",
      severity: "error",
      comment: "lib/mcp is the engine shared with the command line: no Next, React, AI SDK or database.",
      from: { path: "^lib/mcp/" },
      to: {
        path: [
          "^db/",
          "^app/",
          "(^|/)node_modules/(next|next-auth|react|react-dom|ai|@ai-sdk/[^/]+|better-sqlite3|drizzle-orm|server-only)/",
        ],
      },
    },
    {
      name: "oauth-shared-is-shared",
      severity: "error",
      comment:
        "lib/oauth/shared (provider, store interface, URL policy, errors) serves both OAuth flows, so it imports " + "neither of them.",
      from: { path: "^lib/oauth/shared/" },
      to: { path: "^lib/oauth/(web|headless)/" },
    },
    {
      name: "oauth-web-not-headless",
      severity: "error",
      comment:
        "The web app's OAuth (lib/oauth/web, and the app, lib/runtime and lib/use-cases that use it) never uses the headless flow: " +
        "the app must never follow an authorization URL itself on a user's behalf.",
      from: { path: "^(lib/oauth/web|lib/runtime|lib/use-cases|app)/" },
      to: { path: "^lib/oauth/headless/" },
    },
    {
      name: "oauth-headless-not-web",
      severity: "error",
      comment:
        "The command line and the conformance client (lib/cli, lib/oauth/headless) run without the app's database, " +
        "session or public URL, so they import nothing of the web flow.",
      from: { path: "^(lib/oauth/headless|lib/cli|bin)/" },
      to: { path: "^lib/oauth/web/" },
    },
    {
      name: "cli-never-reaches-oauth-web",
      severity: "error",
      comment: "Not even through another module: the command line's import graph holds no part of the web OAuth flow.",
      from: { path: "^(lib/cli|bin)/" },
      to: { path: "^lib/oauth/web/", reachable: true },
    },
    {
      name: "leaves-are-leaves",
      severity: "error",
      comment: "Leaf modules are imported from everywhere, so they import no project module but other leaves.",
      from: { path: anyOf(LEAVES) },
      to: { path: PROJECT, pathNot: anyOf(LEAVES) },
    },
    {
      name: "client-imports-browser-safe",
      severity: "error",
      comment: 'A "use client" file is bundled for the browser: it imports values only from modules marked browser-safe.',
      from: { path: anyOf(CLIENT_ENTRIES) },
      to: { path: PROJECT, pathNot: anyOf(BROWSER_SAFE), dependencyTypesNot: ERASED },
    },
    {
      name: "browser-safe-stays-safe",
      severity: "error",
      comment: "A browser-safe module imports values only from other browser-safe modules, and no Node built-in.",
      from: { path: anyOf(BROWSER_SAFE) },
      to: { path: PROJECT, pathNot: anyOf(BROWSER_SAFE), dependencyTypesNot: ERASED },
    },
    {
      name: "browser-safe-no-node",
      severity: "error",
      comment: "Node built-ins do not exist in the browser.",
      from: { path: [anyOf(BROWSER_SAFE), anyOf(CLIENT_ENTRIES)] },
      to: { dependencyTypes: ["core"], dependencyTypesNot: ERASED },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|drizzle|data|tools)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
