/**
 * The official MCP conformance suite's AUTHORIZATION scenarios (0.2.0-alpha.12, `authorization`)
 * against Switchboard's authorization server (issue 33, docs/gateway.md#the-authorization-server):
 * `authorization-server-metadata-endpoint` (RFC 8414 metadata) and `authorization-code-grant`
 * (authorize with PKCE S256 and `resource`, the redirect back, the token exchange), at 2025-11-25 and
 * at 2026-07-28. The suite runs every authorization scenario in one process (the grant scenario
 * reads the metadata scenario's result, so it cannot run alone), prints the authorization URL and
 * waits for its callback: the test plays the user, a signed-in member who allows the client on the
 * consent page, and the browser follows the redirect to the suite's callback. Each scenario is
 * judged strictly, as tests/integration/gateway/conformance.test.ts judges: at least one SUCCESS
 * check, no FAILURE or WARNING.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { startSession } from "@/lib/auth/sessions";
import { nextAuthSecret } from "@/lib/auth/options";
import { consentView } from "@/lib/use-cases/oauth-server";
import { SUITES } from "../conformance/runner";
import { freePort, ROOT } from "../mcp/helpers";
import type { Person } from "../workspaces/helpers";
import { acmeWithBob, closeGatewayTest, type ServedGateway, serveGateway } from "./helpers";

// The use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
const SCENARIOS = ["authorization-server-metadata-endpoint", "authorization-code-grant"];
/** The suite's own wait for the callback is 5 minutes; the test gives up well before. */
const RUN_TIMEOUT_MS = 90_000;

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description: string;
  errorMessage?: string;
}

let dir = "";
let gateway: ServedGateway | undefined;
let base = "";
let bob: Person;
let resource = "";
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-as-conformance-"));

/** The member's browser session cookie, as the app's sign-in sets it. */
async function sessionCookie(user: Person): Promise<string> {
  const sid = await startSession(getDb(), user.id);
  return `next-auth.session-token=${await encode({ token: { sub: user.id, sid }, secret: nextAuthSecret() })}`;
}

/** A browser's cookies: the app's session, plus what the authorization server sets. */
class Jar {
  private readonly values = new Map<string, string>();
  constructor(private readonly session: string) {}
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      const value = pair.slice(at + 1);
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) this.values.delete(pair.slice(0, at));
      else this.values.set(pair.slice(0, at), value);
    }
  }
  header(): string {
    return [this.session, ...[...this.values].map(([name, value]) => `${name}=${value}`)].join("; ");
  }
}

