/**
 * The pool against real servers: server-everything over stdio, Streamable HTTP and legacy SSE,
 * and server-filesystem / server-memory over stdio.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpPool } from "@/lib/mcp";
import type { ServerDefinition } from "@/lib/mcp/config";
import { def, EVERYTHING, freePort, ROOT, startHttpServer, stopProcess } from "./helpers";

async function exerciseEverything(pool: McpPool, server: ServerDefinition, expectedTransport: string) {
  const [status] = await pool.discover("alice", [server]);
  expect(status.lastError).toBeNull();
  expect(status.state).toBe("connected");
  expect(status.transport).toBe(expectedTransport);
  expect(status.counts.tools).toBeGreaterThan(3);

  const tools = await pool.session("alice", server).listTools();
  const names = tools.map((t) => t.name);
  expect(names).toContain(`mcp_${server.name}_echo`);
  expect(names).toEqual(expect.arrayContaining([`mcp_${server.name}_read_resource`, `mcp_${server.name}_get_prompt`]));

  const echo = await pool.callRegistered("alice", [server], `mcp_${server.name}_echo`, { message: "hello" });
  expect(echo.isError).toBe(false);
  expect(echo.forModel).toEqual({ result: "Echo: hello" });

  const resources = await pool.session("alice", server).listResources();
  expect(resources.length).toBeGreaterThan(0);
  const read = await pool.session("alice", server).readResource(resources[0].uri);
  expect(read.contents[0].uri).toBe(resources[0].uri);
  const viaWrapper = await pool.callRegistered("alice", [server], `mcp_${server.name}_read_resource`, { uri: resources[0].uri });
  expect(viaWrapper.isError).toBe(false);

  const prompts = await pool.session("alice", server).listPrompts();
  const simple = prompts.find((p) => !(p.arguments ?? []).some((a) => a.required));
  expect(simple).toBeDefined();
  const prompt = await pool.session("alice", server).getPrompt(simple!.name, {});
  expect(prompt.messages.length).toBeGreaterThan(0);
}

describe("server-everything", () => {
  const pool = new McpPool();
  afterAll(() => pool.closeAll());

  it("works over stdio", async () => {
    await exerciseEverything(pool, def("everything", { command: process.execPath, args: [EVERYTHING, "stdio"] }), "stdio");
  });

  describe("over HTTP", () => {
    let http: ChildProcess | undefined;
    let sse: ChildProcess | undefined;
    let httpPort = 0;
    let ssePort = 0;
    beforeAll(async () => {
      [httpPort, ssePort] = [await freePort(), await freePort()];
      http = await startHttpServer([EVERYTHING, "streamableHttp"], { PORT: String(httpPort) }, `http://127.0.0.1:${httpPort}/`);
      sse = await startHttpServer([EVERYTHING, "sse"], { PORT: String(ssePort) }, `http://127.0.0.1:${ssePort}/`);
    });
    afterAll(async () => {
      await pool.closeAll();
      await stopProcess(http);
      await stopProcess(sse);
    });

    it("works over Streamable HTTP with a session", async () => {
      const server = def("everything_http", { url: `http://127.0.0.1:${httpPort}/mcp`, headers: { "X-Test": "1" } });
      await exerciseEverything(pool, server, "streamable_http");
      expect(pool.session("alice", server).status().sessionId).toBeTruthy();
    });

    it("goes straight to legacy SSE for a /sse URL", async () => {
      await exerciseEverything(pool, def("everything_sse", { url: `http://127.0.0.1:${ssePort}/sse` }), "sse");
    });

    it("reports an unreachable URL specifically", async () => {
      const dead = await freePort();
      const [status] = await pool.discover("alice", [def("dead", { url: `http://127.0.0.1:${dead}/mcp`, connect_timeout: 10 })]);
      expect(status.state).toBe("failed");
      expect(status.lastError?.code).toBe("unreachable");
      expect(status.lastError?.message).toMatch(/connection refused/);
    });
  });
});

describe("server-filesystem and server-memory over stdio", () => {
  const pool = new McpPool();
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sb-fs-"));
    await writeFile(path.join(dir, "hello.txt"), "hello from the temp dir");
  });
  afterAll(async () => {
    await pool.closeAll();
    await rm(dir, { recursive: true, force: true });
  });

  it("reads a file through server-filesystem", async () => {
    const bin = path.join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    const fs = def("filesystem", { command: process.execPath, args: [bin, dir] });
    const out = await pool.callRegistered("bob", [fs], "mcp_filesystem_read_text_file", { path: path.join(dir, "hello.txt") });
    expect(out.isError).toBe(false);
    expect(JSON.stringify(out.forModel)).toContain("hello from the temp dir");
  });

  it("stores and reads an entity through server-memory", async () => {
    const bin = path.join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");
    const memory = def("memory", { command: process.execPath, args: [bin], env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") } });
    const created = await pool.session("bob", memory).callTool("create_entities", {
      entities: [{ name: "Switchboard", entityType: "project", observations: ["connects MCP servers"] }],
    });
    expect(created.isError).toBe(false);
    const graph = await pool.session("bob", memory).callTool("read_graph", {});
    expect(JSON.stringify(graph.forModel)).toContain("connects MCP servers");
  });
});
