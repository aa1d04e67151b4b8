/**
 * Upstream failures are a clear engine error on every path: a server whose connections are reset,
 * refused, or cut mid-session answers `unreachable` — on the request lane (Node's HTTP client) and on
 * the fetch path alike — and never an error the HTTP boundary would answer as `internal.error`.
 */
import type { ChildProcess } from "node:child_process";
import type net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse } from "@/lib/http";
import { McpPool } from "@/lib/mcp";
import { createNodeRequester } from "@/lib/net";
import { def, FIXTURES, freePort, startHttpServer, stopProcess } from "./helpers";
import { listen, resettingProxy as proxyTo } from "./resetting-proxy";

let upstream: ChildProcess | undefined;
let upstreamPort = 0;
const servers: net.Server[] = [];
const pools: McpPool[] = [];

const paths = {
  lane: () => Object.assign((url: string | URL | Request, init?: RequestInit) => fetch(url, init), { request: createNodeRequester() }),
  fetch: () => (url: string | URL | Request, init?: RequestInit) => fetch(url, init),
};

/** A resetting front for the session fixture, closed after the file. */
function resettingProxy(target: number) {
  const proxy = proxyTo(target);
  servers.push(proxy.server);
  return proxy;
}

function pool(kind: keyof typeof paths): McpPool {
  const created = new McpPool({ fetch: paths[kind]() });
  pools.push(created);
  return created;
}

/** What the HTTP boundary would answer for `error`. */
async function answered(error: unknown) {
  const response = errorResponse(error);
  return { status: response.status, code: ((await response.json()) as { code: string }).code };
}

beforeAll(async () => {
  upstreamPort = await freePort();
  upstream = await startHttpServer(
    [path.join(FIXTURES, "session-http-server.mjs")],
    { PORT: String(upstreamPort) },
    `http://127.0.0.1:${upstreamPort}/stats`,
  );
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.closeAll()));
  for (const server of servers) server.close();
  await stopProcess(upstream);
});

describe.each(["lane", "fetch"] as const)("upstream failures on the %s path", (kind) => {
  it("a server that resets every connection is unreachable (502), not an internal error", async () => {
    const proxy = resettingProxy(upstreamPort);
    proxy.state.resetting = true;
    const port = await listen(proxy.server);
    const server = def(`reset-${kind}`, { url: `http://127.0.0.1:${port}/mcp`, connect_timeout: 5 });
    const p = pool(kind);
    const error = await p
      .session("u", server)
      .listTools()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "unreachable" });
    expect(await answered(error)).toEqual({ status: 502, code: "engine.unreachable" });
    expect((await p.session("u", server).callTool("echo", { message: "x" })).errorCode).toBe("unreachable");
    expect(proxy.state.resets).toBeGreaterThan(0);
  });

  it("a refused connection is unreachable", async () => {
    const port = await freePort();
    const server = def(`refused-${kind}`, { url: `http://127.0.0.1:${port}/mcp`, connect_timeout: 5 });
    const error = await pool(kind)
      .session("u", server)
      .listTools()
      .catch((e: unknown) => e);
    expect(await answered(error)).toEqual({ status: 502, code: "engine.unreachable" });
  });

  it("a connection reset mid-session fails the call as unreachable", async () => {
    const proxy = resettingProxy(upstreamPort);
    const port = await listen(proxy.server);
    const server = def(`midway-${kind}`, { url: `http://127.0.0.1:${port}/mcp`, connect_timeout: 5 });
    const p = pool(kind);
    expect((await p.session("u", server).callTool("echo", { message: "before" })).errorCode).toBeUndefined();
    proxy.resetAll();
    const outcome = await p.session("u", server).callTool("echo", { message: "after" });
    expect(outcome.errorCode).toBe("unreachable");
    expect(outcome.content.isError).toBe(true);
  });
});
