/**
 * The pool's live connections in order of last use (lib/mcp/live-connections.ts): counts kept as
 * entries open and close, recency moved by use, and the walk for an idle entry that starts at the
 * least recently used and stops at the first it may close.
 */
import { describe, expect, it } from "vitest";
import { LiveConnections, type LiveEntry } from "@/lib/mcp/live-connections";

type Entry = LiveEntry & { name: string; live: boolean; idle: boolean; stdio: boolean };

function entry(name: string, userId: string, stdio = false): Entry {
  return {
    name,
    userId,
    live: true,
    idle: true,
    stdio,
    isLive() {
      return this.live;
    },
    isIdle() {
      return this.live && this.idle;
    },
  };
}

function setOf(...entries: Entry[]) {
  const set = new LiveConnections<Entry>((e) => e.stdio);
  for (const e of entries) set.track(e);
  return set;
}

describe("LiveConnections", () => {
  it("counts live entries per user, in all, and of sandboxes as they open and close", () => {
    const a = entry("a", "ann");
    const b = entry("b", "ann", true);
    const c = entry("c", "bob");
    const set = setOf(a, b, c);
    expect(set.counts("ann")).toEqual({ user: 2, total: 3, sandboxes: 1 });
    expect(set.counts("bob")).toEqual({ user: 1, total: 3, sandboxes: 1 });
    b.live = false;
    set.track(b);
    set.track(b); // idempotent
    expect(set.counts("ann")).toEqual({ user: 1, total: 2, sandboxes: 0 });
    a.live = false;
    set.track(a);
    expect(set.counts("ann")).toEqual({ user: 0, total: 1, sandboxes: 0 });
    expect(set.size).toBe(1);
    a.live = true;
    set.track(a);
    set.track(a);
    expect(set.counts("ann").user).toBe(1);
    expect(set.size).toBe(2);
  });

  it("answers the least recently used idle entry; use moves an entry to the back", () => {
    const [a, b, c] = [entry("a", "u1"), entry("b", "u2"), entry("c", "u3")];
    const set = setOf(a, b, c);
    expect(set.oldestIdle()?.name).toBe("a");
    set.touch(a);
    expect(set.oldestIdle()?.name).toBe("b");
    // An entry that is not live is not moved into the order by use.
    const gone = entry("gone", "u4");
    gone.live = false;
    set.touch(gone);
    expect(set.size).toBe(3);
  });

  it("passes over busy and ineligible entries and answers null when none may close", () => {
    const [a, b, c] = [entry("a", "u1"), entry("b", "u2"), entry("c", "u3")];
    const set = setOf(a, b, c);
    a.idle = false;
    expect(set.oldestIdle()?.name).toBe("b");
    expect(set.oldestIdle((e) => e.name !== "b")?.name).toBe("c");
    b.idle = false;
    c.idle = false;
    expect(set.oldestIdle()).toBeNull();
  });

  it("walks the sandboxed entries alone when asked to, in the same order of use", () => {
    const [h1, s1, h2, s2] = [entry("h1", "u1"), entry("s1", "u1", true), entry("h2", "u2"), entry("s2", "u2", true)];
    const set = setOf(h1, s1, h2, s2);
    expect(set.sandboxes).toBe(2);
    const before = set.visited;
    expect(set.oldestIdle(undefined, true)?.name).toBe("s1");
    expect(set.visited - before).toBe(1);
    set.touch(s1);
    expect(set.oldestIdle(undefined, true)?.name).toBe("s2");
    expect(set.oldestIdle()?.name).toBe("h1");
    s2.live = false;
    set.track(s2);
    expect(set.counts("u2")).toEqual({ user: 1, total: 3, sandboxes: 1 });
  });

  it("looks at one entry when the least recently used is idle, however many are live", () => {
    const entries = Array.from({ length: 500 }, (_, i) => entry(`e${i}`, `u${i}`));
    const set = setOf(...entries);
    const before = set.visited;
    expect(set.oldestIdle()?.name).toBe("e0");
    expect(set.visited - before).toBe(1);
  });
});
