/**
 * Every state-changing route is covered by the one cross-site rule: the test finds each
 * `app/api/**\/route.ts`, reads which methods it exports, and runs proxy.ts itself against each
 * (path, method) — cross-origin Origin and cross-site Sec-Fetch-Site are refused, the app's own
 * origin passes, and a text/plain body to a JSON route gets 415.
 */
import fs from "node:fs";
import path from "node:path";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, proxy } from "@/proxy";

const ORIGIN = "http://localhost:3000";
const METHOD_EXPORT =
  /export\s+(?:const|async\s+function|function)\s+(GET|HEAD|OPTIONS|POST|PUT|PATCH|DELETE)\b|\bas\s+(GET|HEAD|OPTIONS|POST|PUT|PATCH|DELETE)\b/g;

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** A concrete URL path for a route file (dynamic segments filled with sample values). */
function samplePath(file: string): string {
  const segments = path.dirname(file).split(path.sep).slice(1);
  return `/${segments
    .filter((s) => !/^\(.*\)$/.test(s))
    .map((s) => (s === "[...nextauth]" ? "callback/credentials" : s.replace(/^\[.*\]$/, "sample-id")))
    .join("/")}`;
}

const routes = routeFiles("app").flatMap((file) => {
  const methods = new Set([...fs.readFileSync(file, "utf8").matchAll(METHOD_EXPORT)].map((m) => m[1] ?? m[2]));
  return [...methods].map((method) => ({ file: file.split(path.sep).join("/"), path: samplePath(file), method }));
});
const writes = routes.filter((r) => !["GET", "HEAD", "OPTIONS"].includes(r.method));
const jsonWrites = writes.filter((r) => r.path.startsWith("/api/") && !r.path.startsWith("/api/auth/callback"));

function run(route: { path: string; method: string }, headers: Record<string, string>) {
  return proxy(new NextRequest(new URL(route.path, ORIGIN), { method: route.method, headers: { host: "localhost:3000", ...headers } }));
}

describe("the cross-site rule covers every state-changing route", () => {
  const saved = { ...process.env };
  beforeAll(() => {
    delete process.env.SWITCHBOARD_PUBLIC_URL;
    delete process.env.NEXTAUTH_URL;
    process.env.PORT = "3000";
  });
  afterAll(() => {
    process.env = saved;
  });

  it("finds the routes and their write methods", () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(writes.length).toBeGreaterThan(15);
    expect(writes.map((w) => `${w.method} ${w.path}`)).toContain("POST /api/auth/callback/credentials");
  });

  it.each(routes)("proxy.ts runs for $method $path", (route) => {
    expect(unstable_doesMiddlewareMatch({ config, url: route.path })).toBe(true);
  });

  it.each(writes)("$method $path: another origin → 403", async (route) => {
    const response = run(route, { origin: "http://localhost:4000", "content-type": "application/json" });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "auth.forbidden" });
  });

  it.each(writes)("$method $path: no Origin but Sec-Fetch-Site cross-site → 403", (route) => {
    expect(run(route, { "sec-fetch-site": "cross-site", "content-type": "application/json" }).status).toBe(403);
  });

  it.each(writes)("$method $path: a same-site sibling (Sec-Fetch-Site same-site) → 403", (route) => {
    expect(run(route, { "sec-fetch-site": "same-site", "content-type": "application/json" }).status).toBe(403);
  });

  it.each(writes)("$method $path: no Origin, foreign Referer → 403", (route) => {
    expect(run(route, { referer: "https://evil.example/page", "content-type": "application/json" }).status).toBe(403);
  });

  it.each(writes)("$method $path: the app's own origin → passes on", (route) => {
    const type = route.path.startsWith("/api/auth/callback") ? "application/x-www-form-urlencoded" : "application/json";
    const response = run(route, { origin: ORIGIN, "sec-fetch-site": "same-origin", "content-type": type });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });

  it.each(writes)("$method $path: a non-browser client (no Origin, Sec-Fetch-Site or Referer) → passes on", (route) => {
    expect(run(route, { "content-type": "application/json" }).headers.get("x-middleware-next")).toBe("1");
  });

  it.each(jsonWrites)("$method $path: a text/plain body from the app's own origin → 415", async (route) => {
    const response = run(route, { origin: ORIGIN, "content-type": "text/plain;charset=UTF-8" });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ code: "request.unsupported_media_type" });
  });

  it("next-auth's own form posts still need the app's origin", () => {
    const signOut = { path: "/api/auth/signout", method: "POST" };
    expect(run(signOut, { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" }).status).toBe(403);
    expect(run(signOut, { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }).status).toBe(200);
  });

  it("the MCP gateway: a bearer call passes from any origin (no cookie is read there); without one the rule holds", () => {
    const gateway = { path: "/mcp/acme/github", method: "POST" };
    expect(writes.map((w) => w.path)).toContain("/mcp/sample-id/sample-id");
    const bearer = { authorization: "Bearer sbp_x", "content-type": "application/json" };
    expect(run(gateway, { origin: "https://inspector.example", ...bearer }).headers.get("x-middleware-next")).toBe("1");
    expect(run(gateway, { "sec-fetch-site": "cross-site", ...bearer }).headers.get("x-middleware-next")).toBe("1");
    expect(run(gateway, { origin: "https://evil.example", "content-type": "application/json" }).status).toBe(403);
    expect(run(gateway, { origin: "https://evil.example", authorization: "Basic eDp5" }).status).toBe(403);
    // Elsewhere a bearer header changes nothing: the app's routes read the session cookie.
    expect(run({ path: "/api/servers", method: "POST" }, { origin: "https://evil.example", ...bearer }).status).toBe(403);
  });

  it("reads pass whatever their origin (GET changes nothing)", () => {
    expect(run({ path: "/api/servers", method: "GET" }, { origin: "https://evil.example" }).status).toBe(200);
  });

  it("uses SWITCHBOARD_PUBLIC_URL as the only origin when set", () => {
    process.env.SWITCHBOARD_PUBLIC_URL = "https://switchboard.example.com";
    try {
      const route = { path: "/api/servers", method: "POST" };
      expect(run(route, { origin: ORIGIN, "content-type": "application/json" }).status).toBe(403);
      const ok = run(route, { origin: "https://switchboard.example.com", "content-type": "application/json" });
      expect(ok.status).toBe(200);
    } finally {
      delete process.env.SWITCHBOARD_PUBLIC_URL;
    }
  });

  it("trusts a non-loopback Host only through configuration (a rebinding page gets 403)", () => {
    const route = { path: "/api/servers", method: "POST" };
    const response = proxy(
      new NextRequest(new URL(route.path, "http://evil.example"), {
        method: "POST",
        headers: { host: "evil.example", origin: "http://evil.example", "content-type": "application/json" },
      }),
    );
    expect(response.status).toBe(403);
  });
});
