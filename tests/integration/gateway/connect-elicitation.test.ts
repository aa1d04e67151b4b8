/**
 * The Connect URL elicitation of the gateway (docs/gateway.md#the-members-own-authorization), on the
 * run's database with the real route handlers, the app's pool and the OAuth fixture: a member who
 * has not connected their account gets, at 2025-11-25, the `-32042` error carrying the absolute URL
 * of the server on Switchboard's Servers page (where Connect is), and at 2026-07-28 an
 * `input_required` URL elicitation that the SDK client fulfils: the test connects the member's
 * account there, as the Connect button does, the client retries and the call runs as that member.
 * A shared server without its shared account, and a server that is simply down, keep their own
 * errors (the member cannot fix either on the Connect page).
 */
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { upsertMembership } from "@/db/queries/memberships";
import { createServer, getServerById } from "@/db/queries/servers";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { createToken } from "@/lib/auth/personal-tokens";
import { parseServerConfig } from "@/lib/mcp/config";
import { oauthCallbackResponse } from "@/lib/oauth/web/callback";
import { beginConnect } from "@/lib/servers/connect";
import { definitionFor } from "@/lib/servers/credential-mode";
import { afterAuthorized } from "@/lib/use-cases/oauth-connect";
import { useTempDataDir } from "../../helpers/temp-data-dir";
import { freePort } from "../mcp/helpers";
import { devLogin, type OAuthFixture, startFixture, testDeps } from "../oauth/helpers";
import { actorIn, type Person, person, team } from "../workspaces/helpers";
import { type ServedGateway, serveGateway, closeGatewayTest, textOf } from "./helpers";

// Route modules and the use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";
process.env.SWITCHBOARD_ALLOW_HTTP_LOOPBACK_OAUTH = "1";

let dir = "";
let as: OAuthFixture | undefined;
let gateway: ServedGateway | undefined;
let base = "";
let admin: Person;
let acme = "";
let acmeSlug = "";
let oauthId = "";
const clients: Client[] = [];

/** A member of Acme with a gateway token, who may call `whoami` without being asked. */
async function member(email: string): Promise<{ user: Person; secret: string }> {
  const user = await person(email);
  await upsertMembership(getDb(), { workspaceId: acme, userId: user.id, role: "member" });
  await setToolPolicy(getDb(), user.id, { serverId: oauthId, toolName: "whoami", policy: "allow" });
  const { secret } = await createToken(getDb(), user, { name: "gateway test", workspaceId: acme, scopes: ["mcp"], expiresInDays: 7 });
  return { user, secret };
}

/** Connect `user`'s own account at the authorization server as `login`, as the Connect button and the callback do. */
async function connectAccount(user: Person, login: string, serverId = oauthId): Promise<void> {
  const server = await definitionFor(getDb(), user.id, (await getServerById(getDb(), { id: serverId, workspaceId: acme }))!);
  const begun = await beginConnect(getDb(), testDeps(), await actorIn(user, acme), server);
  if (begun.status !== "redirect") throw new Error("expected a redirect to the authorization server");
  const back = await devLogin(begun.url, login);
  const answer = await oauthCallbackResponse(testDeps(), {
    url: back,
    userId: user.id,
    findServer: () => server,
    onAuthorized: (authorized, grant) => afterAuthorized(user.id, authorized, grant),
  });
  expect(answer.status).toBe(303);
}

/**
 * An SDK v2 client at `/mcp/<slug>/<server>` (or `endpoint`); `modern` pins 2026-07-28; `onUrl`
 * declares URL elicitation and answers it.
 */
