/**
 * The tool-call route at the connection ceiling and against a failing upstream, on both of the app's
 * paths: Next's route handler (after proxy.ts, as Next hands the request on) and the direct lane
 * (lib/lane, served by a real `node:http` server as scripts/server.mjs serves it), over a real SQLite
 * file, real session cookies, the app's own pool (lib/runtime/engine.ts) and quotas, and a real MCP
 * fixture. Past the ceiling a newcomer gets in by closing an idle connection; with every connection
 * busy both paths answer 429 `quota.exceeded` with `Retry-After`, never 500; an upstream that resets
 * every connection under load is `engine.unreachable` on every request of both paths, as is one that
 * refuses; one that never answers is `engine.connect_timeout`.
 */
import type { ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { nextAuthSecret } from "@/lib/auth/options";
import { startSession } from "@/lib/auth/sessions";
import { addServer } from "@/lib/servers/service";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { person, type Person } from "../workspaces/helpers";
import { FIXTURES, freePort, startHttpServer, stopProcess, waitUntil } from "./helpers";
import { listen, resettingProxy } from "./resetting-proxy";

// Route modules and the session reader are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

// Read once, at first use (this file's own process): a ceiling of 2 connections, loopback servers allowed.
process.env.SWITCHBOARD_QUOTA_CONNECTIONS_TOTAL = "2";
process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1";

const ORIGIN = "http://localhost:3000";
let dir = "";
let fixture: ChildProcess | undefined;
let fixtureBase = "";
let lane: http.Server | undefined;
let laneBase = "";
const fronts: net.Server[] = [];

type User = Person & { cookie: string };
type Answer = { status: number; body: Record<string, unknown>; retryAfter: string | null };

async function signedIn(email: string): Promise<User> {
  const user = await person(email);
  const token = await encode({ token: { sub: user.id, sid: await startSession(getDb(), user.id) }, secret: nextAuthSecret() });
  return { ...user, cookie: `next-auth.session-token=${token}` };
}

async function serverFor(user: User, name: string, url: string, extra: Record<string, unknown> = {}): Promise<string> {
  const actor = { id: user.id, isAdmin: false, workspaceId: user.personalWorkspaceId };
  return (await addServer(getDb(), actor, { name, config: { url, ...extra } })).id;
}

async function answerOf(response: Response): Promise<Answer> {
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    retryAfter: response.headers.get("retry-after"),
  };
}

/** POST …/tools/call through proxy.ts and Next's route handler. */
async function viaNext(user: User, serverId: string, name: string, args: Record<string, unknown>): Promise<Answer> {
  const { proxy } = await import("@/proxy");
  const { POST } = await import("@/app/api/servers/[id]/tools/call/route");
  const url = `/api/servers/${serverId}/tools/call`;
  const incoming = new NextRequest(new URL(url, ORIGIN), {
    method: "POST",
    headers: { host: "localhost:3000", cookie: user.cookie, "content-type": "application/json" },
  });
  const passed = proxy(incoming);
  const overridden = passed.headers.get("x-middleware-override-headers");
  const headers = new Headers();
  for (const name of overridden?.split(",") ?? []) headers.set(name, passed.headers.get(`x-middleware-request-${name}`) ?? "");
  const request = new Request(new URL(url, ORIGIN), { method: "POST", headers, body: JSON.stringify({ name, arguments: args }) });
  return answerOf(await POST(request, { params: Promise.resolve({ id: serverId }) }));
}

/** The same request to the direct lane over HTTP. */
async function viaLane(user: User, serverId: string, name: string, args: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(`${laneBase}/api/servers/${serverId}/tools/call`, {
    method: "POST",
    headers: { cookie: user.cookie, "content-type": "application/json" },
    body: JSON.stringify({ name, arguments: args }),
  });
  expect(response.headers.get("server-timing")).toContain("lane");
  return answerOf(response);
}

const PATHS = { next: viaNext, lane: viaLane };

beforeAll(async () => {
  dir = useTempDataDir();
  const port = await freePort();
  fixtureBase = `http://127.0.0.1:${port}`;
  fixture = await startHttpServer([path.join(FIXTURES, "session-http-server.mjs")], { PORT: String(port) }, `${fixtureBase}/stats`);
  // The lane as instrumentation.ts installs it, with the guard the routes use.
  const [{ createDirectLane }, { DIRECT_ROUTES }, { requireWorkspace }] = await Promise.all([
    import("@/lib/lane/direct-lane"),
    import("@/app/_direct/routes"),
    import("@/lib/use-cases/caller"),
  ]);
  const serve = createDirectLane(DIRECT_ROUTES, requireWorkspace);
  lane = http.createServer((req, res) => {
    if (!serve(req, res)) res.writeHead(404).end();
  });
  laneBase = `http://127.0.0.1:${await listen(lane)}`;
});

afterAll(async () => {
  const { closeGlobalPool } = await import("@/lib/mcp");
  await closeGlobalPool();
  lane?.close();
  for (const front of fronts) front.close();
  await stopProcess(fixture);
  removeTempDataDir(dir);
});

