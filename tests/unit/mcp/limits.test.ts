/**
 * The engine's limits as pure pieces: the JSON shape scan, the stream reopen budget, the SSE
 * limiter (retry clamp, over-size events, broken streams) and the limited transport's rates.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { checkJsonShape, ConnectionGuard, JsonShapeScanner, LimitedTransport, resolveEngineLimits } from "@/lib/mcp/limits";
import { MAX_ANSWERS_IN_FLIGHT } from "@/lib/mcp/limits/limited-transport";
import { limitedBody } from "@/lib/mcp/limits/body-processor";
import { ReconnectBudget } from "@/lib/mcp/limits/reconnect-budget";
import { SseLimiter } from "@/lib/mcp/limits/sse-limiter";

const encoder = new TextEncoder();

describe("checkJsonShape", () => {
  it("refuses deep and wide documents and ignores brackets inside strings", () => {
    expect(checkJsonShape('{"a":[1,2,{"b":"[[[[{{{{"}]}', 3, 100)).toBeNull();
    expect(checkJsonShape("[[[[1]]]]", 3, 100)).toEqual({ kind: "depth", limit: 3 });
    expect(checkJsonShape(`[${"1,".repeat(200)}1]`, 10, 100)).toEqual({ kind: "members", limit: 100 });
    expect(checkJsonShape('{"s":"a\\"]]]]]]"}', 2, 100)).toBeNull();
  });

  it("skips strings whole yet finds their end across chunks, escaped quotes and backslash runs", () => {
    // Each document nests 3 deep outside its strings; brackets inside strings never count.
    const documents = [
      '{"a":"x\\\\","b":[[1]]}', // a string ending in an escaped backslash, then structure
      '{"a":"x\\"[[[[\\\\","b":[[1]]}', // an escaped quote inside, then a backslash pair
      '{"a":"é[[[[ü","b":[["\\\\\\"[["]]}', // multi-byte text and an odd backslash run
    ];
    for (const text of documents) {
      expect(checkJsonShape(text, 3, 100)).toBeNull();
      expect(checkJsonShape(text, 2, 100)).toEqual({ kind: "depth", limit: 2 });
      const bytes = encoder.encode(text);
      for (let size = 1; size <= 4; size++) {
        const scanner = new JsonShapeScanner(2, 100);
        let refusal = null;
        for (let i = 0; i < bytes.length && !refusal; i += size) refusal = scanner.pushBytes(bytes.subarray(i, i + size));
        expect(refusal, `${text} in ${size}-byte chunks`).toEqual({ kind: "depth", limit: 2 });
        const byText = new JsonShapeScanner(3, 100);
        for (let i = 0; i < text.length; i += size) expect(byText.pushText(text.slice(i, i + size))).toBeNull();
      }
    }
  });
});

describe("ReconnectBudget", () => {
  it("lets the first open through at once, spaces later ones 0.5, 1, 2 s apart and stops at the budget", () => {
    let now = 0;
    const budget = new ReconnectBudget(4, () => now);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const decision = budget.next();
      if (!decision.allow) throw new Error("refused early");
      waits.push(decision.waitMs);
      now += decision.waitMs; // the stream opens and closes at once (retry: 0)
    }
    expect(waits).toEqual([0, 500, 1000, 2000]);
    expect(budget.next()).toEqual({ allow: false });
    expect(budget.snapshot()).toEqual({ opens: 4, max: 4, exhausted: true });
  });
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

function source(chunks: string[], fail?: Error): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]));
      else if (fail) controller.error(fail);
      else controller.close();
    },
  });
}

describe("SseLimiter", () => {
  const guard = () => new ConnectionGuard(resolveEngineLimits({ maxMessageBytes: 200 }), () => 0);

  it("passes whole events on and clamps retry to 1 s", async () => {
    const out = await readAll(
      limitedBody(source(["retry: 0\n\nevent: message\nda", 'ta: {"a":1}\n\n']), new SseLimiter(guard(), [7]), () => {}),
    );
    expect(out).toBe('retry: 500\n\nevent: message\ndata: {"a":1}\n\n');
  });

  it("fails the request at once when an event passes the cap, without reading the rest", async () => {
    const g = guard();
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(encoder.encode(pulled === 1 ? "data: " : "x".repeat(100)));
      },
    });
    const out = await readAll(limitedBody(endless, new SseLimiter(g, [7]), () => {}));
    expect(JSON.parse(out.replace(/^event: message\ndata: /, ""))).toMatchObject({
      id: 7,
      error: { code: -32098, message: expect.stringMatching(/exceeds 200 bytes.*SWITCHBOARD_MCP_MAX_MESSAGE_BYTES/) },
    });
    expect(pulled).toBeLessThan(5);
    expect(g.snapshot().refusedMessages).toBe(1);
  });

  it("sheds a standalone stream's events over the notification rate before anything parses them; a response stream is never shed", async () => {
    const flood = Array.from({ length: 50 }, (_, i) => `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"n":${i}}}\n\n`);
    const limits = resolveEngineLimits({ notificationsPerSecond: 10 });
    const standalone = new ConnectionGuard(limits, () => 0);
    const passed = await readAll(limitedBody(source(flood), new SseLimiter(standalone, [], true), () => {}));
    // Peeked, not taken: the limited transport takes the token of each event that passed.
    expect(passed.split("\n\n").filter(Boolean)).toHaveLength(50);
    for (let i = 0; i < 20; i++) standalone.takeNotification();
    const shed = await readAll(limitedBody(source(flood), new SseLimiter(standalone, [], true), () => {}));
    expect(shed).toBe("");
    expect(standalone.snapshot().droppedNotifications).toBe(50);
    const response = new ConnectionGuard(limits, () => 0);
    for (let i = 0; i < 20; i++) response.takeNotification();
    const answered = await readAll(limitedBody(source(flood), new SseLimiter(response, [7]), () => {}));
    expect(answered.split("\n\n").filter(Boolean)).toHaveLength(50);
  });

  describe("on a standalone stream (legacy HTTP+SSE answers)", () => {
    const awaiting = (...ids: number[]) => {
      const g = guard();
      for (const id of ids) g.noteAwaiting(id);
      return g;
    };
    const answers = (out: string) =>
      out
        .split("\n\n")
        .filter(Boolean)
        .map((event) => JSON.parse(event.replace(/^(event: message\n)?data: /, "")) as { id: number; error?: { message: string } });
    const big = (head: string, tail: string) => `data: ${head}${"x".repeat(500)}${tail}\n\n`;

    it.each([
      ["its start", '{"jsonrpc":"2.0","id":2,"result":"', '"}'],
      ["its end (id last, as the SDK writes)", '{"result":"', '","jsonrpc":"2.0","id":2}'],
    ])("discards an over-cap event to its end, fails the request whose id %s shows, and passes the next event", async (_, head, tail) => {
      const g = awaiting(1, 2);
      const text = `data: {"jsonrpc":"2.0","id":3,"result":{}}\n\n${big(head, tail)}data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`;
      // In 7-byte chunks, so the cap and the event's end fall in the middle of chunks.
      const chunks = Array.from({ length: Math.ceil(text.length / 7) }, (_, i) => text.slice(i * 7, i * 7 + 7));
      const out = answers(await readAll(limitedBody(source(chunks), new SseLimiter(g, [], true), () => {})));
      expect(out.map((m) => m.id)).toEqual([3, 2, 1]);
      expect(out[1].error?.message).toMatch(/exceeds 200 bytes.*SWITCHBOARD_MCP_MAX_MESSAGE_BYTES/);
      expect(out[2].error).toBeUndefined();
      expect(g.snapshot().refusedMessages).toBe(1);
    });

    it("fails no request when the event's id is unknown, not awaited, or it is the server's own request", async () => {
      for (const [head, tail] of [
        ['{"result":"', '"}'],
        ['{"jsonrpc":"2.0","id":9,"result":"', '"}'],
        ['{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":"', '"}'],
      ]) {
        const out = await readAll(
          limitedBody(source([big(head, tail), 'data: {"n":1}\n\n']), new SseLimiter(awaiting(1), [], true), () => {}),
        );
        expect(out).toBe('data: {"n":1}\n\n');
      }
    });

    it("while connecting, an event that answers nothing known fails the connect", async () => {
      const g = awaiting(1);
      const refusals: string[] = [];
      g.onUnattributedRefusal = (reason) => refusals.push(reason);
      await readAll(limitedBody(source([big('{"result":"', "")]), new SseLimiter(g, [], true), () => {}));
      expect(refusals).toEqual([expect.stringMatching(/exceeds 200 bytes/)]);
    });
  });

  it("fails the request with the reason when the stream breaks", async () => {
    const out = await readAll(limitedBody(source(['data: {"a":'], new Error("socket hang up")), new SseLimiter(guard(), [3]), () => {}));
    expect(out).toContain('"id":3');
    expect(out).toContain("the response stream broke: socket hang up");
    // Its own code, not a cap's (engine.stream_broken, docs/errors.md).
    expect(out).toContain('"code":-32097');
  });
});

/** A transport we drive by hand: what the server "sends" and what the client sent back. */
class ScriptedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  readonly sent: JSONRPCMessage[] = [];
  async start() {}
  async close() {}
  async send(message: JSONRPCMessage) {
    this.sent.push(message);
  }
  deliver(message: JSONRPCMessage) {
    this.onmessage?.(message);
  }
}