async function connectClient(
  secret: string,
  server: string,
  options: { modern?: boolean; onUrl?: (url: string) => Promise<"accept" | "decline"> } = {},
  endpoint = `${base}/mcp/${acmeSlug}/${server}`,
): Promise<Client> {
  const client = new Client(
    { name: "connect-test-client", version: "1.0.0" },
    {
      ...(options.modern ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {}),
      ...(options.onUrl ? { capabilities: { elicitation: { url: {} } } } : {}),
    },
  );
  const onUrl = options.onUrl;
  if (onUrl) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { mode?: string; url?: string };
      if (params.mode !== "url" || !params.url) return { action: "decline" as const };
      return { action: await onUrl(params.url) };
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const failure = (promise: Promise<unknown>) => promise.catch((error: unknown) => error);

beforeAll(async () => {
  dir = useTempDataDir();
  admin = await person("admin@example.com");
  acme = await team(admin, "Acme");
  acmeSlug = (await getWorkspaceById(getDb(), acme))!.slug!;
  as = await startFixture();
  oauthId = (
    await createServer(getDb(), {
      workspaceId: acme,
      name: "oauth",
      config: parseServerConfig({ url: as.mcpUrl, auth: "oauth" }, "oauth"),
      createdBy: admin.id,
    })
  ).id;
  gateway = await serveGateway();
  base = gateway.base;
});

afterAll(async () => await closeGatewayTest({ clients, gateway, others: [as], dir }));

describe("the Connect URL elicitation", () => {
  it("at 2025-11-25: -32042 with the server's absolute URL on the Servers page, until the member connects", async () => {
    const { user, secret } = await member("carl@example.com");
    const client = await connectClient(secret, "oauth");
    const connectUrl = `${base}/w/${acmeSlug}/servers#server-${oauthId}`;
    for (const request of [() => client.listTools(), () => client.callTool({ name: "whoami", arguments: {} })]) {
      const refused = await failure(request());
      expect(refused).toBeInstanceOf(ProtocolError);
      expect((refused as ProtocolError).code).toBe(-32042);
      expect((refused as ProtocolError).message).toContain(connectUrl);
      const [elicitation] = ((refused as ProtocolError).data as { elicitations: Record<string, string>[] }).elicitations;
      expect(elicitation).toMatchObject({ mode: "url", url: connectUrl, elicitationId: expect.any(String) });
      expect(elicitation.message).toMatch(/"oauth" needs your authorization/);
    }
    await connectAccount(user, "carl-at-as");
    expect(textOf(await client.callTool({ name: "whoami", arguments: {} }))).toBe("carl-at-as");
  });

  it("at 2026-07-28: an input_required URL elicitation; the client opens it, the member connects, the retried call runs as them", async () => {
    const { user, secret } = await member("dora@example.com");
    const opened: string[] = [];
    const client = await connectClient(secret, "oauth", {
      modern: true,
      onUrl: async (url) => {
        opened.push(url);
        await connectAccount(user, "dora-at-as");
        return "accept";
      },
    });
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(textOf(await client.callTool({ name: "whoami", arguments: {} }))).toBe("dora-at-as");
    expect(opened).toEqual([`${base}/w/${acmeSlug}/servers#server-${oauthId}`]);
  });

  it("at 2026-07-28, a client without URL elicitation (or a list request) gets a plain error naming the URL", async () => {
    const { secret } = await member("emil@example.com");
    const client = await connectClient(secret, "oauth", { modern: true });
    for (const request of [() => client.callTool({ name: "whoami", arguments: {} }), () => client.listTools()]) {
      const refused = await failure(request());
      expect(refused).toBeInstanceOf(ProtocolError);
      expect((refused as ProtocolError).code).toBe(-32600);
      expect((refused as ProtocolError).message).toContain(`${base}/w/${acmeSlug}/servers#server-${oauthId}`);
      expect((refused as ProtocolError).data).toMatchObject({ code: "engine.needs_authorization" });
    }
  });

  it("at the workspace endpoint: a call of a server the member has not connected names it by its tools' prefix and elicits Connect", async () => {
    const { user, secret } = await member("gus@example.com");
    const client = await connectClient(secret, "", {}, `${base}/mcp/${acmeSlug}`);
    // The server's tools are left out until the member connects, as from the chat.
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("mcp_oauth_whoami");
    const refused = await failure(client.callTool({ name: "mcp_oauth_whoami", arguments: {} }));
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as ProtocolError).code).toBe(-32042);
    expect((refused as ProtocolError).message).toContain(`${base}/w/${acmeSlug}/servers#server-${oauthId}`);
    // A name no server's prefix claims stays an unknown tool.
    expect(((await failure(client.callTool({ name: "mcp_nope_x", arguments: {} }))) as ProtocolError).code).toBe(-32602);
    await connectAccount(user, "gus-at-as");
    expect(textOf(await client.callTool({ name: "mcp_oauth_whoami", arguments: {} }))).toBe("gus-at-as");
  });

  it("is not offered for a shared server without its account, nor for a server that is simply down", async () => {
    const { secret } = await member("fay@example.com");
    await createServer(getDb(), {
      workspaceId: acme,
      name: "shared",
      config: parseServerConfig({ url: as!.mcpUrl, auth: "oauth", credentials: "shared" }, "shared"),
      createdBy: admin.id,
    });
    await createServer(getDb(), {
      workspaceId: acme,
      name: "down",
      config: parseServerConfig({ url: `http://127.0.0.1:${await freePort()}/mcp` }, "down"),
      createdBy: admin.id,
    });
    for (const name of ["shared", "down"]) {
      const client = await connectClient(secret, name);
      const refused = await failure(client.listTools());
      expect(refused).toBeInstanceOf(ProtocolError);
      expect((refused as ProtocolError).code).not.toBe(-32042);
      expect((refused as ProtocolError).message).not.toContain("/servers#server-");
    }
  });
});
