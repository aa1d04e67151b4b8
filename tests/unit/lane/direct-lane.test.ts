/**
 * The direct lane on a real HTTP server: a matched route gets the same cross-site refusal and
 * security headers as proxy.ts, then its caller is checked by the guard before a byte of the body
 * is read, the body is read (capped) and parsed by the route's schema, and the route's lane handler
 * receives the caller, the parameters and the body explicitly; anything unmatched is left to the
 * next handler (Next).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { LaneInput, LaneMethod, LaneStreamMethod } from "@/lib/lane/contract";
import { createDirectLane, type LaneGuard } from "@/lib/lane/direct-lane";
import { laneTable } from "@/lib/lane/lane-table";
import { WORKSPACE_PATH_HEADER } from "@/lib/workspaces/api-path";

type Caller = { user: string; role?: string; workspace: string | null };
const seen: { caller: Caller; input: LaneInput<Record<string, string>, unknown> }[] = [];
const guarded: string[] = [];
let aborted: Promise<void> = Promise.resolve();

// Stands in for requireWorkspace: the cookie names the user, the path's workspace header the workspace.
const guard: LaneGuard<Caller> = async (request, options) => {
  guarded.push(new URL(request.url).pathname);
  const cookie = request.headers.get("cookie");
  if (!cookie) throw new AppError("auth.unauthorized", "Sign in first.");
  if (options.role === "owner" && cookie !== "owner") throw new AppError("auth.forbidden", "Owners only.");
  return { user: cookie, role: options.role, workspace: request.headers.get(WORKSPACE_PATH_HEADER) };
};

const echoBody = z.object({ text: z.string() }).strict();
const echo: LaneMethod<Caller, Record<string, string>, z.infer<typeof echoBody>> = {
  body: echoBody,
  handle: async (caller, input) => {
    seen.push({ caller, input });
    return { body: { text: input.body.text, length: input.body.text.length }, status: 201, headers: { "x-seen": "yes" } };
  },
};

// A streamed method (the MCP gateway's shape): it checks its own caller, reads the body only when it
// wants it, and answers an event stream that stays open until the client goes away.
const streamed: string[] = [];
let streamCancelled: Promise<void> = Promise.resolve();
const events: LaneStreamMethod<Record<string, string>> = {
  respond: async ({ request, params, body }) => {
    if (request.headers.get("authorization") !== "Bearer good") return Response.json({ code: "token.invalid" }, { status: 401 });
    if (request.method === "POST") streamed.push(await body());
    let cancelled = () => {};
    streamCancelled = new Promise((resolve) => {
      cancelled = resolve;
    });
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(`data: ${params.name}\n\n`));
        if (request.method === "POST") controller.close();
      },
      cancel: () => cancelled(),
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  },
};

const lane = createDirectLane(
  laneTable<Caller>({
    "/api/events/[name]": { lane: { GET: events, POST: events }, GET: () => undefined, POST: () => undefined },
    "/api/things/[id]/echo": { lane: { POST: echo }, POST: () => undefined },
    "/api/slow": {
      lane: {
        POST: {
          handle: async (_caller, { signal }) => {
            aborted = new Promise((resolve) => signal.addEventListener("abort", () => resolve()));
            await aborted;
            return { body: "never sent" };
          },
        },
      },
      POST: () => undefined,
    },
    "/api/owners": { lane: { GET: { role: "owner", handle: async (caller) => ({ body: caller }) } }, GET: () => undefined },
    "/api/failing": {
      lane: {
        GET: {
          handle: async () => {
            throw new AppError("server.not_found", "No such server.");
          },
        },
      },
      GET: () => undefined,
    },
    "/api/servers/[id]/tools/call": {
      lane: {
        POST: {
          handle: async (caller, { params, request }) => ({
            body: { params, workspace: caller.workspace, pathname: new URL(request.url).pathname, search: new URL(request.url).search },
          }),
        },
      },
      POST: () => undefined,
    },
  }),
  guard,
);
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

const post = (path: string, body: string, headers: Record<string, string> = { cookie: "ada" }) =>
  fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

describe("direct lane", () => {
  it("hands the route's lane handler the caller, the path parameters and the parsed body, and sends its answer", async () => {
    const response = await post("/api/things/abc/echo?x=1", JSON.stringify({ text: "héllo ✓" }));
    expect(response.status).toBe(201);
    expect(response.headers.get("x-seen")).toBe("yes");
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("server-timing")).toContain('lane;desc="direct"');
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ text: "héllo ✓", length: 7 });
    expect(Number(response.headers.get("content-length"))).toBe(Buffer.byteLength(text));
    const { caller, input } = seen[seen.length - 1];
    expect(caller).toEqual({ user: "ada", role: undefined, workspace: null });
    expect(input.params).toEqual({ id: "abc" });
    expect(new URL(input.request.url).pathname).toBe("/api/things/abc/echo");
    expect(new URL(input.request.url).search).toBe("?x=1");
    expect(input.request.body).toBeNull(); // the body was passed parsed, never left on the Request
  });

  it("checks the caller before reading the body: an anonymous caller gets 401 whatever it sent", async () => {
    const before = seen.length;
    const anonymous = await post("/api/things/abc/echo", "not json at all", {});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ code: "auth.unauthorized", message: "Sign in first." });
    expect(seen.length).toBe(before);
  });

  it("passes the method's least role to the guard", async () => {
    expect((await fetch(`${base}/api/owners`, { headers: { cookie: "ada" } })).status).toBe(403);
    const owner = await fetch(`${base}/api/owners`, { headers: { cookie: "owner" } });
    expect(await owner.json()).toEqual({ user: "owner", role: "owner", workspace: null });
  });

  it("answers the handler's thrown errors as the routes do ({code, message} and the code's status)", async () => {
    const response = await fetch(`${base}/api/failing`, { headers: { cookie: "ada" } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: "server.not_found", message: "No such server." });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("sets the same security headers as the proxy", async () => {
    const response = await post("/api/things/abc/echo", JSON.stringify({ text: "" }));
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("refuses a cross-site write before the guard runs", async () => {
    const before = guarded.length;
    const response = await post("/api/things/abc/echo", "{}", { cookie: "ada", origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect((await response.json()).code).toBe("auth.forbidden");
    expect(guarded.length).toBe(before);
  });

  it("refuses a body that is not JSON, malformed JSON and a body its schema refuses, as lib/http's readers do", async () => {
    const form = await fetch(`${base}/api/things/abc/echo`, {
      method: "POST",
      headers: { "content-type": "text/plain", cookie: "ada" },
      body: "x",
    });
    expect(form.status).toBe(415);
    expect((await (await post("/api/things/abc/echo", "{")).json()).code).toBe("request.invalid_json");
    const invalid = await post("/api/things/abc/echo", JSON.stringify({ text: 1 }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: "request.invalid", field: "text" });
  });

  it("reads a body without a declared length, and stops at the app's cap with a 413 and a closed connection", async () => {
    const chunked = (parts: string[]) =>
      fetch(`${base}/api/things/abc/echo`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: "ada" },
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
    const streamed = await chunked(['{"text":', '"ab"}']);
    expect(streamed.status).toBe(201);
    expect(await streamed.json()).toEqual({ text: "ab", length: 2 });
    const previous = process.env.SWITCHBOARD_MAX_BODY_BYTES;
    process.env.SWITCHBOARD_MAX_BODY_BYTES = "20";
    try {
      const big = await chunked(['{"text":"', "x".repeat(30), '"}']);
      expect(big.status).toBe(413);
      expect(big.headers.get("connection")).toBe("close");
      expect(await big.json()).toEqual({ code: "request.too_large", message: "The request body is larger than 20 bytes." });
      const declared = await post("/api/things/abc/echo", JSON.stringify({ text: "x".repeat(30) }));
      expect(declared.status).toBe(413);
    } finally {
      if (previous === undefined) delete process.env.SWITCHBOARD_MAX_BODY_BYTES;
      else process.env.SWITCHBOARD_MAX_BODY_BYTES = previous;
    }
  });

  it("aborts the handler's signal when the client goes away", async () => {
    const controller = new AbortController();
    const gone = fetch(`${base}/api/slow`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "ada" },
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

  it("hands the route its path parameters percent-decoded, and a malformed escape to Next", async () => {
    await post("/api/things/a%20b/echo", JSON.stringify({ text: "" }));
    expect(seen[seen.length - 1].input.params).toEqual({ id: "a b" });
    expect((await post("/api/things/%E0%A4%A/echo", "{}")).status).toBe(299);
  });

  it("streams a streamed method's Response: its own caller check, the body read when it asks, the lane's headers", async () => {
    const refused = await fetch(`${base}/api/events/x`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "secret body",
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("server-timing")).toContain('lane;desc="direct"');
    expect(refused.headers.get("x-content-type-options")).toBe("nosniff");
    expect(streamed).toEqual([]); // refused before a byte of the body was read
    const answered = await fetch(`${base}/api/events/a%20b`, {
      method: "POST",
      headers: { authorization: "Bearer good", "content-type": "application/json" },
      body: "the body ✓",
    });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("content-type")).toBe("text/event-stream");
    expect(await answered.text()).toBe("data: a b\n\n");
    expect(streamed).toEqual(["the body ✓"]);
  });

  it("sends a GET stream's first event at once, and cancels the stream when the client goes away", async () => {
    const client = new AbortController();
    const open = await fetch(`${base}/api/events/live`, { headers: { authorization: "Bearer good" }, signal: client.signal });
    const reader = open.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: live\n\n");
    client.abort();
    await streamCancelled; // resolves only when the lane cancelled the Response's body
  });

  it("leaves every other path and method to the next handler", async () => {
    expect((await fetch(`${base}/api/things/abc/echo`)).status).toBe(299);
    expect((await post("/api/things/abc/other", "{}")).status).toBe(299);
  });

  it("serves a route at its workspace-scoped path: the route's own path, the guard told the path's slug", async () => {
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
    const spoofed = { cookie: "ada", [WORKSPACE_PATH_HEADER]: "victim" };
    expect((await (await post("/api/servers/s1/tools/call", "{}", spoofed)).json()).workspace).toBeNull();
    expect((await (await post("/api/w/acme/servers/s1/tools/call", "{}", spoofed)).json()).workspace).toBe("acme");
  });

  it("applies the cross-site rule to a workspace-scoped path, and leaves other /api/w/ paths to Next", async () => {
    expect((await post("/api/w/acme/servers/s1/tools/call", "{}", { cookie: "ada", origin: "https://evil.example" })).status).toBe(403);
    expect((await post("/api/w/acme/things/abc/echo", "{}")).status).toBe(299);
    expect((await post("/api/w/a%20b/servers/s1/tools/call", "{}")).status).toBe(299);
  });
});
