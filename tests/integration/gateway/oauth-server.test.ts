/**
 * Switchboard as the OAuth authorization server of its gateway (docs/gateway.md#the-authorization-server),
 * end to end over HTTP: the mount and the gateway's route handlers behind `node:http` (helpers.ts),
 * the run's database (SQLite or Postgres), a real MCP server in the workspace. Metadata (RFC 9728,
 * RFC 8414), dynamic registration, a metadata-document client refused by the SSRF guard, authorize →
 * consent (the member's session cookie) → code → token with PKCE S256 (`plain` refused), `tools/list`
 * through the gateway with the token, the audience rule, refresh rotation and reuse detection,
 * revocation, a removed member, Deny, and tokens hashed at rest.
 */
import type { ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { all } from "@/db/exec";
import { deleteMembership, upsertMembership } from "@/db/queries/memberships";
import { startSession } from "@/lib/auth/sessions";
import { createServer } from "@/db/queries/servers";
import { setToolPolicy } from "@/db/queries/tool-policies";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { oauthServerRecords } from "@/db/schema";
import { nextAuthSecret } from "@/lib/auth/options";
import { parseServerConfig } from "@/lib/mcp/config";
import { consentView, myConnectedClients, revokeMyConnectedClient } from "@/lib/use-cases/oauth-server";
import { FIXTURES, freePort, startHttpServer } from "../mcp/helpers";
import { type Person, person, team } from "../workspaces/helpers";
import { acmeWithBob, closeGatewayTest, rawInitialize, type ServedGateway, serveGateway } from "./helpers";

// Route modules and the use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

process.env.SWITCHBOARD_ALLOWED_HOSTS = "127.0.0.1,localhost";

let dir = "";
let fixture: ChildProcess | undefined;
let gateway: ServedGateway | undefined;
let base = "";
let admin: Person;
let bob: Person;
let cleo: Person;
let acme = "";
let acmeSlug = "";
let betaSlug = "";
const clients: Client[] = [];
const REDIRECT = "http://127.0.0.1:9/callback";

/** The member's browser session cookie, as the app's sign-in sets it. */
async function sessionCookie(user: Person): Promise<string> {
  const sid = await startSession(getDb(), user.id);
  return `next-auth.session-token=${await encode({ token: { sub: user.id, sid }, secret: nextAuthSecret() })}`;
}

/** A browser's cookies: what the authorization server set, plus the app's session. */
class Jar {
  private readonly values = new Map<string, string>();
  constructor(private readonly session = "") {}
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) this.values.delete(name);
      else this.values.set(name, value);
    }
  }
  header(): string {
    return [this.session, ...[...this.values].map(([name, value]) => `${name}=${value}`)].filter(Boolean).join("; ");
  }
}

/** A GET as the browser: no redirect followed, cookies kept. */
async function browse(jar: Jar, url: string): Promise<Response> {
  const response = await fetch(new URL(url, base), { redirect: "manual", headers: { cookie: jar.header() } });
  jar.take(response);
  return response;
}

/** Allow or Deny as the consent page sends it (fetch, same origin): the status and where to go on. */
async function post(jar: Jar, url: string): Promise<{ status: number; location: string }> {
  const response = await fetch(new URL(url, base), { method: "POST", redirect: "manual", headers: { cookie: jar.header(), origin: base } });
  jar.take(response);
  return { status: response.status, location: ((await response.json()) as { location?: string }).location ?? "" };
}

