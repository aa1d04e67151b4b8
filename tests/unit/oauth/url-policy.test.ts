import { describe, expect, it } from "vitest";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/client";
import { assertDiscoveryState, assertOAuthUrl, urlPolicyFromEnv } from "@/lib/oauth/shared/url-policy";

const strict = { allowLoopbackHttp: false };
const loopback = { allowLoopbackHttp: true };

function discovery(metadata: Record<string, unknown> | undefined, as = "https://as.example.com"): OAuthDiscoveryState {
  return { authorizationServerUrl: as, authorizationServerMetadata: metadata as OAuthDiscoveryState["authorizationServerMetadata"] };
}

const goodMetadata = {
  issuer: "https://as.example.com",
  authorization_endpoint: "https://as.example.com/authorize",
  token_endpoint: "https://as.example.com/token",
  response_types_supported: ["code"],
  code_challenge_methods_supported: ["S256"],
};

describe("OAuth URL rules", () => {
  it.each([
    ["https://as.example.com/authorize", strict, true],
    ["http://as.example.com/authorize", strict, false],
    ["http://as.example.com/authorize", loopback, false],
    ["http://127.0.0.1:4000/authorize", strict, false],
    ["http://127.0.0.1:4000/authorize", loopback, true],
    ["http://localhost:4000/authorize", loopback, true],
    ["http://[::1]:4000/authorize", loopback, true],
    ["javascript:alert(1)", loopback, false],
    ["data:text/html,<script>alert(1)</script>", loopback, false],
    ["file:///etc/passwd", loopback, false],
    ["not a url", loopback, false],
  ])("%s (loopback http %o) allowed: %s", (url, policy, allowed) => {
    if (allowed) expect(assertOAuthUrl(url, policy).href).toBeTruthy();
    else expect(() => assertOAuthUrl(url, policy)).toThrow(expect.objectContaining({ code: "insecure_url" }));
  });

  it("reads SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH", () => {
    const before = process.env.SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH;
    process.env.SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH = "1";
    expect(urlPolicyFromEnv().allowLoopbackHttp).toBe(true);
    process.env.SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH = "";
    expect(urlPolicyFromEnv().allowLoopbackHttp).toBe(false);
    if (before === undefined) delete process.env.SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH;
    else process.env.SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH = before;
  });
});

describe("discovery checks", () => {
  it("accepts https endpoints with PKCE S256", () => {
    expect(() => assertDiscoveryState(discovery(goodMetadata), strict)).not.toThrow();
  });

  it("refuses an AS that does not advertise S256, or advertises only plain", () => {
    const { code_challenge_methods_supported: _omit, ...without } = goodMetadata;
    expect(() => assertDiscoveryState(discovery(without), strict)).toThrow(expect.objectContaining({ code: "pkce_unsupported" }));
    expect(() => assertDiscoveryState(discovery({ ...goodMetadata, code_challenge_methods_supported: ["plain"] }), strict)).toThrow(
      expect.objectContaining({ code: "pkce_unsupported" }),
    );
  });

  it("refuses any http endpoint before a secret is sent", () => {
    for (const field of ["authorization_endpoint", "token_endpoint", "registration_endpoint", "revocation_endpoint"]) {
      const metadata = { ...goodMetadata, [field]: "http://as.example.com/x" };
      expect(() => assertDiscoveryState(discovery(metadata), strict), field).toThrow(expect.objectContaining({ code: "insecure_url" }));
    }
    expect(() => assertDiscoveryState(discovery(goodMetadata, "http://as.example.com"), strict)).toThrow(
      expect.objectContaining({ code: "insecure_url" }),
    );
  });

  it("allows the 2025-03-26 fallback (no metadata) only on a URL that passes the rule", () => {
    expect(() => assertDiscoveryState(discovery(undefined, "https://mcp.example.com"), strict)).not.toThrow();
    expect(() => assertDiscoveryState(discovery(undefined, "http://mcp.example.com"), strict)).toThrow();
  });
});
