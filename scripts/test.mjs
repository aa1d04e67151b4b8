#!/usr/bin/env node
// `npm test`: every check and suite, in order: system packages (when root), lint + format check
// (Biome), import boundaries (dependency-cruiser), the docs check, type-check, the scripts' planted-violation check,
// unit tests, a production build, then two lanes at the same time: the integration tests (vitest) and
// browser tests (Playwright + Debian chromium) on SQLite, and the same two on Postgres. Ends with
// `N passed, N failed`. `node scripts/test.mjs <part>… [args]` runs only those parts (npm run
// test:unit, test:integration, test:integration:postgres, test:e2e, test:e2e:postgres); args after a
// single part go to its runner.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkRuntime } from "./runtime.mjs";

console.log(`switchboard test: ${checkRuntime("switchboard test")}`);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-test-"));
const bin = (pkg, file) => path.join(root, "node_modules", pkg, file);
let passed = 0;
let failed = 0;
const problems = [];
// Reported at the end without failing the run: browser tests that passed only on their retry.
const warnings = [];

// Debian packages the tests need: a browser for Playwright, bubblewrap and slirp4netns for the stdio sandbox.
const SYSTEM_PACKAGES = [
  { pkg: "chromium", probe: "/usr/bin/chromium" },
  { pkg: "bubblewrap", probe: "/usr/bin/bwrap" },
  // network: true runs behind slirp4netns (user-mode networking without the host's loopback).
  { pkg: "slirp4netns", probe: "/usr/bin/slirp4netns" },
  // A sandbox's kept, size-capped home is an ext4 image mounted through a loop device.
  { pkg: "e2fsprogs", probe: "/usr/sbin/mkfs.ext4" },
  // The database tests start their own throw-away clusters with initdb/pg_ctl (tests/helpers/postgres.ts).
  { pkg: "postgresql", probe: () => hasPostgres() },
  // The cluster tests start their own Redis (tests/helpers/redis.ts).
  { pkg: "redis-server", probe: "/usr/bin/redis-server" },
  // The documented nginx configuration for replicas is run by its test (deploy/nginx.conf).
  { pkg: "nginx", probe: "/usr/sbin/nginx" },
];

/** Whether initdb is installed (Debian keeps it in a versioned folder, off the PATH). */
function hasPostgres() {
  const debian = "/usr/lib/postgresql";
  if (fs.existsSync(debian) && fs.readdirSync(debian).some((v) => fs.existsSync(path.join(debian, v, "bin/initdb")))) return true;
  return spawnSync("sh", ["-c", "command -v initdb"], { stdio: "ignore" }).status === 0;
}

/**
 * Installing Debian's postgresql or redis-server would create and start system services: the tests
 * want none (they run their own under temp dirs), so no main cluster is created and invoke-rc.d
 * starts no service during the install (a policy-rc.d answering 101, removed afterwards).
 */
function withoutServices(install) {
  const conf = "/etc/postgresql-common/createcluster.conf";
  fs.mkdirSync(path.dirname(conf), { recursive: true });
  const kept = fs.existsSync(conf) ? fs.readFileSync(conf, "utf8").replace(/^create_main_cluster.*$/gm, "") : "";
  fs.writeFileSync(conf, `${kept.trimEnd()}\ncreate_main_cluster = false\n`);
  const policy = "/usr/sbin/policy-rc.d";
  const ownPolicy = !fs.existsSync(policy);
  if (ownPolicy) fs.writeFileSync(policy, "#!/bin/sh\nexit 101\n", { mode: 0o755 });
  try {
    return install();
  } finally {
    if (ownPolicy) fs.rmSync(policy, { force: true });
  }
}

function ensureSystemPackages() {
  const present = (p) => (typeof p.probe === "function" ? p.probe() : fs.existsSync(p.probe));
  const missing = SYSTEM_PACKAGES.filter((p) => !present(p)).map((p) => p.pkg);
  if (!missing.length) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `switchboard test: missing Debian packages: ${missing.join(" ")}. Install them with: sudo apt-get install -y ${missing.join(" ")}`,
    );
    process.exit(1);
  }
  console.log(`switchboard test: installing ${missing.join(", ")} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () => {
    for (const args of [
      ["update", "-q"],
      ["install", "-y", "-q", "--no-install-recommends", "-o", "Dpkg::Options::=--force-confold", ...missing],
    ]) {
      const result = spawnSync("apt-get", args, { stdio: "inherit", env });
      if (result.status !== 0) {
        console.error(`switchboard test: apt-get ${args[0]} failed; install ${missing.join(" ")} by hand.`);
        process.exit(1);
      }
    }
  };
  withoutServices(install);
}

function step(label, command, args, options = {}) {
  console.log(`\n=== ${label}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...options.env } });
  return result.status === 0;
}

