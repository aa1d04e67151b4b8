/**
 * The direct lane answers exactly as Next does, for every route in the lane's table: the running
 * built app (scripts/server.mjs) on the test port serves the lane, and a second copy of the same build
 * on the same data directory runs without the lane (tests/e2e/helpers/next-only-server.mjs). Each
 * lane route's requests (success, refusals, every error family the route can give) go to both, and
 * the status, the body and the headers that carry meaning must be the same. The routes come from
 * the lane's own table (tools/lane-table.mjs), so a new lane route without cases here fails.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { type APIRequestContext, request as playwrightRequest } from "@playwright/test";
import { freePort, waitForPort } from "../helpers/ports";
import { expect, test } from "./helpers/fixtures";
import { newAccount, setupCode } from "./pages/app";
import { laneRoutes } from "../../tools/lane-table.mjs";

const PORT = Number(process.env.E2E_PORT ?? 3111);
const LANE = `http://localhost:${PORT}`;

test.describe.configure({ timeout: 180_000 });

type Exchange = { method: string; path: string; headers?: Record<string, string>; body?: string; cookie?: "owner" | "none" };
type Context = { serverId: string; slug: string };

/** The requests each lane route is checked with, by its path in the lane table. */
const CASES: Record<string, (context: Context) => Exchange[]> = {
  "/api/servers/[id]/tools/call": ({ serverId }) => {
    const call = (body: string, more: Partial<Exchange> = {}): Exchange => ({
      method: "POST",
      path: `/api/servers/${serverId}/tools/call`,
      headers: { "content-type": "application/json" },
      body,
      ...more,
    });
    return [
      call(JSON.stringify({ name: "echo", arguments: { message: "parity ✓" } })),
      call(JSON.stringify({ name: "get-sum", arguments: { a: 2, b: 3 } })),
      call(JSON.stringify({ name: "no-such-tool", arguments: {} })),
      call(JSON.stringify({ name: "get-sum", arguments: { a: "two" } })),
      call(JSON.stringify({})),
      call(JSON.stringify({ name: "echo", extra: true })),
      call("{ not json"),
      call("", { headers: { "content-type": "application/json" } }),
      call("name=echo", { headers: { "content-type": "application/x-www-form-urlencoded" } }),
      call(JSON.stringify({ name: "echo", arguments: {} }), { cookie: "none" }),
      call(JSON.stringify({ name: "echo", arguments: {} }), {
        headers: { "content-type": "application/json", origin: "https://evil.example" },
      }),
      call(JSON.stringify({ name: "echo", arguments: { message: "x" } }), { path: "/api/servers/no-such-server/tools/call" }),
      call(JSON.stringify({ name: "echo", arguments: { message: "x" } }), { path: "/api/servers/a%20b/tools/call" }),
      call(JSON.stringify({ name: "echo", arguments: { message: "scoped" } }), { path: `/api/w/personal/servers/${serverId}/tools/call` }),
      call(JSON.stringify({ name: "echo", arguments: { message: "x" } }), { path: `/api/w/not-a-member/servers/${serverId}/tools/call` }),
      call(JSON.stringify({ name: "echo", arguments: { message: "x" } }), {
        headers: { "content-type": "application/json", "x-workspace-id": "not-a-workspace" },
      }),
    ];
  },
};

/**
 * The MCP gateway's endpoints on the lane (docs/performance.md#the-gateway): without a token of the
 * account (these cases make none) every method is refused alike, before the body is read; a
 * cross-site POST without a bearer header meets the request policy. Success through the lane is
 * proven with real MCP clients in tests/integration/gateway/lane.test.ts.
 */
const gatewayCases = (path: string): Exchange[] => {
  const rpc = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  return [
    { method: "POST", path, headers: json, body: rpc },
    { method: "POST", path, headers: { ...json, authorization: "Bearer sbp_not-a-token" }, body: rpc },
    { method: "POST", path, headers: { ...json, authorization: `Bearer sbp_${"A".repeat(43)}` }, body: "{ not json" },
    { method: "GET", path, headers: { accept: "text/event-stream" } },
    { method: "DELETE", path, headers: { "mcp-session-id": "no-such-session" } },
    { method: "POST", path, headers: { ...json, origin: "https://evil.example" }, body: rpc },
  ];
};
CASES["/mcp/[slug]/[server]"] = ({ slug }) => gatewayCases(`/mcp/${slug}/parity-1`);
CASES["/mcp/[slug]"] = ({ slug }) => gatewayCases(`/mcp/${slug}`);

