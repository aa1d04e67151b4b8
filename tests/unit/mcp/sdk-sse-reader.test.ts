/**
 * The SSE reader of lib/mcp/sdk-private/streamable-http.ts against the SDK's own, differentially:
 * the same recorded streams, cut into chunks in several ways, go through the SDK's reader (a web
 * stream: eventsource-parser behind TextDecoderStream) and through ours (a NodeBody), each on a
 * real transport of the pinned SDK, and must give the same messages, errors, resumption tokens,
 * `retry:` value and the same ending (reconnect with which token, or end).
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { BodyProcessor } from "@/lib/mcp/limits/body-processor";
import { NodeBody } from "@/lib/mcp/limits/node-body";
import { LaneStreamableTransport } from "@/lib/mcp/sdk-private/streamable-http";

// The transport members both readers drive (the SDK's own, private in its types).
type Driven = {
  _serverRetryMs?: number;
  _scheduleReconnection(options: { resumptionToken?: string }, attempt: number): void;
  _handleSseStream(stream: unknown, options: Record<string, unknown>, isReconnectable: boolean): void;
};

// Passes every chunk on as it came: the readers see the stream exactly as recorded and cut.
const passThrough: BodyProcessor = {
  push(chunk, emit) {
    emit(chunk);
    return true;
  },
  end: () => undefined,
  broken: () => undefined,
};

type Seen = { messages: unknown[]; errors: string[]; tokens: string[]; retryMs?: number; ending: string };

async function read(chunks: Uint8Array[], way: "sdk" | "ours", options: { replayMessageId?: number; reconnectable?: boolean } = {}) {
  const transport = new LaneStreamableTransport(new URL("http://127.0.0.1:9/mcp"));
  await transport.start();
  const driven = transport as unknown as Driven;
  const record: Seen = { messages: [], errors: [], tokens: [], ending: "" };
  transport.onmessage = (message) => record.messages.push(message);
  transport.onerror = (error) => record.errors.push(`${error.name}: ${error.message}`);
  const ended = new Promise<void>((resolve) => {
    driven._scheduleReconnection = (reconnect) => {
      record.ending = `reconnect from ${reconnect.resumptionToken ?? "the start"}`;
      resolve();
    };
    const body = new NodeBody(Readable.from(chunks.map((chunk) => Buffer.from(chunk))), passThrough, () => undefined);
    driven._handleSseStream(
      way === "sdk" ? body.stream() : body,
      {
        onresumptiontoken: (token: string) => record.tokens.push(token),
        replayMessageId: options.replayMessageId,
        onRequestStreamEnd: () => {
          record.ending = "end";
          resolve();
        },
      },
      options.reconnectable ?? false,
    );
  });
  await Promise.race([
    ended,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${way} never ended: ${JSON.stringify(record)}`)), 3000)),
  ]);
  record.retryMs = driven._serverRetryMs;
  await transport.close();
  return record;
}

// The same bytes cut whole, into fixed sizes (through a multi-byte character, a CRLF, a field name), and at every line end.
function cuts(text: string): Uint8Array[][] {
  const bytes = new TextEncoder().encode(text);
  const sized = (size: number) =>
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
  const lines = text.split(/(?<=\n)/).map((line) => new TextEncoder().encode(line));
  // A large stream is cut coarser: a byte at a time is 300,000 chunks through web streams.
  const sizes = bytes.length > 50_000 ? [4096, 65_537] : [1, 3, 7, 64];
  return [[bytes], ...sizes.map(sized), lines];
}

const note = (n: number) =>
  JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: `note ${n} ✓` } });
const result = (id: number, text: string) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });

const STREAMS: Record<string, { text: string; replayMessageId?: number; reconnectable?: boolean; expect: Partial<Seen> }> = {
  "several events with ids, a retry and a comment": {
    text: `: connected\n\nretry: 1500\nid: 1\ndata: ${note(1)}\n\nid: 2\nevent: message\ndata: ${note(2)}\n\n: keep-alive\n\nid: 3\ndata: ${result(7, "done")}\n\n`,
    expect: { tokens: ["1", "2", "3"], retryMs: 1500, ending: "end" },
  },
  "data over several lines (one JSON message)": {
    text: `data: {"jsonrpc":"2.0",\ndata: "id":1,\ndata:"result":{"content":[]}}\n\n`,
    expect: { messages: [{ jsonrpc: "2.0", id: 1, result: { content: [] } }], ending: "end" },
  },
  "CRLF and lone CR line ends, a BOM": {
    text: `\uFEFFid: a\r\ndata: ${note(1)}\r\n\r\nid: b\rdata: ${result(2, "cr")}\r\r: after\r\n`,
    expect: { tokens: ["a", "b"], ending: "end" },
  },
  "a large event": {
    text: `id: big\ndata: ${result(3, "x".repeat(300_000))}\n\n`,
    expect: { tokens: ["big"], ending: "end" },
  },
  "events that report nothing: id only, another event type, empty data, a NUL in the id, a bad retry": {
    text: `id: lonely\n\nevent: ping\ndata: ${note(9)}\n\nid: ok\ndata:\n\nid: bad\0id\ndata: ${note(4)}\n\nretry: soon\nretry: 2000\nfoo: bar\ndata: ${result(5, "r")}\n\n`,
    expect: { tokens: ["ok"], retryMs: 2000, ending: "end" },
  },
  "data that is not a JSON-RPC message": {
    text: `data: {not json\n\ndata: {"jsonrpc":"2.0","nonsense":true}\n\ndata: ${result(6, "after")}\n\n`,
    expect: { ending: "end" },
  },
  "a primed stream that ends without its answer, resumed from its last id": {
    text: `id: p1\ndata:\n\nid: p2\ndata: ${note(1)}\n\n`,
    expect: { tokens: ["p1", "p2"], ending: "reconnect from p2" },
  },
  "a replayed answer takes the request's id": {
    text: `id: r\ndata: ${result(99, "replayed")}\n\n`,
    replayMessageId: 12,
    reconnectable: true,
    expect: { ending: "end" },
  },
  "a last event cut short is not reported": {
    text: `data: ${note(1)}\n\ndata: ${note(2)}\n`,
    expect: { ending: "end" },
  },
};

describe("the SSE reader against the SDK's", () => {
  for (const [name, stream] of Object.entries(STREAMS)) {
    it(`${name}: the same messages, tokens, retry and ending`, async () => {
      const expected = await read(cuts(stream.text)[0], "sdk", stream);
      expect(expected).toMatchObject(stream.expect);
      for (const chunks of cuts(stream.text)) {
        expect(await read(chunks, "sdk", stream)).toEqual(expected);
        expect(await read(chunks, "ours", stream)).toEqual(expected);
      }
    });
  }

  it("reports what the streams hold (the comparison is not of two empty readers)", async () => {
    const several = await read(cuts(STREAMS["several events with ids, a retry and a comment"].text)[0], "ours");
    expect(several.messages).toHaveLength(3);
    expect((await read(cuts(STREAMS["a large event"].text)[0], "ours")).messages).toHaveLength(1);
    const invalid = await read(cuts(STREAMS["data that is not a JSON-RPC message"].text)[0], "ours");
    expect(invalid.errors).toHaveLength(2);
    expect(invalid.messages).toHaveLength(1);
    const replayed = await read(cuts(STREAMS["a replayed answer takes the request's id"].text)[0], "ours", { replayMessageId: 12 });
    expect(replayed.messages).toEqual([expect.objectContaining({ id: 12 })]);
    expect((await read(cuts(STREAMS["a last event cut short is not reported"].text)[0], "ours")).messages).toHaveLength(1);
  });
});
