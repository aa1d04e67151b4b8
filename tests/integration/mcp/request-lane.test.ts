/**
 * The Node request lane (lib/net/node-request.ts, lib/mcp/limits/node-body.ts): a Streamable HTTP
 * connection sends its MCP requests on Node's HTTP client and reads the answers without web
 * streams, while OAuth and anything else keep the fetch. The lane keeps the SSRF guard and the
 * connection's limits: a hostile answer fails the same way on the lane as on the web-stream path.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpPool } from "@/lib/mcp";
import { installedSdkVersion, SDK_VERSION } from "@/lib/mcp/sdk-private/streamable-http";
import { NodeBody } from "@/lib/mcp/limits/node-body";
import { createGuardedFetch, createNodeRequester, parseAllowedHosts, type NodeRequester } from "@/lib/net";
import { def, FIXTURES, freePort, startHttpServer, stopProcess } from "./helpers";

let sessionServer: ChildProcess | undefined;
let hostileServer: ChildProcess | undefined;
let sessionUrl = "";
let hostileBase = "";
const pools: McpPool[] = [];

beforeAll(async () => {
  const [a, b] = [await freePort(), await freePort()];
  sessionUrl = `http://127.0.0.1:${a}/mcp`;
  hostileBase = `http://127.0.0.1:${b}`;
  sessionServer = await startHttpServer(
    [path.join(FIXTURES, "session-http-server.mjs")],
    { PORT: String(a) },
    `http://127.0.0.1:${a}/stats`,
  );
  hostileServer = await startHttpServer([path.join(FIXTURES, "hostile-http.mjs")], { PORT: String(b) }, `${hostileBase}/stats`);
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.closeAll()));
  await stopProcess(sessionServer);
  await stopProcess(hostileServer);
});

/** A fetch whose every use is counted, with (or without) a counted lane beside it. */
function countingFetch(lane?: NodeRequester) {
  const counts = { fetch: 0, lane: 0, methods: [] as string[] };
  const fetch = (url: string | URL | Request, init?: RequestInit) => {
    counts.fetch++;
    return globalThis.fetch(url, init);
  };
  if (!lane) return { fetch, counts };
  const request = Object.assign(
    (url: URL, init: Parameters<NodeRequester>[1]) => {
      counts.lane++;
      counts.methods.push(init.method);
      return lane(url, init);
    },
    { close: () => lane.close() },
  );
  return { fetch: Object.assign(fetch, { request }), counts };
}

function poolWith(fetch: ReturnType<typeof countingFetch>["fetch"]): McpPool {
  const pool = new McpPool({ fetch });
  pools.push(pool);
  return pool;
}

describe("the request lane", () => {
  it("reads for the SDK release installed (the reader mirrors its private members, and refuses another release)", () => {
    expect(installedSdkVersion()).toBe(SDK_VERSION);
  });

  it("carries every MCP request of a Streamable HTTP connection, and the fetch none, without web streams", async () => {
    const webStreams = vi.spyOn(NodeBody.prototype, "stream");
    const { fetch, counts } = countingFetch(createNodeRequester());
    const pool = poolWith(fetch);
    const server = def("lane", { url: sessionUrl });
    for (let i = 0; i < 20; i++) {
      const result = await pool.session("u", server).callTool("echo", { message: `m${i}` });
      expect(result.content.structuredContent).toMatchObject({ message: `m${i}` });
    }
    // The initialize POST, the initialized notification, discovery, the event stream GET and 20 calls.
    expect(counts.lane).toBeGreaterThanOrEqual(22);
    expect(counts.methods).toContain("GET");
    expect(counts.fetch).toBe(0);
    // Every answer (SSE events and JSON) was read from Node's stream, none through a web stream.
    expect(webStreams).not.toHaveBeenCalled();
    webStreams.mockRestore();
    await pool.close("u", server.id);
    // Closing the session is a DELETE on the lane too.
    expect(counts.methods).toContain("DELETE");
    expect(counts.fetch).toBe(0);
  });

  it("keeps the SSRF guard: a loopback server is refused unless allow-listed, before any socket", async () => {
    const refused = createGuardedFetch({});
    const pool = poolWith(refused as never);
    const statuses = await pool.discover("u", [def("blocked", { url: sessionUrl })]);
    expect(statuses[0].state).toBe("failed");
    expect(statuses[0].lastError?.message).toMatch(/refused: 127\.0\.0\.1 is loopback\..*SWITCHBOARD_ALLOWED_HOSTS=127\.0\.0\.1/);
    await expect(refused.request(new URL(sessionUrl), { method: "GET", headers: new Headers() })).rejects.toMatchObject({
      code: "ssrf_blocked",
    });
    const allowed = createGuardedFetch({ allowedHosts: parseAllowedHosts("127.0.0.1") });
    const ok = poolWith(allowed as never);
    const result = await ok.session("u", def("allowed", { url: sessionUrl })).callTool("echo", { message: "guarded" });
    expect(result.content.structuredContent).toMatchObject({ message: "guarded" });
    await refused.close();
    await allowed.close();
  });

  // Each hostile answer, as JSON and as SSE, fails with the same message on the lane as on the
  // web-stream path (a fetch without a lane), and the connection still answers afterwards.
  const cases: Array<{ mode: string; query: string; expected: RegExp }> = [
    { mode: "big-result", query: "", expected: /SWITCHBOARD_MCP_MAX_MESSAGE_BYTES/ },
    { mode: "big-result", query: "?sse=1", expected: /SWITCHBOARD_MCP_MAX_MESSAGE_BYTES/ },
    { mode: "million-keys", query: "", expected: /SWITCHBOARD_MCP_MAX_JSON_MEMBERS/ },
    { mode: "million-keys", query: "?sse=1", expected: /SWITCHBOARD_MCP_MAX_JSON_MEMBERS/ },
    { mode: "endless-line", query: "", expected: /SWITCHBOARD_MCP_MAX_MESSAGE_BYTES/ },
  ];
  for (const { mode, query, expected } of cases) {
    it(`refuses ${mode}${query} the same way on both paths`, async () => {
      const messages: string[] = [];
      for (const lane of [createNodeRequester(), undefined]) {
        const { fetch, counts } = countingFetch(lane);
        const pool = poolWith(fetch);
        const server = def(`h_${mode.replace("-", "_")}`, { url: `${hostileBase}/mcp/${mode}${query}` });
        const outcome = await pool.session("u", server).callTool("big", {});
        expect(outcome.isError).toBe(true);
        const message = (outcome.forModel as { error: string }).error;
        expect(message).toMatch(expected);
        messages.push(message);
        // The connection is still usable: its tool list answers.
        const [status] = await pool.discover("u", [server]);
        expect(status.state).toBe("connected");
        if (lane) expect(counts.fetch).toBe(0);
        else expect(counts.fetch).toBeGreaterThan(0);
        await pool.closeAll();
      }
      expect(messages[0]).toBe(messages[1]);
    });
  }
});