/** The statuses a route's cases must reach (not a comparison of two identical failures); the gateway's: its refusals. */
const REACHED: Record<string, number[]> = { "/mcp/[slug]/[server]": [401, 403], "/mcp/[slug]": [401, 403] };

// The headers whose meaning a client reads; the CSP's per-request nonce is left out of the comparison.
const COMPARED = [
  "content-type",
  "cache-control",
  "retry-after",
  "www-authenticate",
  "content-security-policy",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "permissions-policy",
  "cross-origin-opener-policy",
  "strict-transport-security",
];

type Answer = { status: number; headers: Record<string, string | null>; timing: string[]; body: unknown };

async function send(base: string, exchange: Exchange, cookie: string): Promise<Answer> {
  const headers: Record<string, string> = { ...exchange.headers };
  if (exchange.cookie !== "none") headers.cookie = cookie;
  const response = await fetch(`${base}${exchange.path}`, { method: exchange.method, headers, body: exchange.body });
  const text = await response.text();
  // The two servers listen on two ports, and a 401 names the protected-resource metadata at the
  // request's own origin: the origin is compared as `<base>`.
  const compared = Object.fromEntries(
    COMPARED.map((name) => [
      name,
      response.headers
        .get(name)
        ?.replace(/'nonce-[^']+'/g, "'nonce-…'")
        .replaceAll(base, "<base>") ?? null,
    ]),
  );
  // The metric names, not their durations (a tool call's `mcp;dur=` differs from call to call).
  const timing = (response.headers.get("server-timing") ?? "")
    .split(",")
    .map((metric) => metric.trim().split(";")[0])
    .filter(Boolean);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  return { status: response.status, headers: compared, timing, body };
}

let nextOnly: ChildProcess | undefined;
let NEXT = "";
let api: APIRequestContext;
let cookie = "";

