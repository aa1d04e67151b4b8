/**
 * The per-server MCP gateway `/mcp/<slug>/<server>` (docs/gateway.md) on the run's database (a SQLite
 * file, or Postgres), its real route handlers served over `node:http`, the app's own pool
 * (lib/runtime/engine.ts), real MCP servers, and the SDK v2 client with a personal access token:
 * tools listed and called under their raw names at 2025-11-25 (a session) and 2026-07-28 (stateless);
 * two members of a team each reach the OAuth fixture's `whoami` as themselves through their own
 * connections; a held tool is neither listed nor callable; another workspace's slug is 404; a
 * removed member's token and a token without the `mcp` scope are refused with 401 + `WWW-Authenticate`.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { exec } from "@/db/exec";
import { bumpGeneration } from "@/db/generation";
import { flushAudit, listRecentAudit } from "@/db/queries/audit";
import { deleteMembership, upsertMembership } from "@/db/queries/memberships";
import { createServer, getServerById } from "@/db/queries/servers";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { toolPins } from "@/db/schema";
import { createToken } from "@/lib/auth/personal-tokens";
import { parseServerConfig } from "@/lib/mcp/config";
import { sessionCount } from "@/lib/use-cases/gateway/sessions";
import { oauthCallbackResponse } from "@/lib/oauth/web/callback";
import { beginConnect } from "@/lib/servers/connect";
import { definitionFor } from "@/lib/servers/credential-mode";
import { FIXTURES, freePort, startHttpServer } from "../mcp/helpers";
import { devLogin, startFixture, testDeps, type OAuthFixture } from "../oauth/helpers";
import { actorIn, person, team, type Person } from "../workspaces/helpers";
import { rawInitialize, type ServedGateway, serveGateway, closeGatewayTest, acmeWithBob, textOf } from "./helpers";

// Route modules and the use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

// Read at first use by the app's pool and OAuth wiring: loopback servers and loopback OAuth over http.
process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";
process.env.SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH = "1";

let dir = "";
let fixture: ChildProcess | undefined;
let as: OAuthFixture | undefined;
let gateway: ServedGateway | undefined;
let base = "";
let admin: Person;
let bob: Person;
let acme = "";
let acmeSlug = "";
let sessionsId = "";
const clients: Client[] = [];

/** A token of `user` for `workspaceId` (default scope `mcp`): the secret. */
async function tokenFor(user: Person, workspaceId: string, scopes: ("mcp" | "api:read")[] = ["mcp"]): Promise<string> {
  return (await createToken(getDb(), user, { name: "gateway test", workspaceId, scopes, expiresInDays: 7 })).secret;
}

/**
 * An SDK v2 client connected to `/mcp/<slug>/<server>` with the bearer token; `modern` pins
 * 2026-07-28; `approve` declares form elicitation and answers every question with it; `fetch`
 * stands in for the transport's HTTP requests.
 */