/** A public client registered for the suite (RFC 7591), redirecting to its callback on `port`. */
async function registerSuiteClient(port: number): Promise<{ clientId: string; redirect: string }> {
  const redirect = `http://127.0.0.1:${port}/callback`;
  const response = await fetch(`${base}/oauth/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "MCP conformance suite",
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  expect(response.status).toBe(201);
  return { clientId: ((await response.json()) as { client_id: string }).client_id, redirect };
}

/**
 * The user's part: open the suite's authorization URL in bob's signed-in browser, land on the
 * consent page (checking what it would show), press Allow, and follow the redirects until the
 * browser reaches the suite's callback, which it then opens (ending the suite's wait).
 */
async function consentAsBob(authorizationUrl: string, clientId: string, redirect: string): Promise<void> {
  const jar = new Jar(await sessionCookie(bob));
  const browse = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(new URL(url, base), { redirect: "manual", ...init, headers: { cookie: jar.header(), ...init.headers } });
    jar.take(response);
    return response;
  };
  const started = await browse(authorizationUrl);
  const location = started.headers.get("location") ?? "";
  expect(started.status, await started.text()).toBe(303);
  const uid = /^\/oauth\/interaction\/([^/?]+)$/.exec(location)?.[1];
  expect(uid, location).toBeTruthy();
  // What the consent page shows for this interaction: the suite's client, its callback, bob's workspace.
  expect(await consentView(bob, uid as string, base)).toMatchObject({
    clientId,
    clientName: "MCP conformance suite",
    redirectUri: redirect,
    resource,
    workspaceName: "Acme",
    refusal: null,
  });
  // Allow, as the page sends it: a same-origin fetch POST; the answer names where the browser goes on.
  const confirmed = await browse(`/oauth/interaction/${uid}/confirm`, { method: "POST", headers: { origin: base } });
  expect(confirmed.status).toBe(200);
  let next = ((await confirmed.json()) as { location: string }).location;
  for (let hop = 0; hop < 4 && !next.startsWith(redirect); hop++) next = (await browse(next)).headers.get("location") ?? "";
  expect(next.startsWith(`${redirect}?`), next).toBe(true);
  const callback = await fetch(next);
  expect(callback.status).toBe(200);
}

/**
 * Run the suite's authorization scenarios of `revision` against the issuer, playing the user when it
 * prints its authorization URL: each scenario's checks, as it wrote them to `-o`.
 */
async function runAuthorizationSuite(revision: string): Promise<{ code: number | null; output: string; results: Map<string, Check[]> }> {
  const port = await freePort();
  const { clientId, redirect } = await registerSuiteClient(port);
  const out = fs.mkdtempSync(path.join(outDir, `${revision}-`));
  const args = [
    SUITES["0.2.0-alpha.12"],
    "authorization",
    "--url",
    base,
    "--client-id",
    clientId,
    "--resource",
    resource,
    "-p",
    String(port),
    "--spec-version",
    revision,
    "-o",
    out,
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let consent: Promise<void> | undefined;
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk;
    // The URL is printed on a line of its own, after "Access the following URL…".
    const url = /^(http:\/\/\S+\/oauth\/authorize\?\S+)$/m.exec(output)?.[1];
    if (url && !consent) consent = consentAsBob(url, clientId, redirect);
  });
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const killer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), RUN_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  clearTimeout(killer);
  // The user's part must have run, and passed its own checks.
  expect(consent, output).toBeDefined();
  await consent;
  const results = new Map<string, Check[]>();
  // One folder per scenario: authorization-server-<scenario>-<ISO timestamp with dashes>.
  for (const entry of fs.readdirSync(out)) {
    const scenario = /^authorization-server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
    const file = path.join(out, entry, "checks.json");
    if (scenario && fs.existsSync(file)) results.set(scenario, JSON.parse(fs.readFileSync(file, "utf8")) as Check[]);
  }
  return { code, output, results };
}

beforeAll(async () => {
  let acmeSlug = "";
  ({ dir, bob, acmeSlug } = await acmeWithBob());
  gateway = await serveGateway();
  base = gateway.base;
  resource = `${base}/mcp/${acmeSlug}`;
});

afterAll(async () => {
  await closeGatewayTest({ gateway, dir });
  fs.rmSync(outDir, { recursive: true, force: true });
});

describe.each(REVISIONS)("the conformance suite's authorization scenarios at %s", (revision) => {
  it(
    "pass against Switchboard's authorization server, the member allowing the suite's client on the consent page",
    async () => {
      const { code, output, results } = await runAuthorizationSuite(revision);
      expect([...results.keys()].sort(), output).toEqual([...SCENARIOS].sort());
      for (const [scenario, checks] of results) {
        const bad = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
        expect(
          bad.map((c) => `${scenario}: ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`),
          output,
        ).toEqual([]);
        expect(
          checks.some((c) => c.status === "SUCCESS"),
          `${scenario} scored nothing`,
        ).toBe(true);
      }
      // Every check the revision counts, for the record (docs/gateway.md#the-authorization-server).
      console.log(
        `${revision}: ${[...results].map(([s, checks]) => `${s}: ${checks.map((c) => `${c.id} ${c.status}`).join(", ")}`).join("; ")}`,
      );
      expect(code, output).toBe(0);
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});
