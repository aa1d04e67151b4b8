/**
 * The direct lane on a real HTTP server: a matched route runs its handler with a web Request (path
 * parameters, headers, the body as a stream, an abort signal), gets the same cross-site refusal and
 * security headers as proxy.ts, and anything unmatched is left to the next handler (Next).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDirectLane, type RouteHandler } from "@/lib/lane/direct-lane";
import { jsonResponse, readJson } from "@/lib/http";
import { WORKSPACE_PATH_HEADER } from "@/lib/workspaces/api-path";

const seen: { request: Request; params: Record<string, string> }[] = [];
let aborted: Promise<void> = Promise.resolve();

const echo: RouteHandler = async (request, context) => {
  const params = await context.params;
  seen.push({ request, params });
  const body = await readJson(request, 64);
  return Response.json({ params, body, cookie: request.headers.get("cookie") });
};

// Answers with a jsonResponse, whose remembered text the lane sends without reading the stream.
const remembered: RouteHandler = async (request) => {
  const body = (await readJson(request)) as { text: string };
  expect(request.body).toBeNull(); // read ahead by the lane: the readers have it
  const response = jsonResponse({ text: body.text, length: body.text.length }, { status: 201, headers: { "x-seen": "yes" } }, request);
  expect(response.body).toBeNull(); // on the lane: no stream made only to be thrown away
  return response;
};

// Stands in for the tool-call route: what it is told about the workspace and its own path.
const scoped: RouteHandler = async (request, context) =>
  Response.json({
    params: await context.params,
    workspace: request.headers.get(WORKSPACE_PATH_HEADER),
    pathname: new URL(request.url).pathname,
    search: new URL(request.url).search,
  });

const slow: RouteHandler = async (request) => {
  aborted = new Promise((resolve) => request.signal.addEventListener("abort", () => resolve()));
  await aborted;
  return new Response("never sent");
};

const stream: RouteHandler = async () =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: one\n\n"));
        controller.enqueue(new TextEncoder().encode("data: two\n\n"));
        controller.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );

// A streamed answer whose body fails halfway (a server that dies mid-result).
const broken: RouteHandler = async () =>
  new Response(
    new ReadableStream({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode("data: one\n\n"));
        controller.error(new Error("the body broke"));
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );

const lane = createDirectLane([
  { method: "POST", pattern: /^\/api\/things\/(?<id>[^/]+)\/echo$/, handler: echo },
  { method: "GET", pattern: /^\/api\/broken$/, handler: broken },
  { method: "POST", pattern: /^\/api\/slow$/, handler: slow },
  { method: "POST", pattern: /^\/api\/remembered$/, handler: remembered },
  { method: "GET", pattern: /^\/api\/stream$/, handler: stream },
  { method: "POST", pattern: /^\/api\/servers\/(?<id>[^/]+)\/tools\/call$/, handler: scoped },
]);
const server = http.createServer((req, res) => {
  if (lane(req, res)) return;
  res.writeHead(299).end("left to Next");
});
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

describe("direct lane", () => {
  it("runs the route's handler with its path parameters, headers and body", async () => {
    const response = await post("/api/things/abc/echo?x=1", JSON.stringify({ a: 1 }), { cookie: "k=v" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ params: { id: "abc" }, body: { a: 1 }, cookie: "k=v" });
    const { request } = seen[seen.length - 1];
    expect(new URL(request.url).pathname).toBe("/api/things/abc/echo");
    expect(new URL(request.url).search).toBe("?x=1");
    expect(response.headers.get("server-timing")).toContain('lane;desc="direct"');
  });

  it("answers with a jsonResponse's text, and off the lane a jsonResponse is an ordinary JSON Response", async () => {
    const offLane = jsonResponse({ a: "é" }, { status: 202 }, new Request("http://x/", { method: "POST" }));
    expect(offLane.status).toBe(202);
    expect(offLane.headers.get("content-type")).toBe("application/json");
    expect(await offLane.json()).toEqual({ a: "é" });
  });

  it("sends a jsonResponse's own text with its byte length, status and headers", async () => {
    const response = await post("/api/remembered", JSON.stringify({ text: "héllo ✓" }));
    expect(response.status).toBe(201);
    expect(response.headers.get("x-seen")).toBe("yes");
    expect(response.headers.get("content-type")).toBe("application/json");
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ text: "héllo ✓", length: 7 });
    expect(Number(response.headers.get("content-length"))).toBe(Buffer.byteLength(text));
  });

  it("sets the same security headers as the proxy", async () => {
    const response = await post("/api/things/abc/echo", "{}");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("refuses a cross-site write before the handler runs", async () => {
    const before = seen.length;
    const response = await post("/api/things/abc/echo", "{}", { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect((await response.json()).code).toBe("auth.forbidden");
    expect(seen.length).toBe(before);
  });

  it("refuses a body that is not JSON, and one over the route's cap while reading", async () => {
    const form = await fetch(`${base}/api/things/abc/echo`, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
    expect(form.status).toBe(415);
    const big = await post("/api/things/abc/echo", JSON.stringify({ pad: "x".repeat(1000) }));
    expect(big.status).toBe(413);
  });

  it("streams a body without a declared length to the route, and one declared over the app's cap", async () => {
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
        controller.enqueue(new TextEncoder().encode("2}"));
        controller.close();
      },
    });
    const streamed = await fetch(`${base}/api/things/abc/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunked,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(200);
    expect((await streamed.json()).body).toEqual({ a: 2 });
    const previous = process.env.SWITCHBOARD_MAX_BODY_BYTES;
    process.env.SWITCHBOARD_MAX_BODY_BYTES = "10";
    try {
      // Over the app's cap: not read whole by the lane; the route's own cap (64 bytes) answers.
      const big = await post("/api/things/abc/echo", JSON.stringify({ pad: "x".repeat(100) }));
      expect(big.status).toBe(413);
    } finally {
      if (previous === undefined) delete process.env.SWITCHBOARD_MAX_BODY_BYTES;
      else process.env.SWITCHBOARD_MAX_BODY_BYTES = previous;
    }
  });

  it("aborts the handler's signal when the client goes away", async () => {
    const controller = new AbortController();
    const gone = fetch(`${base}/api/slow`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
      signal: controller.signal,
    }).catch(() => "aborted");
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    expect(await gone).toBe("aborted");
    await expect(Promise.race([aborted, new Promise((_, reject) => setTimeout(() => reject(new Error("no abort")), 2000))])).resolves.toBe(
      undefined,
    );
  });

  it("streams a response that is not JSON as it comes", async () => {
    const response = await fetch(`${base}/api/stream`);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe("data: one\n\ndata: two\n\n");
  });

  it("hands the route its path parameters percent-decoded, and a malformed escape to Next", async () => {
    const response = await post("/api/things/a%20b/echo", "{}");
    expect((await response.json()).params).toEqual({ id: "a b" });
    expect((await post("/api/things/%E0%A4%A/echo", "{}")).status).toBe(299);
  });

  it("ends only that response when a body fails while it is sent, and keeps serving", async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      await expect(fetch(`${base}/api/broken`).then((r) => r.text())).rejects.toThrow();
    } finally {
      console.error = original;
    }
    expect(String(errors[0])).toContain("the body broke");
    expect((await post("/api/things/abc/echo", "{}")).status).toBe(200);
  });

  it("leaves every other path and method to the next handler", async () => {
    expect((await fetch(`${base}/api/things/abc/echo`)).status).toBe(299);
    expect((await post("/api/things/abc/other", "{}")).status).toBe(299);
  });

  it("serves a route at its workspace-scoped path: the route's own path, told the path's slug", async () => {
    const response = await post("/api/w/acme/servers/s%201/tools/call?x=1", "{}");
    expect(response.status).toBe(200);
    expect(response.headers.get("server-timing")).toContain('lane;desc="direct"');
    expect(await response.json()).toEqual({
      params: { id: "s 1" },
      workspace: "acme",
      pathname: "/api/servers/s%201/tools/call",
      search: "?x=1",
    });
  });

  it("drops the internal header a client sends, with or without a workspace in the path", async () => {
    const spoofed = { [WORKSPACE_PATH_HEADER]: "victim" };
    expect((await (await post("/api/servers/s1/tools/call", "{}", spoofed)).json()).workspace).toBeNull();
    expect((await (await post("/api/w/acme/servers/s1/tools/call", "{}", spoofed)).json()).workspace).toBe("acme");
  });

  it("applies the cross-site rule to a workspace-scoped path, and leaves other /api/w/ paths to Next", async () => {
    expect((await post("/api/w/acme/servers/s1/tools/call", "{}", { origin: "https://evil.example" })).status).toBe(403);
    expect((await post("/api/w/acme/things/abc/echo", "{}")).status).toBe(299);
    expect((await post("/api/w/a%20b/servers/s1/tools/call", "{}")).status).toBe(299);
  });
});
