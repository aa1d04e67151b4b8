import { describe, expect, it } from "vitest";
import type { FetchLike } from "@modelcontextprotocol/client";
import { createAuthorizingFetch } from "@/lib/oauth/headless/authorizing-fetch";
import { elicitationDefaults } from "@/lib/oauth/headless/elicitation-defaults";
import { createHeadlessAuthorizer } from "@/lib/oauth/headless/authorizer";
import { errorPage } from "@/lib/oauth/web/callback";
import { clientMetadataDocument } from "@/lib/oauth/web/client-metadata";
import { createMemoryStore } from "@/lib/oauth/headless/memory-store";
import { SwitchboardOAuthProvider } from "@/lib/oauth/shared/provider";

function redirectingFetch(location: string, status = 302): FetchLike {
  return async () => new Response(null, { status, headers: { location } });
}

describe("headless authorizer", () => {
  const url = new URL("https://as.example.com/authorize");

  it("takes the code from Location when the state matches, once", async () => {
    const a = createHeadlessAuthorizer(redirectingFetch("http://localhost:3000/callback?code=c1&state=s1"));
    await a.onAuthorize({ url, state: "s1", codeVerifier: "v" });
    expect(a.takeCode()).toBe("c1");
    expect(() => a.takeCode()).toThrow();
  });

  it("keeps the RFC 9207 iss of the redirect for the SDK's issuer check", async () => {
    const a = createHeadlessAuthorizer(
      redirectingFetch("http://localhost:3000/callback?code=c2&state=s1&iss=https%3A%2F%2Fas.example.com"),
    );
    await a.onAuthorize({ url, state: "s1", codeVerifier: "v" });
    expect(a.takeResponse()).toEqual({ code: "c2", iss: "https://as.example.com" });
  });

  it("refuses a wrong state, an error answer, and a non-redirect", async () => {
    await expect(
      createHeadlessAuthorizer(redirectingFetch("http://x/cb?code=c&state=other")).onAuthorize({ url, state: "s1", codeVerifier: "v" }),
    ).rejects.toMatchObject({ code: "state_mismatch" });
    await expect(
      createHeadlessAuthorizer(redirectingFetch("http://x/cb?error=access_denied&state=s1")).onAuthorize({
        url,
        state: "s1",
        codeVerifier: "v",
      }),
    ).rejects.toMatchObject({ code: "authorization_denied" });
    await expect(
      createHeadlessAuthorizer(async () => new Response("login page")).onAuthorize({ url, state: "s1", codeVerifier: "v" }),
    ).rejects.toMatchObject({ code: "no_redirect" });
  });
});

describe("authorizing fetch", () => {
  it("sends the server's token to the server's origin only", async () => {
    const store = createMemoryStore();
    const provider = new SwitchboardOAuthProvider({
      key: { userId: "cli", serverId: "x" },
      serverUrl: "https://mcp.example.com/mcp",
      store,
      redirectUrl: "http://localhost:3000/callback",
      fetch: async () => new Response(null, { status: 500 }),
      policy: { allowLoopbackHttp: false },
    });
    await provider.saveTokens({ access_token: "token-for-x", token_type: "Bearer" });
    const seen: Array<{ url: string; authorization: string | null }> = [];
    const base: FetchLike = async (input, init) => {
      seen.push({ url: String(input), authorization: new Headers(init?.headers).get("authorization") });
      return new Response("{}", { status: 200 });
    };
    const fetch = createAuthorizingFetch({
      fetch: base,
      oauthFetch: base,
      provider,
      serverUrl: "https://mcp.example.com/mcp",
      takeResponse: () => ({ code: "never" }),
    });
    await fetch("https://mcp.example.com/mcp", { method: "POST" });
    await fetch("https://other.example.com/mcp", { method: "POST" });
    expect(seen).toEqual([
      { url: "https://mcp.example.com/mcp", authorization: "Bearer token-for-x" },
      { url: "https://other.example.com/mcp", authorization: null },
    ]);
  });
});

describe("elicitation defaults", () => {
  it("fills every field with its schema default, typed", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", default: "John Doe" },
        age: { type: "integer", default: 30 },
        score: { type: "number", default: 95.5 },
        status: { type: "string", enum: ["active", "inactive"], default: "active" },
        verified: { type: "boolean", default: true },
        nothing: { type: "string" },
      },
    };
    expect(elicitationDefaults(schema)).toEqual({ name: "John Doe", age: 30, score: 95.5, status: "active", verified: true });
    expect(elicitationDefaults(undefined)).toEqual({});
  });
});

describe("callback page and client metadata", () => {
  it("renders fixed text with a strict CSP", async () => {
    const response = errorPage("invalid_state");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(await response.text()).toContain("not valid or was already used");
  });

  it("describes the app as a public client with its callback", () => {
    const doc = clientMetadataDocument("https://switchboard.example.com");
    expect(doc.client_id).toBe("https://switchboard.example.com/oauth/client-metadata.json");
    expect(doc.redirect_uris).toEqual(["https://switchboard.example.com/api/oauth/callback"]);
    expect(doc.token_endpoint_auth_method).toBe("none");
    expect(doc.grant_types).toContain("refresh_token");
  });
});
