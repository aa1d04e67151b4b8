import { describe, expect, it } from "vitest";
import { TOKEN_CACHE_MAX, TOKEN_CACHE_TTL_MS, VerifiedTokenCache } from "@/lib/auth/token-cache";

// Verifying a token (the decryption the cache saves), counted.
function verifier(cache: VerifiedTokenCache) {
  let decryptions = 0;
  const verify = (token: string, now: number) => {
    const hit = cache.get(token, now);
    if (hit) return hit;
    decryptions++;
    cache.set(token, `sid-${token}`, now, now + 3_600_000);
    return `sid-${token}`;
  };
  return { verify, decryptions: () => decryptions };
}

describe("verified session tokens", () => {
  it("a crowd cycling through its sessions decrypts each token once, however many there are up to the bound", () => {
    // 1,500 users calling in turn: the old first-in-first-out cache of 1,000 missed on every request.
    const cache = new VerifiedTokenCache(TOKEN_CACHE_MAX, TOKEN_CACHE_TTL_MS);
    const { verify, decryptions } = verifier(cache);
    for (let round = 0; round < 3; round++) for (let u = 0; u < 1500; u++) expect(verify(`t${u}`, 1000 + round)).toBe(`sid-t${u}`);
    expect(decryptions()).toBe(1500);
  });

  it("evicts the least recently used token, not the oldest one, at the bound", () => {
    const cache = new VerifiedTokenCache(2, 60_000);
    const { verify, decryptions } = verifier(cache);
    verify("a", 0);
    verify("b", 0);
    verify("a", 1); // a is now the most recently used
    verify("c", 2); // evicts b
    expect(decryptions()).toBe(3);
    verify("a", 3);
    expect(decryptions()).toBe(3);
    verify("b", 4);
    expect(decryptions()).toBe(4);
    expect(cache.size).toBe(2);
  });

  it("trusts a token no longer than the time limit or its own expiry", () => {
    const cache = new VerifiedTokenCache(10, 60_000);
    cache.set("a", "sid-a", 0, 10_000);
    cache.set("b", "sid-b", 0, 3_600_000);
    expect(cache.get("a", 9_999)).toBe("sid-a");
    expect(cache.get("a", 10_000)).toBeUndefined();
    expect(cache.get("b", 59_999)).toBe("sid-b");
    expect(cache.get("b", 60_000)).toBeUndefined();
  });
});
