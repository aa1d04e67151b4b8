/**
 * The engine's pool with the web provider over a real SQLite file and a real AS: per-user tokens on
 * one shared server config, a token for X never sent to Y, encryption at rest, silent single-flight
 * refresh, re-authorization only when refresh fails, and Disconnect (revoke + forget).
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { all } from "@/db/exec";
import { serverCredentials } from "@/db/schema";
import { McpPool, type ServerDefinition } from "@/lib/mcp";
import { createGuardedFetch, parseAllowedHosts } from "@/lib/net";
import { oauthCallbackResponse } from "@/lib/oauth/web/callback";
import { providerFor, type OAuthDeps } from "@/lib/oauth/web/deps";
import { beginAuthorization, disconnect } from "@/lib/oauth/web/flow";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { addOAuthServer, devLogin, signUp, startFixture, testDeps, type OAuthFixture, type TestUser } from "./helpers";

let dir: string;
let alice: TestUser;
let bob: TestUser;
let deps: OAuthDeps;
const fixtures: OAuthFixture[] = [];
let pool: McpPool;

beforeAll(async () => {
  dir = useTempDataDir();
  alice = await signUp("alice@example.com");
  bob = await signUp("bob@example.com");
  deps = testDeps();
});
afterEach(async () => {
  await pool?.closeAll();
});
afterAll(async () => {
  for (const fixture of fixtures) await fixture.close();
  removeTempDataDir(dir);
});

function newPool(): McpPool {
  pool = new McpPool({
    fetch: createGuardedFetch({ allowedHosts: parseAllowedHosts("127.0.0.1,localhost") }),
    authProvider: (userId, server) => providerFor(deps, userId, server),
  });
  return pool;
}

async function fixture(accessTtl?: number, stepUpScope?: string): Promise<OAuthFixture> {
  const started = await startFixture({ accessTtl, stepUpScope });
  fixtures.push(started);
  return started;
}

/** The whole browser flow for `user`, signing in at the AS as `login`; returns the authorization URL. */
async function connect(user: TestUser, server: ServerDefinition, login: string): Promise<URL> {
  const begun = await beginAuthorization(deps, user.id, server);
  if (begun.status !== "redirect") throw new Error("expected a redirect");
  const back = await devLogin(begun.url, login);
  const response = await oauthCallbackResponse(deps, { url: back, userId: user.id, findServer: () => server });
  expect(response.status).toBe(303);
  await pool.session(user.id, server).reconnect();
  return new URL(begun.url);
}

async function whoami(user: TestUser, server: ServerDefinition): Promise<string> {
  const outcome = await pool.session(user.id, server).callTool("whoami");
  if (outcome.isError) throw new Error(`whoami failed: ${JSON.stringify(outcome.forModel)}`);
  return (outcome.content.content[0] as { text: string }).text;
}