test.beforeAll(async () => {
  const port = await freePort();
  NEXT = `http://localhost:${port}`;
  // The same build, data directory and settings as the app under test (playwright.config.ts), without the lane.
  nextOnly = spawn(process.execPath, [path.join("tests/e2e/helpers/next-only-server.mjs")], {
    env: {
      ...process.env,
      PORT: String(port),
      SWITCHBOARD_DATA_DIR: process.env.E2E_DATA_DIR,
      // The Postgres of a browser run on Postgres (playwright.config.ts); unset on SQLite.
      DATABASE_URL: process.env.E2E_DATABASE_URL,
      SWITCHBOARD_ALLOWED_HOSTS: "127.0.0.1,localhost",
      SWITCHBOARD_TRUSTED_PROXIES: "127.0.0.1,::1",
      // Two servers on one database without cluster mode: allowed for this comparison only.
      SWITCHBOARD_SKIP_REPLICA_CHECK: "1",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  nextOnly.stderr?.on("data", (chunk) => {
    errors += chunk;
  });
  await waitForPort(port, 60_000).catch((error) => {
    throw new Error(`the Next-only server did not start: ${error.message}\n${errors}`);
  });
  expect((await fetch(`${NEXT}/api/health`)).status).toBe(200);

  const account = newAccount("parity");
  api = await playwrightRequest.newContext({ baseURL: LANE });
  const code = setupCode();
  expect((await api.post("/api/auth/register", { data: code ? { ...account, setupCode: code } : account })).status()).toBe(201);
  const { csrfToken } = await (await api.get("/api/auth/csrf")).json();
  const signIn = await api.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: account.email, password: account.password, json: "true" },
  });
  expect(signIn.ok()).toBe(true);
  cookie = (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
});

test.afterAll(async () => {
  await api?.dispose();
  if (nextOnly && nextOnly.exitCode === null) {
    const exited = new Promise((resolve) => nextOnly?.once("exit", resolve));
    nextOnly.kill("SIGTERM");
    await exited;
  }
});

test("every lane route has parity cases, and no case names a route off the lane", () => {
  expect(Object.keys(CASES).sort()).toEqual(
    laneRoutes()
      .map((route) => route.path)
      .sort(),
  );
});

for (const [index, route] of laneRoutes().entries()) {
  test(`${route.path}: the lane and Next give the same status, headers and body`, async ({ everything }) => {
    // One server per route: names are unique in a workspace, and every route's test uses the same account.
    const created = await api.post("/api/servers", { data: { name: `parity-${index}`, config: { url: everything.url } } });
    expect(created.status()).toBe(201);
    const serverId = ((await created.json()) as { id: string }).id;
    const exchanges = (CASES[route.path] ?? (() => []))({ serverId, slug: "personal" });
    const statuses = new Set<number>();
    for (const exchange of exchanges) {
      // Next first, then the lane: each engine (one per process) connects on its own first call.
      const viaNext = await send(NEXT, exchange, cookie);
      const viaLane = await send(LANE, exchange, cookie);
      const label = `${exchange.method} ${exchange.path} ${exchange.body ?? ""}`;
      expect(viaNext.timing, label).not.toContain("lane");
      expect(viaLane.timing, label).toContain("lane");
      expect({ ...viaLane, timing: viaLane.timing.filter((name) => name !== "lane") }, label).toEqual(viaNext);
      statuses.add(viaLane.status);
    }
    // The cases reach success and each refusal family (not a comparison of two identical failures).
    expect([...statuses].sort()).toEqual(expect.arrayContaining(REACHED[route.path] ?? [200, 400, 401, 403, 404, 415]));
  });
}

// Issue 31: over https the session cookie is `__Host-`-prefixed, and both ways a request can take
// read only that name (lib/auth/session-cookie.ts). The app is on loopback, where it believes the
// client's X-Forwarded-Proto, so the test can speak "https" to it.
test("over https only the __Host- session cookie counts, on the lane and on Next alike", async () => {
  const https = { "x-forwarded-proto": "https" };
  const jar = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  const csrf = await fetch(`${LANE}/api/auth/csrf`, { headers: https });
  expect(csrf.headers.getSetCookie().join()).toContain("__Host-next-auth.csrf-token=");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const account = newAccount("https");
  expect((await api.post("/api/auth/register", { data: account })).status()).toBe(201);
  const signIn = await fetch(`${LANE}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...https, cookie: jar(csrf), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email: account.email, password: account.password, json: "true" }),
  });
  expect(signIn.status).toBe(200);
  const set = signIn.headers.getSetCookie().find((c) => c.includes("session-token="));
  // Secure, Path=/ and no Domain: what a browser requires before it keeps a __Host- cookie.
  expect(set).toMatch(/^__Host-next-auth\.session-token=[^;]+;/);
  expect(set).toMatch(/; Secure/i);
  expect(set).toMatch(/; Path=\/(;|$)/i);
  expect(set).not.toMatch(/; Domain=/i);
  const token = set!.split(";")[0].split("=").slice(1).join("=");

  const probe = (base: string, cookie: string, headers: Record<string, string>) =>
    fetch(`${base}/api/servers/no-such-server/tools/call`, {
      method: "POST",
      headers: { ...headers, cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: "echo", arguments: {} }),
    });
  for (const base of [LANE, NEXT]) {
    const viaLane = base === LANE;
    const prefixed = await probe(base, `__Host-next-auth.session-token=${token}`, https);
    expect((prefixed.headers.get("server-timing") ?? "").includes("lane")).toBe(viaLane);
    // Signed in: the server is unknown (not a refusal for want of a session).
    expect([base, prefixed.status, ((await prefixed.json()) as { code: string }).code]).toEqual([base, 404, "server.not_found"]);
    // The same token under the unprefixed name is no session over https…
    const plain = await probe(base, `next-auth.session-token=${token}`, https);
    expect([base, plain.status, ((await plain.json()) as { code: string }).code]).toEqual([base, 401, "auth.unauthorized"]);
    // …and a page reads the cookie the same way (Next's request scope, not the route's Request).
    const page = await fetch(`${base}/account`, { headers: { ...https, cookie: `next-auth.session-token=${token}` }, redirect: "manual" });
    expect([base, page.status, page.headers.get("location") ?? ""]).toEqual([base, 307, expect.stringContaining("/signin")]);
    const signedInPage = await fetch(`${base}/account`, {
      headers: { ...https, cookie: `__Host-next-auth.session-token=${token}` },
      redirect: "manual",
    });
    expect([base, signedInPage.status]).toEqual([base, 200]);
  }
});