// The names of what failed, repeated at the end: CI shows the run's last lines, not the reporter's.
const failures = [];

function countVitest(file, prefix = "") {
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  if (report.numFailedTests === 0 && !report.success) failed += 1; // a suite that failed to load
  const named = failures.length;
  for (const suite of report.testResults ?? []) {
    const where = path.relative(root, suite.name);
    const tests = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const test of tests) failures.push(`${prefix}${where} › ${test.fullName}`);
    if (!tests.length && suite.status === "failed")
      failures.push(`${prefix}${where} (did not load: ${String(suite.message).split("\n")[0].slice(0, 200)})`);
  }
  // A run can fail outside every test and suite status (a hook that timed out after its tests passed):
  // name the files whose report carries a message, or say where to look.
  if (!report.success && failures.length === named) {
    const failing = (report.testResults ?? []).filter((suite) => suite.message);
    for (const suite of failing)
      failures.push(`${prefix}${path.relative(root, suite.name)} (${String(suite.message).split("\n")[0].slice(0, 200)})`);
    if (!failing.length) failures.push(`${prefix}a failure outside the tests: see the reporter's output above`);
  }
}

function playwrightFailures(suites, prefix, file = "") {
  for (const suite of suites ?? []) {
    const where = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      if (spec.tests?.some((t) => t.status === "unexpected")) failures.push(`${prefix}${where} › ${spec.title}`);
    }
    playwrightFailures(suite.suites, prefix, where);
  }
}

function countPlaywright(file, prefix = "") {
  const { stats, suites } = JSON.parse(fs.readFileSync(file, "utf8"));
  playwrightFailures(suites, prefix);
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  if (stats.flaky)
    warnings.push(`${prefix}${stats.flaky} browser test(s) passed only on their retry (named as flaky above): a race to fix`);
  if (stats.unexpected === 0 && (stats.expected ?? 0) === 0) problems.push(`${prefix}Playwright ran no test`);
}

// The conformance suite lives in its own package so its dependencies never mix with the app's.
function ensureConformanceTools() {
  const installed = ["@modelcontextprotocol/conformance", "conformance-next"].every((pkg) =>
    fs.existsSync(path.join(root, "tools/conformance/node_modules", pkg, "package.json")),
  );
  if (installed) return;
  if (!step("install conformance tools", "npm", ["ci", "--prefix", "tools/conformance", "--no-audit", "--no-fund"])) {
    console.error("switchboard test: could not install tools/conformance (npm ci --prefix tools/conformance).");
    process.exit(1);
  }
}

// The parts, in the order `npm test` runs them; the checks run the npm scripts of the same name,
// so what a developer runs alone is exactly what CI runs.
const CHECKS = {
  lint: { label: "lint and format (npm run lint: biome ci)", script: "lint" },
  boundaries: { label: "import boundaries (npm run check:boundaries: dependency-cruiser)", script: "check:boundaries" },
  docs: { label: "docs name only what exists (npm run check:docs)", script: "check:docs" },
  typecheck: { label: "type-check (npm run typecheck: tsc)", script: "typecheck" },
  scripts: { label: "the scripts fail on planted violations (npm run check:scripts)", script: "check:scripts" },
};
const PARTS = [...Object.keys(CHECKS), "unit", "integration", "integration-postgres", "e2e", "e2e-postgres"];

const argv = process.argv.slice(2).filter((arg) => arg !== "--");
let named = 0;
while (named < argv.length && PARTS.includes(argv[named])) named += 1;
const parts = named ? argv.slice(0, named) : PARTS;
const extra = argv.slice(named);
if (extra.length && (parts.length !== 1 || parts[0] in CHECKS)) {
  console.error(`switchboard test: unknown part ${JSON.stringify(extra[0])} (parts: ${PARTS.join(", ")}; args go after one test part)`);
  process.exit(2);
}

const integration = parts.includes("integration") || parts.includes("integration-postgres");
if (integration || parts.includes("e2e") || parts.includes("e2e-postgres")) ensureSystemPackages();
if (integration) ensureConformanceTools();

/** `npm run <script>` with the npm that started us (npm_execpath), else the npm on the PATH. */
function npmRun(script) {
  const cli = process.env.npm_execpath;
  return cli ? [process.execPath, [cli, "run", "--silent", script]] : ["npm", ["run", "--silent", script]];
}

// Each check counts as one failed test when it fails, so the closing line shows it.
for (const [part, { label, script }] of Object.entries(CHECKS)) {
  if (!parts.includes(part)) continue;
  if (!step(label, ...npmRun(script))) {
    failed += 1;
    problems.push(`${part} failed`);
  }
}