/** Register a public client (RFC 7591): its client_id. */
async function register(name = "Test Client"): Promise<string> {
  const response = await fetch(`${base}/oauth/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

/** An authorization URL for `resource`. */
function authorizeUrl(clientId: string, resource: string, challenge: string, method = "S256"): string {
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "mcp",
    state: "st4te",
    code_challenge: challenge,
    code_challenge_method: method,
    resource,
  });
  return `/oauth/authorize?${query}`;
}

/** Authorize → the consent page's uid (the browser holds the interaction cookie). */
async function startAuthorization(jar: Jar, clientId: string, resource: string, challenge: string): Promise<string> {
  const response = await browse(jar, authorizeUrl(clientId, resource, challenge));
  expect(response.status).toBe(303);
  const location = response.headers.get("location") ?? "";
  const uid = /^\/oauth\/interaction\/([^/?]+)$/.exec(location)?.[1];
  expect(uid, location).toBeTruthy();
  return uid as string;
}

/** Allow on the consent page, then follow the provider back to the client: the code. */
async function allow(jar: Jar, uid: string): Promise<string> {
  const confirmed = await post(jar, `/oauth/interaction/${uid}/confirm`);
  expect(confirmed.status).toBe(200);
  let location = confirmed.location;
  for (let hop = 0; hop < 4 && !location.startsWith(REDIRECT); hop++)
    location = (await browse(jar, location)).headers.get("location") ?? "";
  const back = new URL(location);
  expect(back.searchParams.get("state")).toBe("st4te");
  const code = back.searchParams.get("code");
  expect(code, location).toBeTruthy();
  return code as string;
}

/** A token endpoint request. */
async function token(params: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** The whole flow for `who` and `resource`: access and refresh tokens. */
async function signIn(who: Person, resource: string, clientId?: string): Promise<{ access: string; refresh: string; clientId: string }> {
  const id = clientId ?? (await register());
  const jar = new Jar(await sessionCookie(who));
  const { verifier, challenge } = pkce();
  const code = await allow(jar, await startAuthorization(jar, id, resource, challenge));
  const { status, body } = await token({
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    client_id: id,
    code_verifier: verifier,
  });
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.token_type).toBe("Bearer");
  return { access: body.access_token, refresh: body.refresh_token, clientId: id };
}

/** A raw 2025-11-25 `initialize` at the endpoint with `secret`: the status, the challenge and a 401's code. */
async function statusAt(
  endpoint: string,
  secret: string | null,
): Promise<{ status: number; challenge: string | null; code: string | null }> {
  const { status, text, challenge } = await rawInitialize(endpoint, secret);
  const code = status === 401 ? ((JSON.parse(text) as { code?: string }).code ?? null) : null;
  return { status, challenge, code };
}

/** An SDK client on `endpoint` with the bearer `secret`: the tools it lists. */
async function toolsWith(endpoint: string, secret: string): Promise<string[]> {
  const client = new Client({ name: "oauth-test-client", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }),
  );
  clients.push(client);
  return (await client.listTools()).tools.map((tool) => tool.name);
}

const endpoint = (suffix: string) => `${base}/mcp/${suffix}`;

beforeAll(async () => {
  ({ dir, admin, bob, acme, acmeSlug } = await acmeWithBob());
  cleo = await person("cleo@example.com");
  const beta = await team(admin, "Beta");
  betaSlug = (await getWorkspaceById(getDb(), beta))?.slug as string;
  await upsertMembership(getDb(), { workspaceId: beta, userId: bob.id, role: "member" });
  const port = await freePort();
  fixture = await startHttpServer(
    [path.join(FIXTURES, "session-http-server.mjs")],
    { PORT: String(port) },
    `http://127.0.0.1:${port}/stats`,
  );
  const serverId = (
    await createServer(getDb(), {
      workspaceId: acme,
      name: "sessions",
      config: parseServerConfig({ url: `http://127.0.0.1:${port}/mcp` }, "sessions"),
      createdBy: admin.id,
    })
  ).id;
  await setToolPolicy(getDb(), bob.id, { serverId, toolName: "echo", policy: "allow" });
  gateway = await serveGateway();
  base = gateway.base;
});

afterAll(async () => await closeGatewayTest({ clients, gateway, fixtures: [fixture], dir }));

