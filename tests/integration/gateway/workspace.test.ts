/**
 * The workspace endpoint `/mcp/<slug>` (docs/gateway.md#the-workspace-endpoint) on the run's database,
 * its real route handlers over `node:http`, the app's own pool, two real MCP servers (a 2025-era
 * session server and a 2026-07-28 server, both with a tool named `echo`) and a disabled third, and
 * the SDK v2 client with a personal access token: tools under the chat's registered names at both
 * protocol versions, each call routed to its own server and audited with the raw name; prompts named
 * the same way; resources under their own URIs, each read routed to the server that lists it; held,
 * `never` and `ask` tools as on the per-server endpoint; 404 for another workspace and for a session
 * of another endpoint, 401 without a token.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { exec } from "@/db/exec";
import { bumpGeneration } from "@/db/generation";
import { flushAudit, listRecentAudit } from "@/db/queries/audit";
import { upsertMembership } from "@/db/queries/memberships";
import { createServer } from "@/db/queries/servers";
import { updateServerTrust } from "@/db/queries/server-trust";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { toolPins } from "@/db/schema";
import { createToken } from "@/lib/auth/personal-tokens";
import { parseServerConfig } from "@/lib/mcp/config";
import { FIXTURES, freePort, ROOT, startHttpServer } from "../mcp/helpers";
import { type Person, person, team } from "../workspaces/helpers";
import { rawInitialize, type ServedGateway, serveGateway, closeGatewayTest, acmeWithBob, textOf } from "./helpers";

vi.mock("server-only", () => ({}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

let dir = "";
const fixtures: ChildProcess[] = [];
let gateway: ServedGateway | undefined;
let admin: Person;
let bob: Person;
let acme = "";
let acmeSlug = "";
let sessionsId = "";
let modernId = "";
let beta = "";
let betaSlug = "";
let gamma = "";
let gammaSlug = "";
const clients: Client[] = [];

async function tokenFor(user: Person, workspaceId: string): Promise<string> {
  return (await createToken(getDb(), user, { name: "workspace test", workspaceId, scopes: ["mcp"], expiresInDays: 7 })).secret;
}

/** An SDK v2 client on `/mcp/<slug>` (`modern` pins 2026-07-28; `approve` answers form elicitations). */
async function connect(secret: string, slug: string, modern = false, approve?: (message: string) => "accept" | "decline"): Promise<Client> {
  const client = new Client(
    { name: "workspace-test-client", version: "1.0.0" },
    {
      ...(modern ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {}),
      ...(approve ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (approve) client.setRequestHandler("elicitation/create", async (request) => ({ action: approve(request.params.message) }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gateway!.base}/mcp/${encodeURIComponent(slug)}`), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    }),
  );
  clients.push(client);
  return client;
}

/** A raw initialize at `path`: the status, and the session id it opened. */
const initializeAt = (secret: string | null, path: string) => rawInitialize(`${gateway!.base}${path}`, secret);

beforeAll(async () => {
  ({ dir, admin, bob, acme, acmeSlug } = await acmeWithBob());

  const [sessionsPort, modernPort, conformancePort, recordsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  fixtures.push(
    await startHttpServer(
      [path.join(FIXTURES, "session-http-server.mjs")],
      { PORT: String(sessionsPort) },
      `http://127.0.0.1:${sessionsPort}/stats`,
    ),
    await startHttpServer(
      [path.join(FIXTURES, "modern-server.mjs"), "http"],
      { PORT: String(modernPort) },
      `http://127.0.0.1:${modernPort}/mcp`,
    ),
    await startHttpServer(
      [path.join(ROOT, "tests/fixtures/conformance-server/server.mjs")],
      { PORT: String(conformancePort) },
      `http://127.0.0.1:${conformancePort}/health`,
    ),
    await startHttpServer(
      [path.join(FIXTURES, "records-http-server.mjs")],
      { PORT: String(recordsPort) },
      `http://127.0.0.1:${recordsPort}/mcp`,
    ),
  );
  const add = async (name: string, config: Record<string, unknown>, workspaceId = acme) =>
    (await createServer(getDb(), { workspaceId, name, config: parseServerConfig(config, name), createdBy: admin.id })).id;
  sessionsId = await add("sessions", { url: `http://127.0.0.1:${sessionsPort}/mcp` });
  modernId = await add("modern", { url: `http://127.0.0.1:${modernPort}/mcp` });
  // The same server again, switched off: it contributes nothing.
  await add("off", { url: `http://127.0.0.1:${modernPort}/mcp`, enabled: false });
  for (const user of [admin, bob]) {
    for (const [serverId, toolName] of [
      [sessionsId, "echo"],
      [modernId, "echo"],
    ]) {
      await setToolPolicy(getDb(), user.id, { serverId, toolName, policy: "allow" });
    }
  }
  // A second workspace whose servers have resource templates and completions: the conformance fixture, and modern.
  beta = await team(admin, "Beta");
  betaSlug = (await getWorkspaceById(getDb(), beta))!.slug!;
  await add("conf", { url: `http://127.0.0.1:${conformancePort}/mcp` }, beta);
  await add("modern", { url: `http://127.0.0.1:${modernPort}/mcp` }, beta);
  // A third, with the records fixture alone: its serverInfo carries a data: PNG icon.
  gamma = await team(admin, "Gamma");
  gammaSlug = (await getWorkspaceById(getDb(), gamma))!.slug!;
  await add("records", { url: `http://127.0.0.1:${recordsPort}/mcp` }, gamma);
  gateway = await serveGateway();
});

afterAll(async () => await closeGatewayTest({ clients, gateway, fixtures, dir }));

describe("the workspace through /mcp/<slug>", () => {
  it("lists every enabled server's tools under the chat's names and routes each call to its own server, at 2025-11-25", async () => {
    const client = await connect(await tokenFor(bob, acme), acmeSlug);
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(client.getServerVersion()?.name).toBe(`switchboard-${acmeSlug}`);
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual([
      "mcp_modern_confirm",
      "mcp_modern_echo",
      "mcp_modern_summarize",
      "mcp_sessions_ask_later",
      "mcp_sessions_echo",
      "mcp_sessions_wait",
    ]);
    expect(textOf(await client.callTool({ name: "mcp_modern_echo", arguments: { message: "hi" } }))).toBe("Echo: hi");
    // On a session of its own: on this one, the first result makes the second call ask (the trifecta rule, below).
    const second = await connect(await tokenFor(bob, acme), acmeSlug);
    expect(textOf(await second.callTool({ name: "mcp_sessions_echo", arguments: { message: "hi" } }))).toBe("echo: hi");

    await flushAudit(getDb());
    const audited = (await listRecentAudit(getDb(), 50)).filter(
      (entry) => entry.action === "tool.called_by_hand" && entry.actorId === bob.id,
    );
    expect(audited.map((entry) => entry.detail)).toEqual(
      expect.arrayContaining([expect.objectContaining({ tool: "echo", via: "gateway", client: "workspace-test-client" })]),
    );
    // Each call is audited against the server it ran on, under the server's own (raw) tool name.
    expect(new Set(audited.map((entry) => entry.target))).toEqual(new Set([`server:${sessionsId}`, `server:${modernId}`]));
  });

  it("applies the lethal-trifecta rule per session: after one server's result an Always-allow tool of another asks; a new session starts clean; the server's switch turns it off", async () => {
    const questions: string[] = [];
    const ask = (message: string) => {
      questions.push(message);
      return "accept" as const;
    };
    const client = await connect(await tokenFor(bob, acme), acmeSlug, false, ask);
    expect(textOf(await client.callTool({ name: "mcp_modern_echo", arguments: { message: "one" } }))).toBe("Echo: one");
    expect(questions).toEqual([]);
    // `echo` of sessions is Always allow, but the client's context now holds modern's result.
    expect(textOf(await client.callTool({ name: "mcp_sessions_echo", arguments: { message: "two" } }))).toBe("echo: two");
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('follows content from server "modern"');
    // Another session has handed nothing yet: the same call runs without a question.
    const fresh = await connect(await tokenFor(bob, acme), acmeSlug, false, ask);
    expect(textOf(await fresh.callTool({ name: "mcp_sessions_echo", arguments: { message: "three" } }))).toBe("echo: three");
    expect(questions).toHaveLength(1);
    // With the check off for the server called, the first session's call runs without one too.
    await updateServerTrust(getDb(), sessionsId, { trifectaCheck: false }, admin.id);
    try {
      expect(textOf(await client.callTool({ name: "mcp_sessions_echo", arguments: { message: "four" } }))).toBe("echo: four");
      expect(questions).toHaveLength(1);
    } finally {
      await updateServerTrust(getDb(), sessionsId, { trifectaCheck: true }, admin.id);
    }
  });

  it("passes a server's icons at its own endpoint only as checked raster data: the records fixture's data: PNG, none of modern's https icon", async () => {
    const serverInfoAt = async (secret: string, endpoint: string) => {
      const client = new Client({ name: "icons-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${gateway!.base}${endpoint}`), {
          requestInit: { headers: { authorization: `Bearer ${secret}` } },
        }),
      );
      clients.push(client);
      return client.getServerVersion();
    };
    const records = await serverInfoAt(await tokenFor(admin, gamma), `/mcp/${gammaSlug}/records`);
    expect(records?.name).toBe("records");
    expect(records?.icons).toEqual([{ src: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/), mimeType: "image/png" }]);
    const modern = await serverInfoAt(await tokenFor(bob, acme), `/mcp/${acmeSlug}/modern`);
    expect(modern?.name).toBe("modern");
    expect(modern?.icons).toBeUndefined();
  });

  it("serves a 2026-07-28 client statelessly under the same names", async () => {
    const client = await connect(await tokenFor(bob, acme), acmeSlug, true);
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("mcp_sessions_echo");
    expect(textOf(await client.callTool({ name: "mcp_sessions_echo", arguments: { message: "modern" } }))).toBe("echo: modern");
  });

  it("names prompts like tools and gets each from its own server", async () => {
    const client = await connect(await tokenFor(bob, acme), acmeSlug);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["mcp_modern_greet"]);
    const prompt = await client.getPrompt({ name: "mcp_modern_greet", arguments: { name: "Ann" } });
    expect(JSON.stringify(prompt.messages)).toContain("Hello, Ann");
    const unknown = await client.getPrompt({ name: "greet", arguments: { name: "Ann" } }).catch((error: unknown) => error);
    expect((unknown as ProtocolError).code).toBe(-32602);
  });

  it("keeps resource URIs and reads each from the server that lists it", async () => {
    const client = await connect(await tokenFor(bob, acme), acmeSlug);
    const uris = (await client.listResources()).resources.map((resource) => resource.uri).sort();
    expect(uris).toEqual(["fixture://clock", "memo://readme"]);
    const readme = await client.readResource({ uri: "memo://readme" });
    expect(readme.contents[0]).toMatchObject({ uri: "memo://readme", text: "modern readme" });
    const clock = await client.readResource({ uri: "fixture://clock" });
    expect(Date.parse((clock.contents[0] as { text: string }).text)).not.toBeNaN();
    const missing = await client.readResource({ uri: "memo://nothing" }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ProtocolError);
    expect((missing as ProtocolError).code).toBe(-32602);
  });

  it("applies each member's rules: a held and a never tool are neither listed nor callable, an ask tool asks under its registered name", async () => {
    const carol = await person("carol@example.com");
    await upsertMembership(getDb(), { workspaceId: acme, userId: carol.id, role: "member" });
    await setToolPolicy(getDb(), carol.id, { serverId: modernId, toolName: "echo", policy: "deny" });
    await setToolPolicy(getDb(), carol.id, { serverId: sessionsId, toolName: "ask_later", policy: "allow" });
    await exec(
      getDb()
        .update(toolPins)
        .set({ state: "changed" })
        .where(and(eq(toolPins.serverId, sessionsId), eq(toolPins.toolName, "ask_later"))),
    );
    bumpGeneration();
    const questions: string[] = [];
    const client = await connect(await tokenFor(carol, acme), acmeSlug, false, (message) => {
      questions.push(message);
      return "accept";
    });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain("mcp_modern_echo");
    expect(names).not.toContain("mcp_sessions_ask_later");
    expect(names).toContain("mcp_sessions_echo");
    for (const name of ["mcp_modern_echo", "mcp_sessions_ask_later", "echo", "mcp_off_echo"]) {
      const refused = await client.callTool({ name, arguments: { message: "x", ms: 1 } }).catch((error: unknown) => error);
      expect(refused, name).toBeInstanceOf(ProtocolError);
      expect((refused as ProtocolError).code, name).toBe(-32602);
    }
    const ran = await client.callTool({ name: "mcp_sessions_wait", arguments: { ms: 1 } });
    expect(ran.isError).toBeFalsy();
    expect(questions).toEqual([expect.stringMatching(/^Allow "mcp_sessions_wait" with these arguments\?/)]);
  });

  it("answers 404 for another workspace's slug and for a session opened at another endpoint, 401 without a token", async () => {
    const bobsPersonal = await tokenFor(bob, bob.personalWorkspaceId);
    expect((await initializeAt(bobsPersonal, `/mcp/${acmeSlug}`)).status).toBe(404);
    const none = await initializeAt(null, `/mcp/${acmeSlug}`);
    expect(none.status).toBe(401);
    expect(none.challenge).toMatch(/^Bearer /);

    const token = await tokenFor(bob, acme);
    const opened = await initializeAt(token, `/mcp/${acmeSlug}`);
    expect(opened.sessionId).toBeTruthy();
    const elsewhere = await fetch(`${gateway!.base}/mcp/${acmeSlug}/sessions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        "mcp-session-id": opened.sessionId!,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(elsewhere.status).toBe(404);
  });
});

describe("resource templates and completions through /mcp/<slug>", () => {
  it("lists every server's templates and reads a URI a template describes from the template's server", async () => {
    const client = await connect(await tokenFor(admin, beta), betaSlug);
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
    expect(templates).toEqual(["test://template/{id}/data"]);
    const read = await client.readResource({ uri: "test://template/42/data" });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: "42", templateTest: true });
    // And a listed URI of the other server still reaches that one.
    expect((await client.readResource({ uri: "memo://readme" })).contents[0]).toMatchObject({ text: "modern readme" });
  });

  it("completes a prompt argument at the prompt's server under the prompt's registered name, and a template's at its server", async () => {
    const client = await connect(await tokenFor(admin, beta), betaSlug, true);
    const names = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(names).toEqual(expect.arrayContaining(["mcp_conf_test_prompt_with_arguments", "mcp_modern_greet"]));
    const argument = { name: "arg1", value: "a" };
    expect(await client.complete({ ref: { type: "ref/prompt", name: "mcp_conf_test_prompt_with_arguments" }, argument })).toMatchObject({
      completion: { values: [] },
    });
    expect(
      await client.complete({ ref: { type: "ref/resource", uri: "test://template/{id}/data" }, argument: { name: "id", value: "4" } }),
    ).toMatchObject({
      completion: { values: [] },
    });
    const unknown = await client
      .complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument })
      .catch((error: unknown) => error);
    expect((unknown as ProtocolError).code).toBe(-32602);
  });
});
