/**
 * The gateway's DNS-rebinding rule (lib/security/rebinding.ts): `/mcp/…` answers only requests
 * addressed to a loopback name or the public origin's host; other paths are not its business.
 */
import { describe, expect, it } from "vitest";
import { rebindingRefusal } from "@/lib/security/rebinding";
import { requestPolicy } from "@/lib/security/request-policy";

const judged = (pathname: string, host: string | null, publicOrigin = "https://mcp.example.com") => {
  const headers = new Headers();
  if (host !== null) headers.set("host", host);
  return rebindingRefusal({ pathname, headers, publicOrigin });
};

describe("the gateway's host rule", () => {
  it("answers a loopback name or the public host, with any port", () => {
    for (const host of ["localhost:3000", "127.0.0.1:8080", "[::1]:3000", "LOCALHOST", "mcp.example.com", "MCP.example.com:443"]) {
      expect(judged("/mcp/acme/docs", host), host).toBeNull();
    }
  });

  it("refuses another name, as a rebinding page's request carries (403, with the fix named)", () => {
    for (const host of ["evil.example", "evil.example:3000", "mcp.example.com.evil.example", "10.0.0.5:3000"]) {
      const refusal = judged("/mcp/acme/docs", host);
      expect(refusal?.status, host).toBe(403);
      expect(refusal?.message).toContain("SWITCHBOARD_PUBLIC_URL");
    }
    expect(judged("/mcp", "evil.example")?.status).toBe(403);
  });

  it("leaves other paths and requests without a Host alone", () => {
    expect(judged("/api/servers", "evil.example")).toBeNull();
    expect(judged("/mcpx/acme", "evil.example")).toBeNull();
    expect(judged("/mcp/acme", null)).toBeNull();
  });

  it("is part of the policy every request meets, before the cross-site rule", () => {
    const headers = new Headers({ host: "evil.example", origin: "http://evil.example", authorization: "Bearer sb_x" });
    expect(requestPolicy({ method: "POST", pathname: "/mcp/acme/docs", headers }).refusal?.status).toBe(403);
    const own = new Headers({ host: "localhost:3000", authorization: "Bearer sb_x" });
    expect(requestPolicy({ method: "POST", pathname: "/mcp/acme/docs", headers: own }).refusal).toBeNull();
  });
});