async function connectClient(
  secret: string,
  slug: string,
  server: string,
  modern = false,
  approve?: (message: string) => "accept" | "decline",
  fetch?: typeof globalThis.fetch,
): Promise<Client> {
  const client = new Client(
    { name: "gateway-test-client", version: "1.0.0" },
    {
      ...(modern ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {}),
      ...(approve ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (approve) {
    client.setRequestHandler("elicitation/create", async (request) => ({ action: approve(request.params.message) }));
  }
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp/${encodeURIComponent(slug)}/${encodeURIComponent(server)}`), {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
    ...(fetch ? { fetch } : {}),
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A raw `initialize` at `/mcp/<slug>/<server>`. */
const initializeAt = (secret: string | null, slug: string, server: string) => rawInitialize(`${base}/mcp/${slug}/${server}`, secret);

beforeAll(async () => {
  ({ dir, admin, bob, acme, acmeSlug } = await acmeWithBob());

  const port = await freePort();
  fixture = await startHttpServer(
    [path.join(FIXTURES, "session-http-server.mjs")],
    { PORT: String(port) },
    `http://127.0.0.1:${port}/stats`,
  );
  sessionsId = (
    await createServer(getDb(), {
      workspaceId: acme,
      name: "sessions",
      config: parseServerConfig({ url: `http://127.0.0.1:${port}/mcp` }, "sessions"),
      createdBy: admin.id,
    })
  ).id;
  // `echo` runs without asking for both members; the server is untrusted, so every other tool asks.
  for (const user of [admin, bob]) await setToolPolicy(getDb(), user.id, { serverId: sessionsId, toolName: "echo", policy: "allow" });

  // The real route modules behind a real HTTP server, as Next would call them.
  gateway = await serveGateway();
  base = gateway.base;
});

afterAll(async () => await closeGatewayTest({ clients, gateway, fixtures: [fixture], others: [as], dir }));

describe("a workspace server through /mcp/<slug>/<server>", () => {
  it("lists and calls a tool under its raw name at 2025-11-25, on a session, audited with the client's name", async () => {
    const client = await connectClient(await tokenFor(bob, acme), acmeSlug, "sessions");
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(client.getServerVersion()?.name).toBe("sessions");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["ask_later", "echo", "wait"]);
    expect(tools.find((tool) => tool.name === "echo")?.inputSchema).toMatchObject({ properties: { message: { type: "string" } } });
    const result = await client.callTool({ name: "echo", arguments: { message: "hello" } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("hello");

    await flushAudit(getDb());
    const audited = (await listRecentAudit(getDb(), 50)).find(
      (entry) => entry.action === "tool.called_by_hand" && entry.actorId === bob.id,
    );
    expect(audited?.detail).toMatchObject({ tool: "echo", policy: "allow", via: "gateway", client: "gateway-test-client" });
  });

  it("serves a 2026-07-28 client statelessly", async () => {
    const client = await connectClient(await tokenFor(bob, acme), acmeSlug, "sessions", true);
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const before = sessionCount();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("echo");
    const result = await client.callTool({ name: "echo", arguments: { message: "modern" } });
    expect(JSON.stringify(result.content)).toContain("modern");
    expect(sessionCount()).toBe(before);
  });

  it("asks for an `ask` tool through form elicitation when the client supports it, and runs it only on accept", async () => {
    const questions: string[] = [];
    let answer: "accept" | "decline" = "accept";
    // The question must travel on the call's own SSE stream. The SDK client opens the session's
    // GET stream in the background after `initialize`, racing its first call; a question sent on
    // that stream before it was open was dropped and the call waited a minute (docs/gateway.md,
    // the SDK's elicitInput). Holding the GET back for the whole test makes that race's worst case
    // the only case, so a question on the wrong stream fails every run, not one in eight.
    let heldStreams = 0;
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holdingGetStream: typeof fetch = async (input, init) => {
      if (init?.method === "GET") {
        heldStreams += 1;
        await released;
      }
      return await fetch(input, init);
    };
    const client = await connectClient(
      await tokenFor(bob, acme),
      acmeSlug,
      "sessions",
      false,
      (message) => {
        questions.push(message);
        return answer;
      },
      holdingGetStream,
    );
    try {
      // Within the test's own time: a lost question shows as this call's timeout, with its name.
      const within = { timeout: 20_000 };
      const ran = await client.callTool({ name: "wait", arguments: { ms: 5 } }, within);
      expect(ran.isError).toBeFalsy();
      expect(questions).toHaveLength(1);
      expect(questions[0]).toMatch(/^Allow "wait" with these arguments\?/);
      expect(questions[0]).toContain('"ms": 5');
      answer = "decline";
      const refused = await client.callTool({ name: "wait", arguments: { ms: 6 } }, within).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ProtocolError);
      expect((refused as ProtocolError).message).toMatch(/was not approved \(decline\)/);
      expect(questions).toHaveLength(2);
      // The client did ask for its GET stream, and both questions came without it.
      expect(heldStreams).toBe(1);
    } finally {
      release();
    }
  });

  it("relays a resource subscription of a 2025 session: the upstream's update reaches the client, until it unsubscribes", async () => {
    const client = await connectClient(await tokenFor(bob, acme), acmeSlug, "sessions");
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const updates: string[] = [];
    client.setNotificationHandler("notifications/resources/updated", async (notification) => {
      updates.push(notification.params.uri);
    });
    await client.subscribeResource({ uri: "fixture://clock" });
    await vi.waitFor(() => expect(updates).toEqual(["fixture://clock"]), { timeout: 5000 });
    await client.unsubscribeResource({ uri: "fixture://clock" });
    // A 2026-07-28 request has no session to notify: subscriptions are not offered there.
    const modern = await connectClient(await tokenFor(bob, acme), acmeSlug, "sessions", true);
    expect(modern.getServerCapabilities()?.resources?.subscribe).toBeUndefined();
  });

  it("leaves a held tool out of tools/list and refuses it by name", async () => {
    await setToolPolicy(getDb(), bob.id, { serverId: sessionsId, toolName: "ask_later", policy: "allow" });
    await exec(
      getDb()
        .update(toolPins)
        .set({ state: "changed" })
        .where(and(eq(toolPins.serverId, sessionsId), eq(toolPins.toolName, "ask_later"))),
    );
    bumpGeneration();
    const client = await connectClient(await tokenFor(bob, acme), acmeSlug, "sessions");
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("ask_later");
    const refused = await client.callTool({ name: "ask_later", arguments: { ms: 1 } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as ProtocolError).message).toMatch(/waits for a workspace owner or admin to review it/);
  });

  it("leaves a `never` tool out of tools/list and refuses it by name", async () => {
    const dana = await person("dana@example.com");
    await upsertMembership(getDb(), { workspaceId: acme, userId: dana.id, role: "member" });
    await setToolPolicy(getDb(), dana.id, { serverId: sessionsId, toolName: "echo", policy: "deny" });
    const client = await connectClient(await tokenFor(dana, acme), acmeSlug, "sessions");
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("echo");
    const refused = await client.callTool({ name: "echo", arguments: { message: "no" } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as ProtocolError).code).toBe(-32602);
  });

  it("answers 404 for another workspace's slug, an unknown server, and a session id of someone else", async () => {
    const bobsPersonal = await tokenFor(bob, bob.personalWorkspaceId);
    expect((await initializeAt(bobsPersonal, acmeSlug, "sessions")).status).toBe(404);
    const outsider = await person("outsider@example.com");
    const own = await team(outsider, "Other");
    const ownSlug = (await getWorkspaceById(getDb(), own))!.slug!;
    expect((await initializeAt(await tokenFor(bob, acme), ownSlug, "sessions")).status).toBe(404);
    expect((await initializeAt(await tokenFor(bob, acme), acmeSlug, "nope")).status).toBe(404);
    // The personal workspace answers at `personal`, never at a team's slug.
    expect((await initializeAt(bobsPersonal, "personal", "sessions")).status).toBe(404);

    const adminToken = await tokenFor(admin, acme);
    const session = await fetch(`${base}/mcp/${acmeSlug}/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    const sessionId = session.headers.get("mcp-session-id");
    await session.text();
    expect(sessionId).toBeTruthy();
    // A request naming the session is the session's (straight to it, without the era check), unless
    // its body names a protocol version of its own: a 2026-07-28 request is served statelessly.
    const raw = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${adminToken}`,
      "mcp-session-id": sessionId!,
    };
    const inSession = await fetch(`${base}/mcp/${acmeSlug}/sessions`, {
      method: "POST",
      headers: { ...raw, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(inSession.headers.get("mcp-session-id")).toBe(sessionId);
    expect(await inSession.text()).toContain('"name":"echo"');
    const envelope = {
      [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
      [CLIENT_INFO_META_KEY]: { name: "raw", version: "1" },
      [CLIENT_CAPABILITIES_META_KEY]: {},
    };
    const modern = await fetch(`${base}/mcp/${acmeSlug}/sessions`, {
      method: "POST",
      headers: { ...raw, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: envelope } }),
    });
    expect(modern.status).toBe(200);
    expect(modern.headers.get("mcp-session-id")).toBeNull();
    expect(await modern.text()).toContain('"name":"echo"');
    const stolen = await fetch(`${base}/mcp/${acmeSlug}/sessions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${await tokenFor(bob, acme)}`,
        "mcp-session-id": sessionId!,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(stolen.status).toBe(404);
    // Its owner ends it with DELETE; the id is then unknown to everyone.
    const held = sessionCount();
    const ended = await fetch(`${base}/mcp/${acmeSlug}/sessions`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${adminToken}`, "mcp-session-id": sessionId!, "mcp-protocol-version": "2025-11-25" },
    });
    expect(ended.status).toBe(200);
    expect(sessionCount()).toBe(held - 1);
    const gone = await fetch(`${base}/mcp/${acmeSlug}/sessions`, {
      method: "GET",
      headers: { authorization: `Bearer ${adminToken}`, "mcp-session-id": sessionId!, accept: "text/event-stream" },
    });
    expect(gone.status).toBe(404);
  });

  it("refuses with 401 and WWW-Authenticate: no token, a token without the mcp scope, a removed member's on the next request", async () => {
    const none = await initializeAt(null, acmeSlug, "sessions");
    expect(none.status).toBe(401);
    expect(none.challenge).toMatch(/^Bearer /);
    const readOnly = await initializeAt(await tokenFor(bob, acme, ["api:read"]), acmeSlug, "sessions");
    expect(readOnly).toMatchObject({ status: 401, challenge: expect.stringMatching(/^Bearer /) });
    expect(JSON.parse(readOnly.text).code).toBe("token.insufficient_scope");

    const carl = await person("carl@example.com");
    await upsertMembership(getDb(), { workspaceId: acme, userId: carl.id, role: "member" });
    await setToolPolicy(getDb(), carl.id, { serverId: sessionsId, toolName: "echo", policy: "allow" });
    const client = await connectClient(await tokenFor(carl, acme), acmeSlug, "sessions");
    expect(JSON.stringify((await client.callTool({ name: "echo", arguments: { message: "in" } })).content)).toContain("in");
    await deleteMembership(getDb(), { workspaceId: acme, userId: carl.id });
    const after = await client.callTool({ name: "echo", arguments: { message: "out" } }).catch((error: unknown) => error);
    // The SDK client reports the HTTP refusal with its status and body.
    expect((after as { data?: { status: number; text: string } }).data).toMatchObject({
      status: 401,
      text: expect.stringContaining("token.access_lost"),
    });
  });
});

describe("per-member credentials through the gateway", () => {
  it("two members call whoami on the OAuth fixture and each gets their own identity", async () => {
    as = await startFixture();
    const deps = testDeps();
    const record = await createServer(getDb(), {
      workspaceId: acme,
      name: "oauth",
      config: parseServerConfig({ url: as.mcpUrl, auth: "oauth" }, "oauth"),
      createdBy: admin.id,
    });
    // Each member connects their own account at the authorization server, as the Connect button does.
    for (const [user, login] of [
      [admin, "admin-at-as"],
      [bob, "bob-at-as"],
    ] as const) {
      const server = await definitionFor(getDb(), user.id, (await getServerById(getDb(), { id: record.id, workspaceId: acme }))!);
      const begun = await beginConnect(getDb(), deps, await actorIn(user, acme), server);
      if (begun.status !== "redirect") throw new Error("expected a redirect to the authorization server");
      const back = await devLogin(begun.url, login);
      expect((await oauthCallbackResponse(deps, { url: back, userId: user.id, findServer: () => server })).status).toBe(303);
      await setToolPolicy(getDb(), user.id, { serverId: record.id, toolName: "whoami", policy: "allow" });
    }
    const whoami = async (user: Person) => {
      const client = await connectClient(await tokenFor(user, acme), acmeSlug, "oauth");
      return textOf(await client.callTool({ name: "whoami", arguments: {} }));
    };
    expect(await whoami(admin)).toBe("admin-at-as");
    expect(await whoami(bob)).toBe("bob-at-as");
  });
});
