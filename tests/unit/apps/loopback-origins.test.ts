/**
 * Loopback origins in an MCP App frame's CSP: dropped for every app unless its server is itself on
 * loopback, and then carried to the frame's page only under the host's grant for that user, so a
 * frame that navigates itself to a CSP of its own choosing cannot reach the user's local services.
 * A grant lapses after a day, and one under another instance key is refused.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { resetInstanceKey } from "@/db/key-check";
import { appFrameCsp, isLoopbackOrigin, sanitizeAppCsp } from "@/lib/apps/app-csp";
import { grantedAppCsp, LOOPBACK_GRANT_MS, withLoopbackGrant } from "@/lib/apps/loopback-grant";

// Grants are signed under a key derived from the instance key: one of this file's own, no data directory.
vi.stubEnv("SWITCHBOARD_SECRET_KEY", Buffer.alloc(32, 5).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
  resetInstanceKey();
});

const declared = {
  connectDomains: ["https://api.example.com", "http://localhost:5432", "ws://127.0.0.1:9222", "https://admin.localhost"],
  resourceDomains: ["https://127.0.0.1:8443", "https://cdn.example"],
  frameDomains: ["http://localhost"],
};

describe("loopback origins in an app's CSP", () => {
  it.each([
    ["http://localhost:5432", true],
    ["ws://127.0.0.1:9222", true],
    ["https://127.8.0.1", true],
    ["https://admin.localhost", true],
    ["https://*.localhost", true],
    ["https://0.0.0.0:3000", true],
    ["https://api.example.com", false],
    ["https://localhost.example.com", false],
    ["https://127.example", false],
  ])("%s is loopback: %s", (origin, loopback) => {
    expect(isLoopbackOrigin(origin)).toBe(loopback);
  });

  it("drops every loopback origin for a server that is not on loopback", () => {
    const csp = sanitizeAppCsp(declared);
    expect(csp).toEqual({ connectDomains: ["https://api.example.com"], resourceDomains: ["https://cdn.example"] });
    const policy = appFrameCsp(csp, "https://switchboard.example");
    expect(policy).not.toMatch(/localhost|127\.0\.0\.1/);
    expect(policy).toContain("frame-src 'none'");
  });

  it("keeps them for a server on loopback", () => {
    expect(sanitizeAppCsp(declared, { loopback: true })).toEqual({
      connectDomains: ["https://api.example.com", "http://localhost:5432", "ws://127.0.0.1:9222", "https://admin.localhost"],
      resourceDomains: ["https://127.0.0.1:8443", "https://cdn.example"],
      frameDomains: ["http://localhost"],
    });
  });

  it("an app never brings its own grant", () => {
    expect(sanitizeAppCsp({ ...declared, loopbackGrant: "forged" }, { loopback: true })).not.toHaveProperty("loopbackGrant");
  });
});

describe("the frame page's loopback grant", () => {
  const approved = withLoopbackGrant(sanitizeAppCsp(declared, { loopback: true }), "alice");
  // What the frame's URL carries: the approved metadata as JSON, read back by the sandbox route.
  const roundTrip = (csp: unknown) => JSON.parse(JSON.stringify(csp));

  it("keeps the approved loopback origins for the user they were granted to", () => {
    const csp = grantedAppCsp(roundTrip(approved), "alice");
    expect(csp.connectDomains).toContain("http://localhost:5432");
    expect(appFrameCsp(csp, "http://localhost:3000")).toContain("connect-src https://api.example.com http://localhost:5432");
  });

  it("drops them without a grant, with a forged one, for another user, or when the lists changed", () => {
    const none = { ...approved, loopbackGrant: undefined };
    const forged = { ...approved, loopbackGrant: "A".repeat(43) };
    const widened = { ...approved, connectDomains: [...(approved.connectDomains ?? []), "http://localhost:22"] };
    for (const [csp, user] of [
      [none, "alice"],
      [forged, "alice"],
      [approved, "bob"],
      [widened, "alice"],
    ] as const) {
      const granted = grantedAppCsp(roundTrip(csp), user);
      expect(JSON.stringify(granted)).not.toMatch(/localhost|127\.0\.0\.1/);
      expect(granted.connectDomains).toEqual(["https://api.example.com"]);
    }
  });

  it("drops them once the grant has lapsed (a day), or when its end was moved", () => {
    const now = Date.now();
    const minted = withLoopbackGrant(sanitizeAppCsp(declared, { loopback: true }), "alice", now);
    expect(grantedAppCsp(roundTrip(minted), "alice", now + LOOPBACK_GRANT_MS - 1).connectDomains).toContain("http://localhost:5432");
    expect(grantedAppCsp(roundTrip(minted), "alice", now + LOOPBACK_GRANT_MS).connectDomains).toEqual(["https://api.example.com"]);
    const [, signature] = String(minted.loopbackGrant).split(".");
    const extended = { ...minted, loopbackGrant: `${now + 10 * LOOPBACK_GRANT_MS}.${signature}` };
    expect(grantedAppCsp(roundTrip(extended), "alice", now + LOOPBACK_GRANT_MS).connectDomains).toEqual(["https://api.example.com"]);
  });

  it("drops them under another instance key (a grant from another instance)", () => {
    vi.stubEnv("SWITCHBOARD_SECRET_KEY", Buffer.alloc(32, 6).toString("base64"));
    resetInstanceKey();
    try {
      expect(grantedAppCsp(roundTrip(approved), "alice").connectDomains).toEqual(["https://api.example.com"]);
    } finally {
      vi.stubEnv("SWITCHBOARD_SECRET_KEY", Buffer.alloc(32, 5).toString("base64"));
      resetInstanceKey();
    }
    expect(grantedAppCsp(roundTrip(approved), "alice").connectDomains).toContain("http://localhost:5432");
  });

  it("adds no grant when nothing is loopback", () => {
    expect(withLoopbackGrant({ connectDomains: ["https://api.example.com"] }, "alice")).toEqual({
      connectDomains: ["https://api.example.com"],
    });
    expect(grantedAppCsp("not json metadata", "alice")).toEqual({});
  });
});