describe("the tool-call route at the connection ceiling", () => {
  it("a newcomer closes an idle connection and gets in; with every connection busy both paths answer 429, never 500", async () => {
    const [ann, bob, cat] = await Promise.all(["ann", "bob", "cat"].map((name) => signedIn(`${name}@example.com`)));
    const url = `${fixtureBase}/mcp`;
    const [annServer, bobServer, catServer] = [
      await serverFor(ann, "sessions", url),
      await serverFor(bob, "sessions", url),
      await serverFor(cat, "sessions", url),
    ];
    const sessionOf = (answer: Answer) => (answer.body.structuredContent as { sessionId: string }).sessionId;

    const annFirst = await viaNext(ann, annServer, "echo", { message: "ann" });
    expect(annFirst.status).toBe(200);
    expect((await viaLane(bob, bobServer, "echo", { message: "bob" })).status).toBe(200);

    // Both connections busy: nothing may be closed, so the newcomer is refused on both paths.
    const busy = [viaNext(ann, annServer, "wait", { ms: 1500 }), viaLane(bob, bobServer, "wait", { ms: 1500 })];
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const via of Object.values(PATHS)) {
      const refused = await via(cat, catServer, "echo", { message: "cat" });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("quota.exceeded");
      expect(refused.body.message).toMatch(/open server connections on this instance \(2;.*SWITCHBOARD_QUOTA_CONNECTIONS_TOTAL/);
      expect(refused.retryAfter).toBe("30");
    }
    for (const answer of await Promise.all(busy)) expect(answer.status).toBe(200);
    // Which of the two waits ended last is a race (on a loaded machine Ann's may): Bob's is used once
    // more, so Ann's is the least recently used, whatever the timing.
    expect((await viaLane(bob, bobServer, "echo", { message: "bob again" })).status).toBe(200);

    // Idle again: the newcomer gets in by closing the least recently used one (Bob's was used last).
    const catAnswer = await viaLane(cat, catServer, "echo", { message: "cat" });
    expect(catAnswer.status).toBe(200);
    expect(catAnswer.body.structuredContent).toMatchObject({ message: "cat" });
    const deleted = async () => ((await (await fetch(`${fixtureBase}/stats`)).json()) as { deleted: string[] }).deleted;
    await waitUntil(async () => (await deleted()).includes(sessionOf(annFirst)), 5000, "Ann's session DELETEd");
    // Ann is back on her next call, through Next this time.
    expect((await viaNext(ann, annServer, "echo", { message: "ann again" })).status).toBe(200);
  });
});

describe("an upstream that resets connections under load", () => {
  it("is engine.unreachable on every request of both paths, never 500", async () => {
    const dan = await signedIn("dan@example.com");
    const front = resettingProxy(Number(new URL(fixtureBase).port), true);
    fronts.push(front.server);
    const serverId = await serverFor(dan, "resets", `http://127.0.0.1:${await listen(front.server)}/mcp`);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? viaLane : viaNext)(dan, serverId, "echo", { message: String(i) })),
    );
    for (const answer of answers)
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 502, code: "engine.unreachable" });
    expect(front.state.resets).toBeGreaterThan(0);
  });

  it("a refused connection is engine.unreachable and a silent server engine.connect_timeout, on both paths", async () => {
    const fay = await signedIn("fay@example.com");
    const refusedId = await serverFor(fay, "refused", `http://127.0.0.1:${await freePort()}/mcp`);
    // Accepts the connection and never answers a byte.
    const silent = net.createServer(() => {});
    fronts.push(silent);
    const silentId = await serverFor(fay, "silent", `http://127.0.0.1:${await listen(silent)}/mcp`, { connect_timeout: 1 });
    for (const via of Object.values(PATHS)) {
      const refused = await via(fay, refusedId, "echo", { message: "x" });
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 502, code: "engine.unreachable" });
    }
    const timedOut = await Promise.all(Object.values(PATHS).map((via) => via(fay, silentId, "echo", { message: "x" })));
    for (const answer of timedOut)
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 504, code: "engine.connect_timeout" });
  });

  it("a session reset mid-way fails the call as unreachable on both paths, never 500", async () => {
    const eve = await signedIn("eve@example.com");
    const front = resettingProxy(Number(new URL(fixtureBase).port));
    fronts.push(front.server);
    const serverId = await serverFor(eve, "midway", `http://127.0.0.1:${await listen(front.server)}/mcp`);
    // Eve's connection is made (the ceiling makes room for it); then every connection is reset.
    expect((await viaNext(eve, serverId, "echo", { message: "before" })).status).toBe(200);
    front.resetAll();
    for (const via of Object.values(PATHS)) {
      const answer = await via(eve, serverId, "echo", { message: "after" });
      expect(answer.status).not.toBe(500);
      // The call in flight is a tool error naming the failure; later requests meet the dropped connection's own code.
      const code = answer.status === 200 ? `engine.${answer.body.errorCode}` : answer.body.code;
      expect(code).toMatch(/^engine\.(unreachable|reconnecting)$/);
    }
  });
});
