/** Running chat turns stop when their user loses the workspace, and only theirs. */
import { describe, expect, it } from "vitest";
import { endWithStream, stopTurns, trackTurn } from "@/lib/runtime/turns";

describe("turns", () => {
  it("stops the turns of one user in one workspace, not others", () => {
    const request = new AbortController().signal;
    const bobInAcme = trackTurn("bob", "acme", request);
    const bobAlone = trackTurn("bob", "personal-bob", request);
    const aliceInAcme = trackTurn("alice", "acme", request);
    stopTurns("bob", "acme");
    expect(bobInAcme.signal.aborted).toBe(true);
    expect(bobAlone.signal.aborted).toBe(false);
    expect(aliceInAcme.signal.aborted).toBe(false);
    stopTurns(null, "acme"); // a deleted workspace stops everyone's turns there
    expect(aliceInAcme.signal.aborted).toBe(true);
    stopTurns("bob", null); // a disabled account stops everywhere
    expect(bobAlone.signal.aborted).toBe(true);
  });

  it("follows the request's own abort, and a finished turn is no longer stopped", async () => {
    const request = new AbortController();
    const aborted = trackTurn("carol", "acme", request.signal);
    request.abort();
    expect(aborted.signal.aborted).toBe(true);

    const finished = trackTurn("carol", "acme", new AbortController().signal);
    const stream = endWithStream(
      new ReadableStream<number>({
        start: (c) => {
          c.enqueue(1);
          c.close();
        },
      }),
      finished,
    );
    const reader = stream.getReader();
    while (!(await reader.read()).done);
    stopTurns("carol", "acme");
    expect(finished.signal.aborted).toBe(false);
  });
});