/** vitest's arguments for one project, its JSON report written to `out`. */
function vitestArgs(project, out) {
  return [
    bin("vitest", "vitest.mjs"),
    "run",
    "--project",
    project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${out}`,
    ...extra,
  ];
}

/** Count a vitest report (a missing one is one failure); `name` is the run's name in the closing lines. */
function vitestResult(name, ok, out, prefix = "") {
  if (fs.existsSync(out)) countVitest(out, prefix);
  else failed += 1;
  if (!ok) problems.push(`${name} failed`);
}

if (parts.includes("unit")) {
  const out = path.join(reports, "unit.json");
  vitestResult("vitest unit", step("vitest unit", process.execPath, vitestArgs("unit", out)), out);
}

// Two lanes side by side: SQLite in the foreground, Postgres in the background, each running its
// integration suite and then its browser suite (docs/testing.md). The suites spawn servers and wait
// on them more than they compute, and the lanes share no port or file (free ports, temp dirs, a
// cluster per lane, their own app ports below), so the pair takes far less than one after the other.
// The background lane's output is kept in files and printed as each run ends, so reporters do not
// interleave; its failures are named `[postgres]`.
const browserParts = ["e2e", "e2e-postgres"].filter((part) => parts.includes(part));
// The production build both browser runs serve, made once before the lanes start.
const built = browserParts.length > 0 && buildApp();

// The Postgres browser run's ports: apart from the SQLite run's defaults (app 3111, its identity
// provider and registry fixtures at app + 2, scripted model 3198).
const POSTGRES_BROWSER_ENV = { E2E_DB: "postgres", E2E_PORT: "3121", E2E_LLM_PORT: "3199", E2E_PG_PORT: "3196" };

const postgresLane = (async () => {
  if (parts.includes("integration-postgres")) {
    const out = path.join(reports, "integration-postgres.json");
    const ok = await inBackground("vitest integration on Postgres", vitestArgs("integration", out), { SWITCHBOARD_TEST_DB: "postgres" });
    vitestResult("vitest integration on Postgres", ok, out, "[postgres] ");
  }
  if (parts.includes("e2e-postgres") && built) {
    const out = path.join(reports, "playwright-postgres.json");
    const ok = await inBackground("playwright on Postgres", playwrightArgs(), {
      ...POSTGRES_BROWSER_ENV,
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    });
    playwrightResult("playwright on Postgres", ok, out, "[postgres] ");
  }
})();

if (parts.includes("integration")) {
  const out = path.join(reports, "integration.json");
  vitestResult("vitest integration", await inForeground("vitest integration", vitestArgs("integration", out)), out);
}
if (parts.includes("e2e") && built) {
  const out = path.join(reports, "playwright.json");
  playwrightResult("playwright", await inForeground("playwright", playwrightArgs(), { PLAYWRIGHT_JSON_OUTPUT_NAME: out }), out);
}
await postgresLane;

/** Node running `args` with its output on ours; resolves to whether it exited 0 (the event loop keeps turning meanwhile, unlike `step`). */
function inForeground(label, args, env = {}) {
  console.log(`\n=== ${label}`);
  const child = spawn(process.execPath, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return exited(child);
}

/** Node running `args` with its output kept in a file, printed when it ends; resolves to whether it exited 0. */
async function inBackground(label, args, env) {
  const log = path.join(reports, `${label.replace(/\W+/g, "-")}.log`);
  console.log(`\n=== ${label}: started (its output follows when it ends)`);
  const fd = fs.openSync(log, "w");
  const child = spawn(process.execPath, args, { stdio: ["ignore", fd, fd], env: { ...process.env, ...env } });
  const ok = await exited(child);
  fs.closeSync(fd);
  console.log(`\n=== ${label}: its output`);
  process.stdout.write(fs.readFileSync(log, "utf8"));
  return ok;
}

function exited(child) {
  return new Promise((resolve) => {
    child.on("error", () => resolve(false));
    child.on("exit", (code) => resolve(code === 0));
  });
}

/** The production build the browser runs serve (its failure counts as one failure). */
function buildApp() {
  if (step("next build", process.execPath, [bin("next", "dist/bin/next"), "build"])) return true;
  failed += 1;
  problems.push("next build failed");
  return false;
}

function playwrightArgs() {
  return [bin("@playwright/test", "cli.js"), "test", "--reporter=list,json", ...extra];
}

/** Count a Playwright report (a missing one is one failure). */
function playwrightResult(name, ok, out, prefix = "") {
  if (fs.existsSync(out)) countPlaywright(out, prefix);
  else failed += 1;
  if (!ok) problems.push(`${name} failed`);
}

if (warnings.length) console.log(`\nwarnings: ${warnings.join("; ")}`);
if (failures.length) console.log(`\nfailed:\n${failures.map((f) => `  ✗ ${f}`).join("\n")}`);
if (problems.length) console.log(`\nproblems: ${problems.join("; ")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && problems.length === 0 ? 0 : 1);
