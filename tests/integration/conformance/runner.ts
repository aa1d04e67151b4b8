/**
 * Runs one scenario of the official MCP conformance suite (installed in tools/conformance) against
 * `switchboard conformance`, both on the project's Node, and applies the project's verdict, stricter than the runner's own:
 * exit 0 and "OVERALL: PASSED", no FAILURE or WARNING check, at least one SUCCESS check (a scenario
 * that scored nothing is a failure, not a pass), and in auth/resource-mismatch proof that the
 * protected-resource metadata was fetched before refusing. `runServerRequirements` runs the suite's
 * SERVER scenarios against a URL instead (the gateway's conformance test), with the same verdict per scenario.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const TOOLS = path.join(ROOT, "tools/conformance/node_modules");
/** The two suite versions installed side by side (npm alias for the newer one). */
export const SUITES = {
  "0.1.16": path.join(TOOLS, "@modelcontextprotocol/conformance/dist/index.js"),
  "0.2.0-alpha.12": path.join(TOOLS, "conformance-next/dist/index.js"),
} as const;
export const TIMEOUT_MS = 30_000;
/** Per-test budget: the scenario's timeout plus the runner's own start and stop. */
export const TEST_TIMEOUT_MS = TIMEOUT_MS + 90_000;
// `exec` so the runner's kill on timeout reaches the client, not just /bin/sh (docs/conformance.md).
const CLIENT = `exec ${process.execPath} bin/switchboard.mjs conformance`;

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description: string;
  errorMessage?: string;
}

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-conformance-"));
process.on("exit", () => fs.rmSync(outDir, { recursive: true, force: true }));

/** The client scenario names a suite lists (optionally for one spec version). */
export function listScenarios(suite: keyof typeof SUITES, specVersion?: string): Promise<string[]> {
  const args = [SUITES[suite], "list", "--client", ...(specVersion ? ["--spec-version", specVersion] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("close", () => resolve([...out.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1])));
  });
}

/** Run one scenario; the runner gets its own process group, killed if it outlives timeout + 60 s. */
function runScenario(
  suite: keyof typeof SUITES,
  scenario: string,
  specVersion?: string,
): Promise<{ code: number | null; stderr: string; checks: Check[] }> {
  const dir = path.join(outDir, suite, specVersion ?? "default", scenario.replace(/\//g, "_"));
  const args = [SUITES[suite], "client", "--command", CLIENT, "--scenario", scenario, "--timeout", String(TIMEOUT_MS), "-o", dir];
  if (specVersion) args.push("--spec-version", specVersion);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stdout.resume();
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const killer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), TIMEOUT_MS + 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(killer);
      const checksFile = fs.existsSync(dir) ? findFile(dir, "checks.json") : undefined;
      resolve({ code, stderr, checks: checksFile ? (JSON.parse(fs.readFileSync(checksFile, "utf8")) as Check[]) : [] });
    });
  });
}

/** Run `scenario` and assert the strict verdict. */
export async function expectScenarioPasses(suite: keyof typeof SUITES, scenario: string, specVersion?: string): Promise<void> {
  const { code, stderr, checks } = await runScenario(suite, scenario, specVersion);
  const bad = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
  expect(bad.map((c) => `${c.status} ${c.id}: ${c.description}`)).toEqual([]);
  expect(stderr).toContain("OVERALL: PASSED");
  expect(code).toBe(0);
  expect(
    checks.some((c) => c.status === "SUCCESS"),
    "no scored check: a vacuous pass",
  ).toBe(true);
  if (scenario === "auth/resource-mismatch") {
    expect(
      checks.some((c) => c.id === "prm-pathbased-requested" && c.status === "SUCCESS"),
      "the PRM must be fetched before refusing",
    ).toBe(true);
  }
}

function findFile(dir: string, name: string): string | undefined {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = findFile(full, name);
      if (found) return found;
    } else if (entry.name === name) return full;
  }
  return undefined;
}

/** One server scenario's outcome: its scored checks, and whether it passes by the strict verdict. */
export interface ServerScenarioResult {
  passed: boolean;
  checks: Check[];
}

/**
 * Run the SERVER scenarios a spec revision requires (`server --requirements <revision>`, the
 * suite's frozen set for that revision, extension and pending scenarios included) against `url`,
 * in one runner process. Each scenario is judged by the same strict verdict as a client scenario:
 * at least one SUCCESS check and no FAILURE or WARNING (a scenario that scored nothing fails).
 * The suite has no option to send a header, so `url` must serve an authenticated endpoint itself.
 */
export function runServerRequirements(url: string, revision: "2025-11-25" | "2026-07-28"): Promise<Map<string, ServerScenarioResult>> {
  const dir = fs.mkdtempSync(path.join(outDir, `server-${revision}-`));
  const args = [SUITES["0.2.0-alpha.12"], "server", "--url", url, "--requirements", revision, "--timeout", String(TIMEOUT_MS), "-o", dir];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    const killer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 10 * 60_000);
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(killer);
      const results = new Map<string, ServerScenarioResult>();
      // One folder per scenario: server-<scenario>-<ISO timestamp with dashes>.
      for (const entry of fs.readdirSync(dir)) {
        const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
        const file = path.join(dir, entry, "checks.json");
        if (!scenario || !fs.existsSync(file)) continue;
        const checks = JSON.parse(fs.readFileSync(file, "utf8")) as Check[];
        const bad = checks.some((c) => c.status === "FAILURE" || c.status === "WARNING");
        results.set(scenario, { passed: !bad && checks.some((c) => c.status === "SUCCESS"), checks });
      }
      resolve(results);
    });
  });
}
