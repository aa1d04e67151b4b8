/**
 * The engine against a real MCP 2026-07-28 server (@modelcontextprotocol/server 2.x) over stdio and
 * Streamable HTTP, and against server-everything (2025-11-25): the era is negotiated, and tools,
 * resources, prompts, elicitation and sampling through `input_required` work on the modern era.
 */
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpPool, type SamplingRequest } from "@/lib/mcp";
import type { ServerDefinition } from "@/lib/mcp/config";
import { def, EVERYTHING, FIXTURES, freePort, startHttpServer, stopProcess } from "./helpers";

const MODERN = path.join(FIXTURES, "modern-server.mjs");

function modernPool(elicited: unknown[], sampled: SamplingRequest[]) {
  return new McpPool({
    onElicitation: async (_user, _server, params) => {
      elicited.push(params);
      return { action: "accept", content: { confirmed: true } };
    },
    onSampling: async (_user, _server, request) => {
      sampled.push(request);
      return { result: { role: "assistant", model: "scripted", content: { type: "text", text: "short" } }, usage: { outputTokens: 1 } };
    },
  });
}

async function exerciseModern(server: ServerDefinition, transport: string) {
  const elicited: unknown[] = [];
  const sampled: SamplingRequest[] = [];
  const pool = modernPool(elicited, sampled);
  try {
    const [status] = await pool.discover("alice", [server]);
    expect(status.lastError).toBeNull();
    expect(status.transport).toBe(transport);
    expect(status.protocol).toEqual({ era: "modern", version: "2026-07-28" });
    expect(status.counts).toMatchObject({ tools: 3, resources: 1, prompts: 1 });

    // Icons metadata of the server and its tools reach the host.
    expect(status.serverInfo?.icons).toEqual([{ src: "https://example.com/server.png", mimeType: "image/png" }]);
    const registered = await pool.session("alice", server).listTools();
    expect(registered.find((t) => t.rawName === "echo")?.icons).toEqual([
      { src: "https://example.com/echo.svg", mimeType: "image/svg+xml" },
    ]);

    const echo = await pool.session("alice", server).callTool("echo", { message: "hi" });
    expect(echo.forModel).toEqual({ result: "Echo: hi" });

    // input_required → the same elicitation handler the user's dialog answers → the retried call.
    const confirm = await pool.session("alice", server).callTool("confirm", { what: "deploy" });
    expect(confirm.forModel).toEqual({ result: "confirmed deploy" });
    expect(elicited).toEqual([expect.objectContaining({ message: "Confirm deploy?" })]);

    // input_required sampling → the server's sampling policy and the host's model.
    const summary = await pool.session("alice", server).callTool("summarize", { text: "a long text" });
    expect(summary.forModel).toEqual({ result: "model said: short" });
    expect(sampled).toHaveLength(1);
    expect(pool.session("alice", server).status().sampling).toMatchObject({ requests: 1 });

    const read = await pool.session("alice", server).readResource("memo://readme");
    expect(read.contents[0]).toMatchObject({ uri: "memo://readme", text: "modern readme" });
    const prompt = await pool.session("alice", server).getPrompt("greet", { name: "Bo" });
    expect(prompt.messages[0].content).toEqual({ type: "text", text: "Hello, Bo" });
  } finally {
    await pool.closeAll();
  }
}

describe("a 2026-07-28 server", () => {
  let http: ChildProcess | undefined;
  let url = "";
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    http = await startHttpServer([MODERN, "http"], { PORT: String(port) }, url);
  });
  afterAll(() => stopProcess(http));

  it("negotiates 2026-07-28 over stdio and runs tools, input_required, resources and prompts", async () => {
    await exerciseModern(def("modern", { command: process.execPath, args: [MODERN, "stdio"] }), "stdio");
  });

  it("negotiates 2026-07-28 over Streamable HTTP", async () => {
    await exerciseModern(def("modernhttp", { url }), "streamable_http");
  });

  it("held to 2025-11-25 (`protocol`), is opened with the initialize handshake, never probed", async () => {
    const pool = new McpPool();
    const held = def("held", { url, protocol: "2025-11-25" });
    try {
      const [status] = await pool.discover("alice", [held]);
      expect(status.lastError).toBeNull();
      expect(status.protocol).toEqual({ era: "legacy", version: "2025-11-25" });
      expect((await pool.session("alice", held).callTool("echo", { message: "hi" })).forModel).toEqual({ result: "Echo: hi" });
    } finally {
      await pool.closeAll();
    }
  });
});

describe("a 2025-11-25 server (server-everything)", () => {
  it("falls back to the initialize handshake and remembers the era for the next connect", async () => {
    const pool = new McpPool();
    const server = def("everything", { command: process.execPath, args: [EVERYTHING, "stdio"] });
    try {
      const [first] = await pool.discover("alice", [server]);
      expect(first.protocol).toEqual({ era: "legacy", version: "2025-11-25" });
      const started = Date.now();
      const second = await pool.session("bob", server).reconnect();
      expect(second.protocol?.era).toBe("legacy");
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await pool.session("bob", server).callTool("echo", { message: "x" })).forModel).toEqual({ result: "Echo: x" });
    } finally {
      await pool.closeAll();
    }
  });
});
