/**
 * Approval in Switchboard of an `ask` tool called through the gateway (docs/gateway.md#approval-in-switchboard),
 * on the run's database with the real route handlers, the app's pool and question desk, and a real
 * MCP server: a client that cannot be asked (no elicitation at 2025-11-25, or a 2026-07-28 request)
 * waits while the call is one of the member's pending questions; the member answers it through
 * the routes the app's dialog uses (`GET /api/pending`, `POST /api/elicitations/:id`, with their
 * session cookie): Accept runs the call, Decline refuses it, another member neither sees nor
 * answers it, a client that gives up withdraws it, and a client that declared URL elicitation is
 * sent the page (its Decline refuses the call).
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { flushAudit, listRecentAudit } from "@/db/queries/audit";
import { deleteMembership, upsertMembership } from "@/db/queries/memberships";
import { createServer } from "@/db/queries/servers";
import { nextAuthSecret } from "@/lib/auth/options";
import { createToken } from "@/lib/auth/personal-tokens";
import { startSession } from "@/lib/auth/sessions";
import { parseServerConfig } from "@/lib/mcp/config";
import { UI_APPROVAL_MAX_WAITING, UI_APPROVAL_WAIT_MS } from "@/lib/use-cases/gateway/ui-approval";
import { FIXTURES, freePort, startHttpServer } from "../mcp/helpers";
import { type Person, person } from "../workspaces/helpers";
import { type ServedGateway, serveGateway, closeGatewayTest, acmeWithBob, textOf } from "./helpers";

// Route modules and the use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

// The app's routes read the session cookie from Next's request scope: here, the member the test acts as.
const browser = vi.hoisted(() => ({ cookie: "" }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ host: "localhost:3000", cookie: browser.cookie }),
  cookies: async () => ({
    get: (name: string) => {
      const found = browser.cookie.split("; ").find((part) => part.startsWith(`${name}=`));
      return found ? { name, value: found.slice(name.length + 1) } : undefined;
    },
  }),
}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

let dir = "";
let fixture: ChildProcess | undefined;
let gateway: ServedGateway | undefined;
let base = "";
let admin: Person;
let bob: Person;
let acme = "";
let acmeSlug = "";
const cookies = new Map<string, string>();
const clients: Client[] = [];

/** The member's browser session, as a cookie the routes read. */
async function sessionCookie(user: Person): Promise<string> {
  const sid = await startSession(getDb(), user.id);
  return `next-auth.session-token=${await encode({ token: { sub: user.id, sid }, secret: nextAuthSecret() })}`;
}

interface PendingElicitation {
  id: string;
  serverName: string;
  message: string;
}

/** `GET /api/pending` as `who`: their elicitations. */
async function pendingOf(who: Person): Promise<PendingElicitation[]> {
  browser.cookie = cookies.get(who.id)!;
  const { GET } = await import("@/app/api/pending/route");
  const response = await GET();
  expect(response.status).toBe(200);
  return ((await response.json()) as { elicitations: PendingElicitation[] }).elicitations;
}

/** `POST /api/elicitations/:id` as `who`: the status and the error code, if any. */
async function answerAs(who: Person, id: string, action: "accept" | "decline"): Promise<{ status: number; code?: string }> {
  browser.cookie = cookies.get(who.id)!;
  const { POST } = await import("@/app/api/elicitations/[id]/route");
  const request = new Request(`http://localhost:3000/api/elicitations/${id}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: browser.cookie },
    body: JSON.stringify({ action }),
  });
  const response = await POST(request, { params: Promise.resolve({ id }) });
  const text = await response.text();
  return { status: response.status, ...(text ? { code: (JSON.parse(text) as { code?: string }).code } : {}) };
}

/** The question about `tool` waiting for `who`, once it is listed. */
async function questionFor(who: Person, tool: string): Promise<PendingElicitation> {
  let found: PendingElicitation | undefined;
  await vi.waitFor(
    async () => {
      found = (await pendingOf(who)).find((question) => question.message.includes(`"${tool}"`));
      expect(found).toBeDefined();
    },
    { timeout: 10_000, interval: 100 },
  );
  return found!;
}

/** An SDK v2 client at `/mcp/<slug>/sessions` as `who`; `modern` pins 2026-07-28; `onUrl` declares URL elicitation. */
async function connectClient(
  who: Person,
  options: { modern?: boolean; onUrl?: (url: string) => "accept" | "decline" } = {},
): Promise<Client> {
  const { secret } = await createToken(getDb(), who, { name: "approval test", workspaceId: acme, scopes: ["mcp"], expiresInDays: 7 });
  const client = new Client(
    { name: "approval-test-client", version: "1.0.0" },
    {
      ...(options.modern ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {}),
      ...(options.onUrl ? { capabilities: { elicitation: { url: {} } } } : {}),
    },
  );
  const onUrl = options.onUrl;
  if (onUrl) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { mode?: string; url?: string };
      return { action: params.mode === "url" && params.url ? onUrl(params.url) : "decline" };
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp/${acmeSlug}/sessions`), {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  ({ dir, admin, bob, acme, acmeSlug } = await acmeWithBob());
  for (const who of [admin, bob]) cookies.set(who.id, await sessionCookie(who));
  const port = await freePort();
  fixture = await startHttpServer(
    [path.join(FIXTURES, "session-http-server.mjs")],
    { PORT: String(port) },
    `http://127.0.0.1:${port}/stats`,
  );
  // An untrusted server: its tools (`wait` among them) ask before each call.
  await createServer(getDb(), {
    workspaceId: acme,
    name: "sessions",
    config: parseServerConfig({ url: `http://127.0.0.1:${port}/mcp` }, "sessions"),
    createdBy: admin.id,
  });
  gateway = await serveGateway();
  base = gateway.base;
});