describe("per-user OAuth in the pool", () => {
  it("keeps each user's tokens their own on one shared server config", async () => {
    const x = await fixture();
    const server = await addOAuthServer(alice, "shared", x.mcpUrl);
    newPool();
    expect((await pool.discover(alice.id, [server]))[0].state).toBe("needs_authorization");
    await connect(alice, server, "alice-at-as");
    expect(await whoami(alice, server)).toBe("alice-at-as");

    // Bob uses the same server definition: he is asked to authorize, never handed alice's token.
    const seenBefore = x.stats.tokensSeen.length;
    expect((await pool.discover(bob.id, [server]))[0].state).toBe("needs_authorization");
    expect(x.stats.tokensSeen.slice(seenBefore)).toEqual([]);
    await connect(bob, server, "bob-at-as");
    expect(await whoami(bob, server)).toBe("bob-at-as");
    expect(await whoami(alice, server)).toBe("alice-at-as");
  });

  it("never sends a token for X to Y, also when X's URL is changed to Y's", async () => {
    const x = await fixture();
    const y = await fixture();
    const serverX = await addOAuthServer(alice, "x", x.mcpUrl);
    const serverY = await addOAuthServer(alice, "y", y.mcpUrl);
    newPool();
    await connect(alice, serverX, "alice");
    expect(await whoami(alice, serverX)).toBe("alice");
    expect((await pool.discover(alice.id, [serverY]))[0].state).toBe("needs_authorization");
    const moved = { ...serverX, config: { ...serverX.config, url: y.mcpUrl } };
    expect((await pool.session(alice.id, moved).reconnect()).state).toBe("needs_authorization");
    expect(y.stats.tokensSeen).toEqual([]);
    expect(x.stats.tokensSeen.length).toBeGreaterThan(0);
  });

  it("stores tokens encrypted", async () => {
    const x = await fixture();
    const server = await addOAuthServer(alice, "at-rest", x.mcpUrl);
    newPool();
    await connect(alice, server, "alice");
    await whoami(alice, server);
    const token = x.stats.tokensSeen.at(-1)!;
    // The stored rows as the database holds them (either dialect).
    const rows = await all(
      getDb()
        .select({ kind: serverCredentials.kind, valueEnc: serverCredentials.valueEnc })
        .from(serverCredentials)
        .where(eq(serverCredentials.serverId, server.id)),
    );
    expect(rows.map((r) => r.kind).sort()).toEqual(["client", "discovery", "tokens"]);
    for (const row of rows) {
      expect(row.valueEnc).toMatch(/^v1\./);
      expect(row.valueEnc).not.toContain(token);
      expect(row.valueEnc).not.toContain("refresh");
    }
  });

  it("refreshes an expired token silently, once for many concurrent calls; asks again only when refresh fails", async () => {
    // 10 s: the shortest lifetime the client accepts as given (EXPIRES_IN_RANGE); a token counts as
    // expired a quarter of its life early, so it is due for refresh after 7.5 s.
    const x = await fixture(10);
    const server = await addOAuthServer(alice, "short-lived", x.mcpUrl);
    newPool();
    await connect(alice, server, "alice");
    expect(await whoami(alice, server)).toBe("alice");
    expect(x.stats.refreshGrants).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const answers = await Promise.all(Array.from({ length: 5 }, () => whoami(alice, server)));
    expect(answers).toEqual(Array(5).fill("alice"));
    expect(x.stats.refreshGrants).toBe(1);

    // The AS forgets the refresh token: the next expiry ends in needs_authorization, not an error loop.
    const stored = JSON.parse((await deps.store.get({ userId: alice.id, serverId: server.id }, "tokens"))!);
    await (await x.provider.RefreshToken.find(stored.tokens.refresh_token))?.destroy();
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const outcome = await pool.session(alice.id, server).callTool("whoami");
    expect(outcome.isError).toBe(true);
    // The failed call itself moves the server to needs_authorization: no reconnect is needed to notice.
    expect(pool.session(alice.id, server).status().state).toBe("needs_authorization");
    const status = await pool.session(alice.id, server).reconnect();
    expect(status.state).toBe("needs_authorization");
    expect(await deps.store.get({ userId: alice.id, serverId: server.id }, "tokens")).toBeUndefined();
  }, 45_000);

  it("steps up: a 403 insufficient_scope asks the user to connect again, and that Connect requests the wider scope", async () => {
    const x = await fixture(undefined, "mcp:admin");
    const server = await addOAuthServer(alice, "step-up", x.mcpUrl);
    newPool();
    const first = await connect(alice, server, "alice");
    expect(first.searchParams.get("scope") ?? "").not.toContain("mcp:admin");
    expect(await whoami(alice, server)).toBe("alice");

    const denied = await pool.session(alice.id, server).callTool("admin_action");
    expect(denied.isError).toBe(true);
    expect(denied.errorCode).toBe("needs_authorization");
    expect(JSON.stringify(denied.forModel)).toContain("wider scope");
    expect(pool.session(alice.id, server).status().state).toBe("needs_authorization");
    expect(x.stats.stepUpChallenges).toBeGreaterThan(0);

    const second = await connect(alice, server, "alice");
    expect(second.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["mcp:tools", "mcp:admin"]));
    const allowed = await pool.session(alice.id, server).callTool("admin_action");
    expect(allowed.forModel).toEqual({ result: "admin done for alice" });
  }, 30_000);

  it("a step-up survives reconnects until Connect grants it, with one client registration (no scope limit, application_type web)", async () => {
    const x = await fixture(undefined, "mcp:admin");
    const server = await addOAuthServer(alice, "step-up-once", x.mcpUrl);
    newPool();
    // The page connects in the background first: that 401 must not register a client either.
    expect((await pool.discover(alice.id, [server]))[0].state).toBe("needs_authorization");
    await connect(alice, server, "alice");
    expect(x.stats.registered).toEqual([{ application_type: "web", scope: undefined }]);
    expect((await pool.session(alice.id, server).callTool("admin_action")).errorCode).toBe("needs_authorization");

    // The narrow token would connect again: the status must keep saying what is missing.
    const status = await pool.session(alice.id, server).reconnect();
    expect(status.state).toBe("needs_authorization");
    expect(status.stepUp?.scope.split(" ")).toEqual(expect.arrayContaining(["mcp:tools", "mcp:admin"]));
    expect(status.lastError?.message).toContain("needs a wider scope");

    const second = await connect(alice, server, "alice");
    expect(second.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["mcp:tools", "mcp:admin"]));
    expect(pool.session(alice.id, server).status().stepUp).toBeNull();
    expect((await pool.session(alice.id, server).callTool("admin_action")).forModel).toEqual({ result: "admin done for alice" });
    expect(await whoami(alice, server)).toBe("alice");
    expect(x.stats.registrations).toBe(1);
  }, 30_000);

  it("Disconnect keeps a pending step-up, so the next Connect still asks for the wider scope", async () => {
    const x = await fixture(undefined, "mcp:admin");
    const server = await addOAuthServer(alice, "step-up-disconnect", x.mcpUrl);
    newPool();
    await connect(alice, server, "alice");
    await pool.session(alice.id, server).callTool("admin_action");
    await disconnect(deps, alice.id, server);
    expect((await pool.session(alice.id, server).reconnect()).stepUp).not.toBeNull();
    const again = await connect(alice, server, "alice");
    expect(again.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["mcp:tools", "mcp:admin"]));
    expect((await pool.session(alice.id, server).callTool("admin_action")).forModel).toEqual({ result: "admin done for alice" });
  }, 30_000);

  it("asks for offline_access only when the authorization server lists it", async () => {
    const listed = await fixture();
    newPool();
    const withOffline = await connect(alice, await addOAuthServer(alice, "offline-listed", listed.mcpUrl), "alice");
    expect(withOffline.searchParams.get("scope")?.split(" ")).toContain("offline_access");
    const unlisted = await startFixture({ offlineAccess: false });
    fixtures.push(unlisted);
    const without = await connect(alice, await addOAuthServer(alice, "offline-unlisted", unlisted.mcpUrl), "alice");
    expect(without.searchParams.get("scope")?.split(" ")).not.toContain("offline_access");
    expect(without.searchParams.get("scope")?.split(" ")).toContain("mcp:tools");
  });

  it("disconnect revokes at the AS and forgets", async () => {
    const x = await fixture();
    const server = await addOAuthServer(alice, "revocable", x.mcpUrl);
    newPool();
    await connect(alice, server, "alice");
    const result = await disconnect(deps, alice.id, server);
    expect(result.revoked).toBe(true);
    expect(x.stats.revocations).toBeGreaterThan(0);
    for (const kind of ["tokens", "client", "discovery"] as const) {
      expect(await deps.store.get({ userId: alice.id, serverId: server.id }, kind)).toBeUndefined();
    }
    expect((await pool.session(alice.id, server).reconnect()).state).toBe("needs_authorization");
  });

  it("refuses plain-http OAuth endpoints unless loopback http is allowed", async () => {
    const x = await fixture();
    const server = await addOAuthServer(alice, "strict", x.mcpUrl);
    const strict = testDeps({ policy: { allowLoopbackHttp: false } });
    await expect(beginAuthorization(strict, alice.id, server)).rejects.toMatchObject({ code: "insecure_url" });
  });
});
