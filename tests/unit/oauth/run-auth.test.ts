/** The one allowance on the RFC 8414 §3.3 issuer echo: a 2025-03-26 server's own-origin metadata. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { IssuerMismatchError, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { isLegacyIssuerShape, isLegacySameOriginIssuer, runAuth } from "@/lib/oauth/shared/run-auth";

const server = "https://mcp.example.com/mcp";

describe("isLegacySameOriginIssuer", () => {
  it("allows an issuer with a path on the MCP server's own origin, found at that origin's root", () => {
    const error = new IssuerMismatchError("metadata", "https://mcp.example.com/", "https://mcp.example.com/oauth");
    expect(isLegacySameOriginIssuer(error, server)).toBe(true);
  });

  it("never allows another origin, a discovered authorization server, or an authorization response", () => {
    expect(
      isLegacySameOriginIssuer(new IssuerMismatchError("metadata", "https://mcp.example.com/", "https://evil.example.com/"), server),
    ).toBe(false);
    expect(
      isLegacySameOriginIssuer(new IssuerMismatchError("metadata", "https://as.example.com/", "https://as.example.com/other"), server),
    ).toBe(false);
    expect(
      isLegacySameOriginIssuer(new IssuerMismatchError("metadata", "https://mcp.example.com/tenant", "https://mcp.example.com/x"), server),
    ).toBe(false);
    expect(
      isLegacySameOriginIssuer(
        new IssuerMismatchError("authorization_response", "https://mcp.example.com/", "https://mcp.example.com/oauth"),
        server,
      ),
    ).toBe(false);
    expect(isLegacySameOriginIssuer(new Error("other"), server)).toBe(false);
  });
});

/** A local server: optional protected-resource metadata, and AS metadata at the origin naming `issuer`. */
async function metadataServer(options: { prm?: boolean; issuer: (origin: string) => string }) {
  const server = http.createServer((req, res) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url?.startsWith("/.well-known/oauth-protected-resource") && options.prm) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [origin] }));
    }
    if (req.url?.startsWith("/.well-known/oauth-authorization-server") || req.url?.startsWith("/.well-known/openid-configuration")) {
      const issuer = options.issuer(origin);
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          registration_endpoint: `${issuer}/register`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
        }),
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { serverUrl: `${origin}/mcp`, origin, close: () => new Promise((r) => server.close(r)) };
}

/** A provider that never gets past discovery in these tests (the issuer check comes first). */
function provider(): OAuthClientProvider {
  return {
    redirectUrl: "http://127.0.0.1/callback",
    clientMetadata: { redirect_uris: ["http://127.0.0.1/callback"], client_name: "test" },
    clientInformation: () => undefined,
    tokens: () => undefined,
    saveTokens: () => undefined,
    redirectToAuthorization: () => undefined,
    saveCodeVerifier: () => undefined,
    codeVerifier: () => "v",
  } as OAuthClientProvider;
}

describe("runAuth issuer allowance", () => {
  it("allows the 2025-03-26 shape: no protected-resource metadata, own-origin metadata naming an issuer with a path", async () => {
    const s = await metadataServer({ issuer: (origin) => `${origin}/oauth` });
    try {
      const error = new IssuerMismatchError("metadata", `${s.origin}/`, `${s.origin}/oauth`);
      expect(await isLegacyIssuerShape(error, { serverUrl: s.serverUrl })).toBe(true);
    } finally {
      await s.close();
    }
  });

  it("still fails a real mismatch: an issuer on another origin", async () => {
    const s = await metadataServer({ issuer: () => "https://evil.example.com" });
    try {
      await expect(runAuth(provider(), { serverUrl: s.serverUrl })).rejects.toBeInstanceOf(IssuerMismatchError);
    } finally {
      await s.close();
    }
  });

  it("still fails when the server publishes protected-resource metadata (not the legacy shape)", async () => {
    const s = await metadataServer({ prm: true, issuer: (origin) => `${origin}/oauth` });
    try {
      await expect(runAuth(provider(), { serverUrl: s.serverUrl })).rejects.toBeInstanceOf(IssuerMismatchError);
      const error = new IssuerMismatchError("metadata", `${s.origin}/`, `${s.origin}/oauth`);
      expect(await isLegacyIssuerShape(error, { serverUrl: s.serverUrl })).toBe(false);
    } finally {
      await s.close();
    }
  });

  it("gives no allowance when a challenge pointed at protected-resource metadata", async () => {
    const error = new IssuerMismatchError("metadata", "https://mcp.example.com/", "https://mcp.example.com/oauth");
    const options = { serverUrl: server, resourceMetadataUrl: new URL("https://mcp.example.com/.well-known/oauth-protected-resource") };
    expect(await isLegacyIssuerShape(error, options)).toBe(false);
  });
});
