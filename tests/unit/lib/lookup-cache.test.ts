/** The bounded, change-stamped lookup cache behind the hot-path caches, and the pool's config hash memo. */
import { describe, expect, it } from "vitest";
import { LookupCache } from "@/lib/lookup-cache";
import { configHash } from "@/lib/mcp/config-hash";

describe("LookupCache", () => {
  it("serves an entry only at the stamp it was read at", () => {
    const cache = new LookupCache<string>(10);
    cache.set("user-a\u0000x", "1:0", "a's value");
    expect(cache.get("user-a\u0000x", "1:0")).toBe("a's value");
    expect(cache.get("user-b\u0000x", "1:0")).toBeUndefined();
    expect(cache.get("user-a\u0000x", "2:0")).toBeUndefined();
    // A stale entry is dropped, not revived when the stamp comes round again.
    expect(cache.get("user-a\u0000x", "1:0")).toBeUndefined();
  });

  it("drops every entry (and the memory behind it) as soon as the stamp moves", () => {
    const cache = new LookupCache<string>(10);
    cache.set("a", "1:0", "secret of a");
    cache.set("b", "1:0", "secret of b");
    expect(cache.size).toBe(2);
    expect(cache.get("a", "2:0")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps at most `max` entries, dropping the least recently used", () => {
    const cache = new LookupCache<number>(2);
    cache.set("a", "s", 1);
    cache.set("b", "s", 2);
    expect(cache.get("a", "s")).toBe(1); // a is now the most recently used
    cache.set("c", "s", 3);
    expect(cache.size).toBe(2);
    expect(cache.get("b", "s")).toBeUndefined();
    expect([cache.get("a", "s"), cache.get("c", "s")]).toEqual([1, 3]);
  });

  it("read() loads once per stamp and never keeps a missing answer", () => {
    const cache = new LookupCache<{ n: number }>(10);
    let loads = 0;
    const load = () => ({ n: ++loads });
    expect(cache.read("k", "s1", load)).toEqual({ n: 1 });
    expect(cache.read("k", "s1", load)).toEqual({ n: 1 });
    expect(cache.read("k", "s2", load)).toEqual({ n: 2 });
    let misses = 0;
    const miss = () => {
      misses++;
      return null;
    };
    expect(cache.read("gone", "s2", miss)).toBeNull();
    expect(cache.read("gone", "s2", miss)).toBeNull();
    expect(misses).toBe(2);
  });
});

describe("configHash", () => {
  it("is stable for one definition object and differs for a changed one", () => {
    const server = { id: "s", name: "s", config: { url: "https://a.example/mcp" } };
    expect(configHash(server)).toBe(configHash(server));
    expect(configHash({ ...server })).toBe(configHash(server));
    expect(configHash({ ...server, config: { url: "https://b.example/mcp" } })).not.toBe(configHash(server));
  });
});
