/** The one allowance on the RFC 8414 §3.3 issuer echo: a 2025-03-26 server's own-origin metadata. */
import { IssuerMismatchError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { isLegacySameOriginIssuer } from "@/lib/oauth/shared/run-auth";

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
