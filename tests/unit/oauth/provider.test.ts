import { describe, expect, it } from "vitest";
import { UnauthorizedError } from "@modelcontextprotocol/client";
import type { FetchLike } from "@modelcontextprotocol/client";
import { createMemoryStore } from "@/lib/oauth/headless/memory-store";
import { SwitchboardOAuthProvider, type ProviderOptions } from "@/lib/oauth/shared/provider";
import { singleFlight } from "@/lib/oauth/shared/single-flight";

const noFetch: FetchLike = async () => {
  throw new Error("no network in unit tests");
};

function provider(overrides: Partial<ProviderOptions> = {}) {
  return new SwitchboardOAuthProvider({
    key: { userId: "alice", serverId: "srv-1" },
    serverUrl: "https://mcp.example.com/mcp",
    store: overrides.store ?? createMemoryStore(),
    redirectUrl: "https://switchboard.example.com/api/oauth/callback",
    fetch: noFetch,
    policy: { allowLoopbackHttp: false },
    ...overrides,
  });
}

describe("SwitchboardOAuthProvider", () => {
  it("keeps tokens per (user, server): another user or server sees none", async () => {
    const store = createMemoryStore();
    await provider({ store }).saveTokens({ access_token: "alice-token", token_type: "Bearer" });
    expect((await provider({ store }).tokens())?.access_token).toBe("alice-token");
    expect(await provider({ store, key: { userId: "bob", serverId: "srv-1" } }).tokens()).toBeUndefined();
    expect(await provider({ store, key: { userId: "alice", serverId: "srv-2" } }).tokens()).toBeUndefined();
  });

  it("never returns tokens obtained for another URL of the same server", async () => {
    const store = createMemoryStore();
    await provider({ store }).saveTokens({ access_token: "t", token_type: "Bearer" });
    expect(await provider({ store, serverUrl: "https://elsewhere.example.com/mcp" }).tokens()).toBeUndefined();
  });

  it("uses the pre-registered client from the config and never overwrites it", async () => {
    const p = provider({ preRegistered: { clientId: "pre", clientSecret: "s3cret" } });
    await p.saveClientInformation({ client_id: "dynamic" });
    expect(await p.clientInformation()).toEqual({ client_id: "pre", client_secret: "s3cret" });
  });

  it("in the background (no onAuthorize) never starts an authorization or a registration", async () => {
    const p = provider();
    await expect(p.state()).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(p.saveClientInformation({ client_id: "new" })).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(p.redirectToAuthorization(new URL("https://as.example.com/authorize"))).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("hands the authorization URL, state and verifier to onAuthorize, refusing non-https URLs", async () => {
    const seen: Array<{ url: string; state: string; codeVerifier: string }> = [];
    const p = provider({ onAuthorize: async (r) => void seen.push({ url: r.url.href, state: r.state, codeVerifier: r.codeVerifier }) });
    const state = await p.state();
    await p.saveCodeVerifier("verifier-1");
    await p.redirectToAuthorization(new URL("https://as.example.com/authorize?x=1"));
    expect(seen).toEqual([{ url: "https://as.example.com/authorize?x=1", state, codeVerifier: "verifier-1" }]);
    await expect(p.redirectToAuthorization(new URL("http://as.example.com/authorize"))).rejects.toMatchObject({ code: "insecure_url" });
    await expect(p.redirectToAuthorization(new URL("javascript:alert(1)"))).rejects.toMatchObject({ code: "insecure_url" });
  });

  it("refuses protected-resource metadata naming another server", async () => {
    const p = provider();
    expect(() => p.assertResourceAllowed("https://evil.example.com/mcp")).toThrow(expect.objectContaining({ code: "resource_mismatch" }));
    expect(() => p.assertResourceAllowed("https://mcp.example.com/mcp")).not.toThrow();
    expect(() => p.assertResourceAllowed(undefined)).not.toThrow();
  });

  it("does not refresh tokens that are still fresh, and ignores stored tokens when asked (Connect)", async () => {
    const store = createMemoryStore();
    await provider({ store }).saveTokens({ access_token: "fresh", token_type: "Bearer", expires_in: 3600, refresh_token: "r" });
    expect((await provider({ store }).tokens())?.access_token).toBe("fresh");
    expect(await provider({ store, ignoreStoredTokens: true }).tokens()).toBeUndefined();
  });

  it("forgets everything on invalidateCredentials('all')", async () => {
    const store = createMemoryStore();
    const p = provider({ store });
    await p.saveTokens({ access_token: "t", token_type: "Bearer" });
    await store.set({ userId: "alice", serverId: "srv-1" }, "client", JSON.stringify({ client_id: "c" }));
    await p.invalidateCredentials("all");
    expect(await p.tokens()).toBeUndefined();
    expect(await p.clientInformation()).toBeUndefined();
  });
});

describe("singleFlight", () => {
  it("shares one running task between concurrent callers and starts anew afterwards", async () => {
    let runs = 0;
    const task = () => new Promise<number>((resolve) => setTimeout(() => resolve(++runs), 10));
    const results = await Promise.all([singleFlight("k", task), singleFlight("k", task), singleFlight("k", task)]);
    expect(results).toEqual([1, 1, 1]);
    expect(await singleFlight("k", task)).toBe(2);
  });
});

describe("memory store", () => {
  it("returns a pending authorization once", async () => {
    const store = createMemoryStore();
    await store.savePending({ state: "s", userId: "u", serverId: "x", codeVerifier: "v", expiresAt: 1 });
    expect((await store.takePending("s"))?.codeVerifier).toBe("v");
    expect(await store.takePending("s")).toBeUndefined();
  });
});
