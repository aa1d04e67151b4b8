/** proxy.ts puts the security headers, with a fresh CSP nonce, on pages and API routes alike. */
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { proxy } from "@/proxy";

function get(path: string, host = "localhost:3000") {
  return proxy(new NextRequest(new URL(path, `http://${host}`), { headers: { host } }));
}

function nonceOf(csp: string | null): string | undefined {
  return /'nonce-([^']+)'/.exec(csp ?? "")?.[1];
}

describe("security headers", () => {
  afterEach(() => {
    delete process.env.SWITCHBOARD_PUBLIC_URL;
  });

  it.each(["/signin", "/servers", "/api/servers", "/api/health"])(
    "%s gets CSP, nosniff, no framing, referrer and permissions policies",
    (path) => {
      const headers = get(path).headers;
      const csp = headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'self'");
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'(;|$)/);
      expect(csp).not.toContain("unsafe-eval");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("img-src 'self' data:");
      expect(csp).toContain("object-src 'none'");
      expect(headers.get("x-content-type-options")).toBe("nosniff");
      expect(headers.get("x-frame-options")).toBe("DENY");
      expect(headers.get("referrer-policy")).toBe("no-referrer");
      expect(headers.get("permissions-policy")).toContain("camera=()");
      expect(headers.get("permissions-policy")).toContain("microphone=()");
      expect(headers.get("strict-transport-security")).toBeNull();
    },
  );

  it("a new nonce per request, handed to Next through the request's CSP header", () => {
    const a = get("/signin");
    const b = get("/signin");
    const nonceA = nonceOf(a.headers.get("content-security-policy"));
    expect(nonceA).toBeTruthy();
    expect(nonceA).not.toBe(nonceOf(b.headers.get("content-security-policy")));
    // NextResponse.next({ request: { headers } }) passes overridden request headers as x-middleware-request-*.
    expect(a.headers.get("x-middleware-request-x-nonce")).toBe(nonceA);
    expect(nonceOf(a.headers.get("x-middleware-request-content-security-policy"))).toBe(nonceA);
  });

  it("HSTS and upgrade-insecure-requests only when the public URL is https", () => {
    process.env.SWITCHBOARD_PUBLIC_URL = "https://switchboard.example.com";
    const headers = get("/signin", "switchboard.example.com").headers;
    expect(headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
    expect(headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
  });

  it("refusals carry the headers too", () => {
    const response = proxy(
      new NextRequest("http://localhost:3000/api/servers", {
        method: "POST",
        headers: { host: "localhost:3000", origin: "https://evil.example" },
      }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("pins the forwarded host next-auth builds redirects from to the public origin", () => {
    const response = proxy(
      new NextRequest("http://127.0.0.1:3000/api/auth/signout", {
        headers: { host: "127.0.0.1:3000", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" },
      }),
    );
    expect(response.headers.get("x-middleware-request-x-forwarded-host")).toBe("127.0.0.1:3000");
    expect(response.headers.get("x-middleware-request-x-forwarded-proto")).toBe("http");
  });
});
