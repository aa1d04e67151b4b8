/**
 * The per-server gateway's tests (per-server.test.ts) again, with its route modules served by the
 * direct lane (lib/lane/direct-lane.ts) as the built app serves `/mcp/…`, not through Next's
 * handlers: sessions and their event streams, stateless 2026-07-28 calls, elicitation, resource
 * subscriptions on the GET stream, DELETE, and every refusal (401 with the challenge, a revoked or
 * removed member's token on the next request, 404s) must be the same on both ways in.
 */
import { vi } from "vitest";

// Route modules and the use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

process.env.GATEWAY_TEST_VIA = "lane";
await import("./per-server.test");

const { describe, expect, it } = await import("vitest");
const { serveGateway } = await import("./helpers");

describe("the gateway on the direct lane", () => {
  it("answers on the lane with the request policy's headers: a refused token gets 401 and the challenge, a cross-site POST without a bearer token 403", async () => {
    const gateway = await serveGateway();
    try {
      const post = (headers: Record<string, string>) =>
        fetch(`${gateway.base}/mcp/acme/sessions`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        });
      const refused = await post({ authorization: "Bearer sbp_not-a-token" });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer /);
      expect(refused.headers.get("server-timing")).toContain("lane");
      expect(refused.headers.get("x-content-type-options")).toBe("nosniff");
      expect(((await refused.json()) as { code: string }).code).toBe("token.invalid");
      // With a bearer token a cross-site POST is let through (lib/security/csrf.ts): the gateway reads no cookie.
      const crossSite = await post({ origin: "https://evil.example" });
      expect(crossSite.status).toBe(403);
      expect(crossSite.headers.get("server-timing")).toContain("lane");
    } finally {
      await gateway.close();
    }
  });
});
