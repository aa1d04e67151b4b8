import { describe, expect, it } from "vitest";
import { TurnBuffer } from "@/lib/agent/turn-buffer";

/** A stream the test writes into by hand. */
function source<T>() {
  let controller!: ReadableStreamDefaultController<T>;
  const stream = new ReadableStream<T>({ start: (c) => (controller = c) });
  return { stream, push: (v: T) => controller.enqueue(v), end: () => controller.close() };
}

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<T>) out.push(chunk);
  return out;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("turn buffer", () => {
  it("keeps the turn running when its first reader leaves, and replays it from the start to its owner only", async () => {
    const buffer = new TurnBuffer<string>();
    const turn = source<string>();
    const first = buffer.start("chat1", "alice", turn.stream, () => {});
    turn.push("a");
    const reader = first.getReader();
    expect((await reader.read()).value).toBe("a");
    await reader.cancel(); // the page was left
    turn.push("b");
    await tick();
    expect(buffer.resume("chat1", "bob")).toBeNull();
    const again = buffer.resume("chat1", "alice")!;
    const replay = readAll(again);
    turn.push("c");
    turn.end();
    expect(await replay).toEqual(["a", "b", "c"]);
  });

  it("gives a rejoining reader the prefix first, and the live reader only the turn's own chunks", async () => {
    const buffer = new TurnBuffer<string>();
    const turn = source<string>();
    const live = buffer.start("chat1", "alice", turn.stream, () => {}, ["base-1", "base-2"]);
    turn.push("new");
    turn.end();
    expect(await readAll(live)).toEqual(["new"]);
    expect(await readAll(buffer.resume("chat1", "alice")!)).toEqual(["base-1", "base-2", "new"]);
  });

  it("stops only its owner's running turn, and a new turn in the chat stops the previous one", () => {
    const buffer = new TurnBuffer<string>();
    let stopped = 0;
    buffer.start("chat1", "alice", source<string>().stream, () => stopped++);
    expect(buffer.stop("chat1", "bob")).toBe(false);
    expect(stopped).toBe(0);
    buffer.start("chat1", "alice", source<string>().stream, () => {});
    expect(stopped).toBe(1);
    expect(buffer.stop("chat1", "alice")).toBe(true);
  });

  it("a Stop that waits answers once the stopped turn's stream has ended (its last save done), or after its bound", async () => {
    const buffer = new TurnBuffer<string>();
    const turn = source<string>();
    // The turn saves its stopped answer, then its stream ends, some time after the abort.
    let saved = false;
    buffer.start("chat1", "alice", turn.stream, () =>
      setTimeout(() => {
        saved = true;
        turn.end();
      }, 30),
    );
    expect(await buffer.stopAndWait("chat1", "bob")).toBe(false);
    expect(await buffer.stopAndWait("chat1", "alice")).toBe(true);
    expect(saved).toBe(true);
    // A turn that never ends does not hold the Stop past its bound.
    buffer.start("chat2", "alice", source<string>().stream, () => {});
    const started = Date.now();
    expect(await buffer.stopAndWait("chat2", "alice", 50)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("refuses replay past the byte cap and drops chunks every reader has seen", async () => {
    const buffer = new TurnBuffer<string>({ maxBytes: 20 });
    const turn = source<string>();
    const live = buffer.start("chat1", "alice", turn.stream, () => {}).getReader();
    turn.push("x".repeat(30));
    turn.push("y");
    await tick();
    expect(buffer.resume("chat1", "alice")).toBeNull();
    expect((await live.read()).value).toBe("x".repeat(30));
    expect(buffer.heldChunks("chat1")).toBe(1);
    expect((await live.read()).value).toBe("y");
    expect(buffer.heldChunks("chat1")).toBe(0);
    turn.end();
    expect((await live.read()).done).toBe(true);
  });

  it("forgets finished turns after the linger time and running ones after the age cap", async () => {
    let now = 0;
    const buffer = new TurnBuffer<string>({ lingerMs: 1000, maxAgeMs: 5000, now: () => now });
    const done = source<string>();
    done.end();
    await readAll(buffer.start("finished", "alice", done.stream, () => {}));
    buffer.start("running", "alice", source<string>().stream, () => {});
    now = 500;
    expect(buffer.resume("finished", "alice")).not.toBeNull();
    now = 1501;
    expect(buffer.resume("finished", "alice")).toBeNull();
    expect(buffer.resume("running", "alice")).not.toBeNull();
    now = 5001;
    expect(buffer.resume("running", "alice")).toBeNull();
    expect(buffer.size).toBe(0);
  });

  it("holds at most maxTurns buffers, evicting finished ones first", async () => {
    let now = 0;
    const buffer = new TurnBuffer<string>({ maxTurns: 2, now: () => now });
    const finished = source<string>();
    finished.end();
    await readAll(buffer.start("old-finished", "alice", finished.stream, () => {}));
    now = 1;
    buffer.start("running", "alice", source<string>().stream, () => {});
    now = 2;
    buffer.start("newest", "alice", source<string>().stream, () => {});
    expect(buffer.size).toBe(2);
    expect(buffer.resume("old-finished", "alice")).toBeNull();
    expect(buffer.resume("running", "alice")).not.toBeNull();
  });
});