describe("the authorization server's documents", () => {
  it("points a refused gateway request at the endpoint's protected-resource metadata, and that at the issuer", async () => {
    const refused = await statusAt(endpoint(`${acmeSlug}/sessions`), null);
    expect(refused.status).toBe(401);
    expect(refused.code).toBe("token.invalid");
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(refused.challenge ?? "")?.[1];
    expect(metadataUrl).toBe(`${base}/.well-known/oauth-protected-resource/mcp/${acmeSlug}/sessions`);
    const metadata = await (await fetch(metadataUrl as string)).json();
    expect(metadata).toMatchObject({
      resource: endpoint(`${acmeSlug}/sessions`),
      authorization_servers: [base],
      scopes_supported: ["mcp"],
      bearer_methods_supported: ["header"],
    });
    // The workspace endpoint has its own; an unknown slug answers the same way (the endpoint's 401 does too).
    expect((await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp/${acmeSlug}`)).json()).resource).toBe(endpoint(acmeSlug));
    expect((await fetch(`${base}/.well-known/oauth-protected-resource/mcp/no-such-team`)).status).toBe(200);
    expect((await fetch(`${base}/.well-known/oauth-protected-resource/elsewhere`)).status).toBe(404);

    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const server = (await (await fetch(`${base}${path}`)).json()) as Record<string, unknown>;
      expect(server).toMatchObject({
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        registration_endpoint: `${base}/oauth/reg`,
        revocation_endpoint: `${base}/oauth/revoke`,
        jwks_uri: `${base}/oauth/jwks`,
        code_challenge_methods_supported: ["S256"],
        client_id_metadata_document_supported: true,
      });
    }
    const jwks = (await (await fetch(`${base}/oauth/jwks`)).json()) as { keys: { kty: string; d?: string }[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "OKP" });
    expect(jwks.keys[0].d).toBeUndefined();
  });
});

describe("signing in a client", () => {
  it("registers a client, asks the member's consent, and issues a token the gateway accepts for that endpoint only", async () => {
    const resource = endpoint(`${acmeSlug}/sessions`);
    const clientId = await register("Claude Code (test)");
    const jar = new Jar(await sessionCookie(bob));
    const { verifier, challenge } = pkce();
    const uid = await startAuthorization(jar, clientId, resource, challenge);

    const view = await consentView(bob, uid, base);
    expect(view).toMatchObject({
      clientName: "Claude Code (test)",
      redirectUri: REDIRECT,
      resource,
      workspaceName: "Acme",
      serverName: "sessions",
      scopes: ["mcp"],
      refusal: null,
    });

    // A POST from another origin is refused before anything is read.
    const forged = await fetch(`${base}/oauth/interaction/${uid}/confirm`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), origin: "https://evil.example" },
    });
    expect(forged.status).toBe(403);

    const code = await allow(jar, uid);
    // A wrong verifier, then the right one; the code is single-use.
    expect(
      (await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: pkce().verifier }))
        .status,
    ).toBe(400);
    const exchange = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier };
    const exchanged = await token(exchange);
    expect(exchanged.status).toBe(200);
    expect((await statusAt(resource, exchanged.body.access_token)).status).toBe(200);
    // A code presented twice: refused, and what it issued is revoked (the code may have leaked).
    expect((await token(exchange)).body.error).toBe("invalid_grant");
    expect((await statusAt(resource, exchanged.body.access_token)).status).toBe(401);

    const { access } = await signIn(bob, resource);
    expect(await toolsWith(resource, access)).toContain("echo");
    // Another endpoint of the same workspace, another workspace: another audience, 401.
    expect(await statusAt(endpoint(acmeSlug), access)).toMatchObject({ status: 401, code: "token.invalid" });
    expect(await statusAt(endpoint(`${betaSlug}/sessions`), access)).toMatchObject({ status: 401, code: "token.invalid" });
    expect(await statusAt(endpoint(betaSlug), access)).toMatchObject({ status: 401, code: "token.invalid" });
  });

  it("issues a workspace-endpoint token bound to that workspace (refused on another)", async () => {
    const { access } = await signIn(bob, endpoint(acmeSlug));
    expect(await toolsWith(endpoint(acmeSlug), access)).toContain("mcp_sessions_echo");
    expect((await statusAt(endpoint(betaSlug), access)).status).toBe(401);
  });

  it("gives an authorization that names no scope the endpoint's `mcp` scope", async () => {
    const resource = endpoint(acmeSlug);
    const clientId = await register();
    const jar = new Jar(await sessionCookie(bob));
    const { verifier, challenge } = pkce();
    // As the conformance suite's authorization-code-grant asks: no scope parameter at all.
    const response = await browse(jar, authorizeUrl(clientId, resource, challenge).replace(/&scope=mcp/, ""));
    const uid = /^\/oauth\/interaction\/([^/?]+)$/.exec(response.headers.get("location") ?? "")?.[1] as string;
    expect((await consentView(bob, uid, base))?.scopes).toEqual(["mcp"]);
    const code = await allow(jar, uid);
    const { status, body } = await token({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.scope).toBe("mcp");
    expect((await statusAt(resource, body.access_token)).status).toBe(200);
  });

  it("refuses PKCE plain and an authorization without PKCE", async () => {
    const clientId = await register();
    const jar = new Jar(await sessionCookie(bob));
    const resource = endpoint(acmeSlug);
    for (const url of [
      authorizeUrl(clientId, resource, "a".repeat(43), "plain"),
      authorizeUrl(clientId, resource, "a".repeat(43)).replace(/&code_challenge=[^&]*&code_challenge_method=S256/, ""),
    ]) {
      const response = await browse(jar, url);
      const location = response.headers.get("location") ?? "";
      expect(location.startsWith(REDIRECT), location).toBe(true);
      expect(new URL(location).searchParams.get("error")).toBe("invalid_request");
    }
  });

  it("refuses a resource that is not a gateway endpoint of this server", async () => {
    const clientId = await register();
    const jar = new Jar(await sessionCookie(bob));
    const response = await browse(jar, authorizeUrl(clientId, "https://elsewhere.example/mcp/acme", pkce().challenge));
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("invalid_target");
  });

  it("Deny sends the client back with access_denied, and a non-member is offered no Allow", async () => {
    const clientId = await register();
    const jar = new Jar(await sessionCookie(bob));
    const uid = await startAuthorization(jar, clientId, endpoint(acmeSlug), pkce().challenge);
    const denied = await post(jar, `/oauth/interaction/${uid}/abort`);
    let location = denied.location;
    for (let hop = 0; hop < 4 && !location.startsWith(REDIRECT); hop++)
      location = (await browse(jar, location)).headers.get("location") ?? "";
    expect(new URL(location).searchParams.get("error")).toBe("access_denied");

    const cleoJar = new Jar(await sessionCookie(cleo));
    const cleoUid = await startAuthorization(cleoJar, clientId, endpoint(acmeSlug), pkce().challenge);
    expect((await consentView(cleo, cleoUid, base))?.refusal).toMatch(/not a member/);
    // Her Allow is refused, and nobody signed in gets nowhere either.
    expect(await post(cleoJar, `/oauth/interaction/${cleoUid}/confirm`)).toEqual({ status: 403, location: "" });
    expect((await post(new Jar(), `/oauth/interaction/${cleoUid}/confirm`)).status).toBe(401);
  });

  it("refuses a metadata-document client whose URL the SSRF guard does not allow", async () => {
    const jar = new Jar(await sessionCookie(bob));
    // CIMD needs an https client_id; a loopback one is refused by the guarded fetch (no https
    // fixture here: the guard refusing it is what this checks).
    const response = await browse(jar, authorizeUrl("https://169.254.169.254/client.json", endpoint(acmeSlug), pkce().challenge));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/invalid_client/);
  });
});

describe("tokens over time", () => {
  it("rotates refresh tokens, and a reused one revokes the grant", async () => {
    const resource = endpoint(`${acmeSlug}/sessions`);
    const first = await signIn(bob, resource);
    const rotated = await token({ grant_type: "refresh_token", refresh_token: first.refresh, client_id: first.clientId });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.refresh);
    expect((await statusAt(resource, rotated.body.access_token)).status).toBe(200);

    const reused = await token({ grant_type: "refresh_token", refresh_token: first.refresh, client_id: first.clientId });
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // The whole grant went: the rotated refresh token and every access token of it.
    expect(
      (await token({ grant_type: "refresh_token", refresh_token: rotated.body.refresh_token, client_id: first.clientId })).status,
    ).toBe(400);
    expect((await statusAt(resource, rotated.body.access_token)).status).toBe(401);
    expect((await statusAt(resource, first.access)).status).toBe(401);
  });

  it("revokes a refresh token (and its grant) at the revocation endpoint", async () => {
    const resource = endpoint(acmeSlug);
    const { access, refresh, clientId } = await signIn(bob, resource);
    expect((await statusAt(resource, access)).status).toBe(200);
    const revoked = await fetch(`${base}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: refresh, client_id: clientId }),
    });
    expect(revoked.status).toBe(200);
    expect(await statusAt(resource, access)).toMatchObject({ status: 401, code: "token.invalid" });
  });

  it("refuses a removed member's token on the next request", async () => {
    const resource = endpoint(acmeSlug);
    const { access } = await signIn(bob, resource);
    expect((await statusAt(resource, access)).status).toBe(200);
    await deleteMembership(getDb(), { workspaceId: acme, userId: bob.id });
    try {
      expect(await statusAt(resource, access)).toMatchObject({ status: 401, code: "token.access_lost" });
    } finally {
      await upsertMembership(getDb(), { workspaceId: acme, userId: bob.id, role: "member" });
    }
  });

  it("lists the member's connected clients with their last use, and Revoke ends one's tokens at once", async () => {
    const resource = endpoint(`${acmeSlug}/sessions`);
    const clientId = await register("Listed Client");
    const { access, refresh } = await signIn(bob, resource, clientId);
    expect((await statusAt(resource, access)).status).toBe(200);
    const listed = (await myConnectedClients(bob)).find((client) => client.clientId === clientId);
    expect(listed).toMatchObject({ clientName: "Listed Client", resource, workspaceName: "Acme", serverName: "sessions" });
    expect(listed?.lastUsedAt).toBeInstanceOf(Date);
    expect(JSON.stringify(listed)).not.toContain(access);
    // Someone else's id is not found, and changes nothing.
    await expect(revokeMyConnectedClient(cleo, listed?.id as string)).rejects.toMatchObject({ code: "token.client_not_found" });
    expect((await statusAt(resource, access)).status).toBe(200);
    await revokeMyConnectedClient(bob, listed?.id as string);
    expect((await statusAt(resource, access)).status).toBe(401);
    expect((await token({ grant_type: "refresh_token", refresh_token: refresh, client_id: clientId })).status).toBe(400);
    expect((await myConnectedClients(bob)).some((client) => client.clientId === clientId)).toBe(false);
  });

  it("keeps tokens and codes hashed and payloads sealed at rest", async () => {
    const { access, refresh } = await signIn(bob, endpoint(acmeSlug));
    const rows = await all(getDb().select().from(oauthServerRecords));
    const stored = JSON.stringify(rows);
    expect(rows.length).toBeGreaterThan(0);
    expect(stored).not.toContain(access);
    expect(stored).not.toContain(refresh);
    expect(stored).not.toContain("Test Client");
  });
});
