/**
 * The gateway session's SSE event store (lib/use-cases/gateway/event-store.ts): a reconnecting
 * client gets the events of its own stream after the id it names, in order, never the priming
 * markers or another stream's; the store stays within its bounds, oldest dropped first.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));
const { SessionEventStore } = await import("@/lib/use-cases/gateway/event-store");

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: 1, progress: n },
});

async function replay(store: InstanceType<typeof SessionEventStore>, after: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const stream = await store.replayEventsAfter(after, { send: async (id, message) => void sent.push([id, message]) });
  return { stream, sent };
}

describe("SessionEventStore", () => {
  it("replays the stream's events after the given id, skipping the priming marker and other streams", async () => {
    const store = new SessionEventStore();
    const primed = await store.storeEvent("a", {} as JSONRPCMessage);
    const first = await store.storeEvent("a", note(1));
    await store.storeEvent("b", note(99));
    const second = await store.storeEvent("a", note(2));
    expect(await store.getStreamIdForEventId(first)).toBe("a");
    const { stream, sent } = await replay(store, primed);
    expect(stream).toBe("a");
    expect(sent).toEqual([
      [first, note(1)],
      [second, note(2)],
    ]);
    expect((await replay(store, first)).sent).toEqual([[second, note(2)]]);
  });

  it("keeps at most its bounds, dropping the oldest events first", async () => {
    const byCount = new SessionEventStore(2, 1_000_000);
    const ids = [];
    for (let n = 0; n < 4; n++) ids.push(await byCount.storeEvent("s", note(n)));
    expect((await replay(byCount, "s::0")).sent.map(([id]) => id)).toEqual(ids.slice(2));
    const bySize = new SessionEventStore(100, JSON.stringify(note(1)).length * 2);
    for (let n = 0; n < 5; n++) await bySize.storeEvent("s", note(n));
    expect((await replay(bySize, "s::0")).sent).toHaveLength(2);
  });

  it("refuses an id it could not have issued", async () => {
    await expect(replay(new SessionEventStore(), "no-sequence")).rejects.toThrow(/Unknown event id/);
  });
});
