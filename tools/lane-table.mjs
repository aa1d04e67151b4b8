#!/usr/bin/env node
/**
 * Writes app/_direct/routes.ts, the direct lane's table, from the route modules that declare
 * `export const lane` (docs/performance.md#the-direct-lane): the table names each such module by the
 * path Next serves it at, and nothing else. tests/unit/lane/lane-table.test.ts fails when the file
 * is not what this writes.
 *
 *   node tools/lane-table.mjs          write the table
 *   node tools/lane-table.mjs --check  exit 1 when the table is out of date
 */
import fs from "node:fs";
import path from "node:path";

// Run from the project root, as npm scripts and the test runners are (no import.meta: Playwright
// loads this file as CommonJS when a spec imports it).
const ROOT = process.cwd();
/** The table's file, relative to the project root. */
export const TABLE_FILE = "app/_direct/routes.ts";

/**
 * Every route module under `dir` (posix paths from the root), sorted.
 * @param {string} dir
 * @returns {string[]}
 */
function routeModules(dir) {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return entry.name.startsWith("_") ? [] : routeModules(rel);
      return entry.name === "route.ts" ? [rel] : [];
    })
    .sort();
}

/**
 * The route modules that declare themselves lane routes, with the path Next serves each at.
 * @returns {{ file: string; path: string }[]}
 */
export function laneRoutes() {
  return routeModules("app")
    .filter((file) => /^export const lane\b/m.test(fs.readFileSync(path.join(ROOT, file), "utf8")))
    .map((file) => {
      // Route groups, `(name)`, are not part of the URL.
      const segments = file
        .split("/")
        .slice(1, -1)
        .filter((segment) => !/^\(.*\)$/.test(segment));
      return { file, path: `/${segments.join("/")}` };
    });
}

/**
 * The table's source for `routes`.
 * @param {{ file: string; path: string }[]} [routes]
 */
export function tableSource(routes = laneRoutes()) {
  const imports = routes.map((route, i) => `import * as route${i} from "../${route.file.slice("app/".length, -".ts".length)}";`);
  const entries = routes.map((route, i) => `  ${JSON.stringify(route.path)}: route${i},`);
  return [
    "/**",
    " * The routes served on the direct lane (lib/lane/direct-lane.ts), by the path Next serves each at:",
    " * every route module that exports `lane`. Written by tools/lane-table.mjs; do not edit (the unit",
    " * test tests/unit/lane/lane-table.test.ts fails when it is out of date). Each is also served at its",
    " * workspace-scoped form (`/api/w/<slug>/…`, lib/workspaces/api-path.ts).",
    " */",
    'import { laneTable } from "@/lib/lane/lane-table";',
    ...imports,
    "",
    "/** Method, path pattern and lane handler of each direct route. */",
    "export const DIRECT_ROUTES = laneTable({",
    ...entries,
    "});",
    "",
  ].join("\n");
}

if (process.argv[1] && path.basename(process.argv[1]) === "lane-table.mjs") {
  const file = path.join(ROOT, TABLE_FILE);
  const want = tableSource();
  if (process.argv.includes("--check")) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (current !== want) {
      console.error(`${TABLE_FILE} is out of date: run node tools/lane-table.mjs`);
      process.exit(1);
    }
  } else {
    fs.writeFileSync(file, want);
    console.log(`${TABLE_FILE}: ${laneRoutes().length} lane route module(s)`);
  }
}