describe("LimitedTransport", () => {
  it("refuses an elicitation flood with an error to the server instead of queueing it for the user", async () => {
    const inner = new ScriptedTransport();
    const guard = new ConnectionGuard(resolveEngineLimits({ maxPendingServerRequests: 3, serverRequestsPerMinute: 10 }), () => 0);
    const limited = new LimitedTransport(inner, guard);
    const reached: JSONRPCMessage[] = [];
    limited.onmessage = (message) => reached.push(message);
    await limited.start();
    for (let id = 1; id <= 50; id++) inner.deliver({ jsonrpc: "2.0", id, method: "elicitation/create", params: { message: "pw?" } });
    expect(reached).toHaveLength(3);
    await vi.waitFor(() => expect(inner.sent).toHaveLength(47));
    expect(inner.sent[0]).toMatchObject({
      id: 4,
      error: { message: expect.stringMatching(/SWITCHBOARD_MCP_MAX_PENDING_SERVER_REQUESTS/) },
    });
    // Answering one frees a pending slot.
    await limited.send({ jsonrpc: "2.0", id: 1, result: { action: "decline" } });
    inner.deliver({ jsonrpc: "2.0", id: 99, method: "elicitation/create", params: { message: "again" } });
    expect(reached.map((m) => ("id" in m ? m.id : null))).toEqual([1, 2, 3, 99]);
    expect(guard.snapshot().refusedServerRequests).toBe(47);
  });

  it("sends at most MAX_ANSWERS_IN_FLIGHT answers to the server at once, the rest in order after them", async () => {
    let inFlight = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const inner = new ScriptedTransport();
    inner.send = async (message: JSONRPCMessage) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => release.push(resolve));
      inFlight--;
      inner.sent.push(message);
    };
    const guard = new ConnectionGuard(resolveEngineLimits({ maxPendingServerRequests: 3, serverRequestsPerMinute: 1000 }), () => 0);
    const limited = new LimitedTransport(inner, guard);
    await limited.start();
    for (let id = 1; id <= 100; id++) inner.deliver({ jsonrpc: "2.0", id, method: "sampling/createMessage", params: {} });
    for (let answered = 0; answered < 97; answered++) {
      await vi.waitFor(() => expect(release.length).toBeGreaterThan(0));
      release.shift()!();
    }
    await vi.waitFor(() => expect(inner.sent).toHaveLength(97));
    expect(most).toBe(MAX_ANSWERS_IN_FLIGHT);
    expect(inner.sent.map((m) => ("id" in m ? m.id : null))).toEqual(Array.from({ length: 97 }, (_, i) => i + 4));
  });

  it("drops notifications past the rate and counts them", async () => {
    const inner = new ScriptedTransport();
    const guard = new ConnectionGuard(resolveEngineLimits({ notificationsPerSecond: 10 }), () => 0);
    const limited = new LimitedTransport(inner, guard);
    let reached = 0;
    limited.onmessage = () => reached++;
    await limited.start();
    for (let i = 0; i < 100; i++) inner.deliver({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: i } });
    expect(reached).toBe(20); // a burst of twice the per-second rate
    expect(guard.snapshot().droppedNotifications).toBe(80);
  });
});
