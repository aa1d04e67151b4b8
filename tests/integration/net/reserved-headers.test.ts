/**
 * Configs that cannot reroute (docs/security.md#ssrf-guard): a server config's `Host`,
 * `Content-Length`, `Transfer-Encoding`, `Connection`, `Proxy-*` and MCP session headers are refused
 * by validation, and a definition that carries them anyway (an old row, a file) never sends them:
 * a capturing MCP server on loopback records every request's raw headers, over the request lane,
 * the plain guarded fetch and the OAuth challenge probe.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse } from "@/lib/http";
import { McpPool } from "@/lib/mcp";
import { ConfigError, parseServerConfig, type ServerDefinition } from "@/lib/mcp/config";
import { createGuardedFetch, parseAllowedHosts } from "@/lib/net";

/** Raw headers of one request as they arrived (name as sent, lower-cased). */
type Seen = { method: string; headers: Map<string, string[]> };
const seen: Seen[] = [];
let server: Server;
let base = "";

const HOSTILE_HEADERS = {
  Host: "internal-admin.example",
  "Content-Length": "3",
  "Transfer-Encoding": "chunked",
  Connection: "close, x-api-key",
  "Keep-Alive": "timeout=1",
  Upgrade: "websocket",
  TE: "trailers",
  Trailer: "x-late",
  "Proxy-Authorization": "Basic Zm9yZ2Vk",
  "Mcp-Session-Id": "forged-session",
  "Mcp-Protocol-Version": "1999-01-01",
  "X-Api-Key": "kept-value",
};

function record(req: IncomingMessage): void {
  const headers = new Map<string, string[]>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), req.rawHeaders[i + 1]]);
  }
  seen.push({ method: req.method ?? "", headers });
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    record(req);
    if (new URL(req.url ?? "/", "http://x").pathname !== "/mcp") return void res.writeHead(404).end();
    const mcp = new McpServer({ name: "capture", version: "1.0.0" });
    mcp.registerTool("ping", { description: "answers pong" }, async () => ({ content: [{ type: "text", text: "pong" }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Every request since `from` carried the URL's own Host, none of the reserved values, and the ordinary header. */
function expectClean(from: number): void {
  const requests = seen.slice(from);
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    expect(request.headers.get("host")).toEqual([new URL(base).host]);
    expect(request.headers.has("transfer-encoding") && request.headers.has("content-length")).toBe(false);
    expect(request.headers.get("content-length") ?? []).not.toContain("3");
    expect(request.headers.has("keep-alive")).toBe(false);
    expect(request.headers.has("upgrade")).toBe(false);
    expect(request.headers.has("te")).toBe(false);
    expect(request.headers.has("trailer")).toBe(false);
    expect(request.headers.has("proxy-authorization")).toBe(false);
    expect(request.headers.get("mcp-session-id") ?? []).not.toContain("forged-session");
    expect(request.headers.get("mcp-protocol-version") ?? []).not.toContain("1999-01-01");
    expect(request.headers.get("connection") ?? []).not.toContain("close, x-api-key");
  }
}

describe("reserved request headers", () => {
  it("are refused by validation with a field error naming the header (400 server.invalid_config)", async () => {
    for (const name of ["Host", "content-length", "Transfer-Encoding", "Connection", "Proxy-Authorization", "Mcp-Session-Id"]) {
      let thrown: unknown;
      try {
        parseServerConfig({ url: `${base}/mcp`, headers: { [name]: "x" } }, "capture");
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      const response = errorResponse(thrown);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body).toMatchObject({ code: "server.invalid_config", field: `headers.${name}` });
      expect(body.message).toContain(`\`${name}\``);
    }
    // An ordinary header is fine.
    expect(parseServerConfig({ url: `${base}/mcp`, headers: { "X-Api-Key": "k" } }).headers).toEqual({ "X-Api-Key": "k" });
  });

  it("are never sent by a connection whose stored definition carries them anyway", async () => {
    const pool = new McpPool({ fetch: createGuardedFetch({ allowedHosts: parseAllowedHosts("127.0.0.1") }) });
    // Built by hand: the config never went through validation.
    const definition: ServerDefinition = { id: "capture", name: "capture", config: { url: `${base}/mcp`, headers: HOSTILE_HEADERS } };
    const from = seen.length;
    try {
      const outcome = await pool.session("u", definition).callTool("ping", {});
      expect(outcome.forModel).toEqual({ result: "pong" });
    } finally {
      await pool.closeAll();
    }
    expectClean(from);
    // The ordinary header still reaches the server on every request.
    expect(seen.slice(from).every((r) => r.headers.get("x-api-key")?.[0] === "kept-value")).toBe(true);
  });

  it("are dropped by both request paths of the guard itself (lane and fetch)", async () => {
    const guarded = createGuardedFetch({ allowedHosts: parseAllowedHosts("127.0.0.1") });
    const { "X-Api-Key": _kept, ...hopByHop } = HOSTILE_HEADERS;
    // The Mcp-* headers are the transport's own: the guard leaves them to it, the config never sets them.
    const { "Mcp-Session-Id": _s, "Mcp-Protocol-Version": _v, ...routing } = hopByHop;
    try {
      const fromFetch = seen.length;
      const viaFetch = await guarded(`${base}/nowhere`, { method: "POST", headers: routing, body: "{}" });
      await viaFetch.body?.cancel();
      expect(seen.length).toBe(fromFetch + 1);
      expect(seen[fromFetch].headers.get("host")).toEqual([new URL(base).host]);
      expect(seen[fromFetch].headers.get("content-length")).toEqual(["2"]);

      const fromLane = seen.length;
      const viaLane = await guarded.request(new URL(`${base}/nowhere`), { method: "POST", headers: new Headers(routing), body: "{}" });
      viaLane.body.resume();
      expect(seen.length).toBe(fromLane + 1);
      expect(seen[fromLane].headers.get("host")).toEqual([new URL(base).host]);
      expect(seen[fromLane].headers.get("content-length")).toEqual(["2"]);
      for (const request of seen.slice(fromFetch)) {
        for (const name of ["transfer-encoding", "keep-alive", "upgrade", "te", "trailer", "proxy-authorization"]) {
          expect(request.headers.has(name), name).toBe(false);
        }
      }
    } finally {
      await guarded.close();
    }
  });
});
