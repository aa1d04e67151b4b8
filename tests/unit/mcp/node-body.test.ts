/**
 * NodeBody and NodeBodyResponse (lib/mcp/limits/node-body.ts): a body read from a Node stream
 * through the connection's limit processors, as text, as events, or as a web stream for readers
 * that know nothing of it; every way it ends releases the request exactly once.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ConnectionGuard, resolveEngineLimits } from "@/lib/mcp/limits";
import { JsonLimiter } from "@/lib/mcp/limits/json-limiter";
import { NodeBody, NodeBodyResponse, nodeBodyOf } from "@/lib/mcp/limits/node-body";
import { SseLimiter } from "@/lib/mcp/limits/sse-limiter";

const guard = (maxMessageBytes = 1000) => new ConnectionGuard(resolveEngineLimits({ maxMessageBytes }), () => 0);
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

function body(processorFor: (g: ConnectionGuard) => ConstructorParameters<typeof NodeBody>[1], max?: number) {
  const source = new PassThrough();
  let released = 0;
  const nodeBody = new NodeBody(source, processorFor(guard(max)), () => released++);
  return { source, nodeBody, released: () => released };
}

describe("NodeBody", () => {
  it("reads a JSON body whole through the limiter and releases once", async () => {
    const { source, nodeBody, released } = body((g) => new JsonLimiter(g, [1], true));
    const read = nodeBody.bytes();
    source.write('{"jsonrpc":"2.0",');
    source.end('"id":1,"result":{}}');
    expect(text(await read)).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(released()).toBe(1);
  });

  it("replaces a JSON body over the cap with an error for its request, and stops reading", async () => {
    const { source, nodeBody, released } = body((g) => new JsonLimiter(g, [4], true), 50);
    const read = nodeBody.bytes();
    source.write(`{"jsonrpc":"2.0","id":4,"result":{"text":"${"x".repeat(100)}"}}`);
    const answer = JSON.parse(text(await read));
    expect(answer).toMatchObject({ id: 4, error: { message: expect.stringMatching(/exceeds 50 bytes/) } });
    expect(source.destroyed).toBe(true);
    expect(released()).toBe(1);
  });

  it("passes SSE events on whole and answers a request whose stream breaks with the reason", async () => {
    const { source, nodeBody, released } = body((g) => new SseLimiter(g, [9]));
    const chunks: string[] = [];
    let ended: string | undefined | null = null;
    nodeBody.consume({ chunk: (b) => chunks.push(text(b)), end: (error) => (ended = error) });
    source.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress",');
    source.write('"params":{"progressToken":1,"progress":1}}\n\n');
    source.destroy(new Error("socket hang up"));
    await new Promise((r) => setImmediate(r));
    expect(chunks[0]).toBe(
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n',
    );
    expect(chunks[1]).toMatch(/"id":9.*the response stream broke: socket hang up/);
    expect(ended).toBe("socket hang up");
    expect(released()).toBe(1);
  });

  it("is a web stream for a reader that asks for one", async () => {
    const { source, nodeBody, released } = body((g) => new JsonLimiter(g, [], false));
    source.end("plain text");
    const reader = nodeBody.getReader();
    const parts: string[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(text(next.value));
    expect(parts.join("")).toBe("plain text");
    expect(released()).toBe(1);
  });

  it("cancelled before anyone read it, closes the connection and releases once", async () => {
    const { source, nodeBody, released } = body((g) => new JsonLimiter(g, [2], true));
    await nodeBody.cancel();
    await nodeBody.cancel();
    expect(source.destroyed).toBe(true);
    expect(released()).toBe(1);
  });

  it("can be read only once", async () => {
    const { source, nodeBody } = body((g) => new JsonLimiter(g, [], true));
    source.end("{}");
    await nodeBody.bytes();
    expect(() => nodeBody.consume({ chunk: () => undefined, end: () => undefined })).toThrow(/already read/);
  });
});

describe("NodeBodyResponse", () => {
  it("is a Response with the real status, headers and URL, read from the NodeBody", async () => {
    const { source, nodeBody } = body((g) => new JsonLimiter(g, [1], true));
    const response = new NodeBodyResponse(nodeBody, {
      status: 200,
      statusText: "OK",
      headers: new Headers({ "content-type": "application/json", "mcp-session-id": "s1" }),
      url: "http://127.0.0.1:1/mcp",
    });
    expect(response).toBeInstanceOf(Response);
    expect(response.ok).toBe(true);
    expect(response.headers.get("mcp-session-id")).toBe("s1");
    expect(response.url).toBe("http://127.0.0.1:1/mcp");
    expect(nodeBodyOf(response.body)).toBe(nodeBody);
    expect(response.bodyUsed).toBe(false);
    source.end('{"jsonrpc":"2.0","id":1,"result":{"ok":true}}');
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { ok: true } });
    expect(response.bodyUsed).toBe(true);
    expect(() => response.clone()).toThrow(/cannot be cloned/);
  });

  it("keeps a status whose reason phrase the Response constructor would refuse", () => {
    const { nodeBody } = body((g) => new JsonLimiter(g, [], false));
    const response = new NodeBodyResponse(nodeBody, {
      status: 404,
      statusText: "Not\u0000Found",
      headers: new Headers(),
      url: "http://x/",
    });
    expect(response.status).toBe(404);
    expect(response.statusText).toBe("");
  });
});