afterAll(async () => await closeGatewayTest({ clients, gateway, fixtures: [fixture], dir }));

describe("an `ask` tool through a client that cannot be asked waits for the approval made in Switchboard", () => {
  it("at 2025-11-25: Accept by the member runs the call; another member neither sees nor answers it; progress names the page", async () => {
    const client = await connectClient(bob);
    const progress: string[] = [];
    const call = client.callTool(
      { name: "wait", arguments: { ms: 5 } },
      {
        onprogress: (update) => void progress.push(update.message ?? ""),
      },
    );
    const question = await questionFor(bob, "wait");
    expect(question.serverName).toBe("sessions");
    expect(question.message).toContain('The MCP client "approval-test-client" wants to call "wait" through the gateway');
    expect(question.message).toContain('"ms": 5');
    // Someone else's question is not theirs to see or answer.
    expect((await pendingOf(admin)).map((pending) => pending.id)).not.toContain(question.id);
    expect(await answerAs(admin, question.id, "accept")).toEqual({ status: 404, code: "pending.not_found" });
    expect(await answerAs(bob, question.id, "accept")).toEqual({ status: 204 });
    expect(textOf(await call)).toBe("waited 5 ms");
    expect(progress[0]).toBe(`Waiting for your approval of "wait" in Switchboard: ${base}/w/${acmeSlug}/chat`);
    await flushAudit(getDb());
    const audited = (await listRecentAudit(getDb(), 50)).find(
      (entry) => entry.action === "tool.called_by_hand" && entry.actorId === bob.id,
    );
    expect(audited?.detail).toMatchObject({ tool: "wait", policy: "ask", via: "gateway", client: "approval-test-client" });
  });

  it("Decline refuses the call with an MCP error, and the session goes on", async () => {
    const client = await connectClient(bob);
    const call = client.callTool({ name: "wait", arguments: { ms: 6 } }).catch((error: unknown) => error);
    const question = await questionFor(bob, "wait");
    expect(await answerAs(bob, question.id, "decline")).toEqual({ status: 204 });
    const refused = await call;
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as ProtocolError).message).toMatch(/was not approved in Switchboard \(decline\)/);
    expect((await pendingOf(bob)).map((pending) => pending.id)).not.toContain(question.id);
  });

  it("at 2026-07-28 (stateless), the request waits the same way and Accept runs it", async () => {
    const client = await connectClient(bob, { modern: true });
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const call = client.callTool({ name: "wait", arguments: { ms: 7 } });
    const question = await questionFor(bob, "wait");
    expect(await answerAs(bob, question.id, "accept")).toEqual({ status: 204 });
    expect(textOf(await call)).toBe("waited 7 ms");
  });

  it("a client that gives up withdraws the question; an answer to it then runs nothing", async () => {
    const client = await connectClient(bob);
    const abort = new AbortController();
    const call = client.callTool({ name: "wait", arguments: { ms: 8 } }, { signal: abort.signal }).catch((error: unknown) => error);
    const question = await questionFor(bob, "wait");
    abort.abort();
    await call;
    await vi.waitFor(async () => expect((await pendingOf(bob)).map((pending) => pending.id)).not.toContain(question.id), { timeout: 5000 });
    expect((await answerAs(bob, question.id, "accept")).status).toBe(409);
  });

  it("refuses a call past UI_APPROVAL_MAX_WAITING questions waiting, naming the page; once one is answered the next call waits again", async () => {
    const client = await connectClient(bob);
    const abort = new AbortController();
    const waiting = Array.from({ length: UI_APPROVAL_MAX_WAITING }, (_, i) =>
      client.callTool({ name: "wait", arguments: { ms: 100 + i } }, { signal: abort.signal }).catch((error: unknown) => error),
    );
    await vi.waitFor(async () => expect((await pendingOf(bob)).length).toBe(UI_APPROVAL_MAX_WAITING), { timeout: 20_000, interval: 200 });
    const refused = await client.callTool({ name: "wait", arguments: { ms: 99 } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as ProtocolError).message).toMatch(
      /16 of your questions already wait in Switchboard \(http:\/\/[^)]+\/w\/[^)]+\/chat\)/,
    );
    // One answered (declined): room for one more.
    const first = (await pendingOf(bob))[0];
    expect((await answerAs(bob, first.id, "decline")).status).toBe(204);
    const next = client.callTool({ name: "wait", arguments: { ms: 98 } }, { signal: abort.signal }).catch((error: unknown) => error);
    await vi.waitFor(async () => expect((await pendingOf(bob)).some((q) => q.message.includes('"ms": 98'))).toBe(true), {
      timeout: 10_000,
    });
    abort.abort();
    await Promise.all([...waiting, next]);
    await vi.waitFor(async () => expect(await pendingOf(bob)).toEqual([]), { timeout: 10_000 });
  });

  it("after UI_APPROVAL_WAIT_MS without an answer the call is refused with the page named, and the question withdrawn", async () => {
    // The wait's bound is an AbortSignal.timeout(UI_APPROVAL_WAIT_MS): here one the test ends at will.
    const bound = new AbortController();
    const timeout = AbortSignal.timeout.bind(AbortSignal);
    const spy = vi.spyOn(AbortSignal, "timeout").mockImplementation((ms) => (ms === UI_APPROVAL_WAIT_MS ? bound.signal : timeout(ms)));
    try {
      const client = await connectClient(bob);
      const call = client.callTool({ name: "wait", arguments: { ms: 10 } }).catch((error: unknown) => error);
      const question = await questionFor(bob, "wait");
      bound.abort();
      const refused = await call;
      expect(refused).toBeInstanceOf(ProtocolError);
      expect((refused as ProtocolError).message).toBe(
        `The call of "wait" waited 5 minutes for approval in Switchboard (${base}/w/${acmeSlug}/chat) and was not approved; call it again to ask again, or set the tool to Always allow in Switchboard.`,
      );
      expect((await pendingOf(bob)).map((pending) => pending.id)).not.toContain(question.id);
      expect((await answerAs(bob, question.id, "accept")).status).toBe(409);
    } finally {
      spy.mockRestore();
    }
  });

  it("an Accept from a member who left the workspace meanwhile runs nothing", async () => {
    const cleo = await person("cleo@example.com");
    await upsertMembership(getDb(), { workspaceId: acme, userId: cleo.id, role: "member" });
    cookies.set(cleo.id, await sessionCookie(cleo));
    const client = await connectClient(cleo);
    const call = client.callTool({ name: "wait", arguments: { ms: 11 } }).catch((error: unknown) => error);
    const question = await questionFor(cleo, "wait");
    // Only the membership row goes (the app's removal would also withdraw the question): the answer is checked itself.
    await deleteMembership(getDb(), { workspaceId: acme, userId: cleo.id });
    expect(await answerAs(cleo, question.id, "accept")).toEqual({ status: 204 });
    const refused = await call;
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as ProtocolError).message).toMatch(/was not run: your access to the workspace ended/);
  });

  it("a 2025-11-25 client that declared URL elicitation is sent the page; its Decline refuses the call", async () => {
    const opened: string[] = [];
    const client = await connectClient(bob, {
      onUrl: (url) => {
        opened.push(url);
        return "decline";
      },
    });
    const refused = await client.callTool({ name: "wait", arguments: { ms: 9 } }).catch((error: unknown) => error);
    expect(opened).toEqual([`${base}/w/${acmeSlug}/chat`]);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as ProtocolError).message).toMatch(/was not approved in Switchboard \(declined at the client\)/);
    expect((await pendingOf(bob)).filter((pending) => pending.message.includes('"ms": 9'))).toEqual([]);
  });
});
