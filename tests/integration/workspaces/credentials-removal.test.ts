/**
 * Team servers with a real authorization server and real MCP servers: a `shared` server's calls
 * carry the connecting admin's token for every member (who never receives a secret), a
 * `per_member` one asks each member to connect their own account, and removing a member closes
 * their live sessions at once and deletes (revokes) their tokens.
 */
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { all } from "@/db/exec";
import { serverCredentials } from "@/db/schema";
import { createServer, getServerById } from "@/db/queries/servers";
import { parseServerConfig } from "@/lib/mcp/config";
import { McpPool, type ServerDefinition } from "@/lib/mcp";
import { createGuardedFetch, parseAllowedHosts } from "@/lib/net";
import { oauthCallbackResponse } from "@/lib/oauth/web/callback";
import type { OAuthDeps } from "@/lib/oauth/web/deps";
import { adoptSharedAccount, beginConnect, endConnect } from "@/lib/servers/connect";
import { definitionFor } from "@/lib/servers/credential-mode";
import { setMemberValues } from "@/lib/servers/member-values";
import { listServers, serverViewById } from "@/lib/servers/service";
import { invitationSchema, acceptInvitation, createInvitation } from "@/lib/workspaces/invitations";
import { removeMember } from "@/lib/workspaces/members";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { FIXTURES, freePort, startHttpServer, stopProcess } from "../mcp/helpers";
import { devLogin, startFixture, testDeps, type OAuthFixture } from "../oauth/helpers";
import { actorIn, person, recordingEffects, sharedAwareProvider, team, type Person } from "./helpers";

const TEAM_SECRET = "team-header-secret-0123456789";
let dir: string;
let as: OAuthFixture;
let deps: OAuthDeps;
let pool: McpPool;
let admin: Person;
let bob: Person;
let acme: string;
let sessions: ChildProcess | undefined;
let sessionsBase = "";

beforeAll(async () => {
  dir = useTempDataDir();
  as = await startFixture();
  deps = testDeps();
  const db = getDb();
  // The app's wiring: a shared server's calls use its credentials account's tokens for everyone.
  pool = new McpPool({
    fetch: createGuardedFetch({ allowedHosts: parseAllowedHosts("127.0.0.1,localhost") }),
    authProvider: sharedAwareProvider(db, deps),
  });
  admin = await person("admin@example.com");
  bob = await person("bob@example.com");
  acme = await team(admin, "Acme");
  const invite = await createInvitation(db, await actorIn(admin, acme), invitationSchema.parse({ email: bob.email }), {
    baseUrl: "http://app.test",
  });
  await acceptInvitation(db, bob, invite.token);
  const port = await freePort();
  sessionsBase = `http://127.0.0.1:${port}`;
  sessions = await startHttpServer([path.join(FIXTURES, "session-http-server.mjs")], { PORT: String(port) }, `${sessionsBase}/stats`);
});
afterAll(async () => {
  await pool?.closeAll();
  await stopProcess(sessions);
  await as?.close();
  removeTempDataDir(dir);
});

async function addServer(name: string, config: Record<string, unknown>, memberKeys?: string[]) {
  return await createServer(getDb(), { workspaceId: acme, name, config: parseServerConfig(config, name), createdBy: admin.id, memberKeys });
}

/** What the engine gets for `user` (the route's `workspaceServerDefinition`). */
async function defFor(user: Person, id: string): Promise<ServerDefinition> {
  return await definitionFor(getDb(), user.id, (await getServerById(getDb(), { id, workspaceId: acme }))!);
}

async function connect(user: Person, server: ServerDefinition, login: string, forEveryone = false) {
  const actor = await actorIn(user, acme);
  const begun = await beginConnect(getDb(), deps, actor, server, { forEveryone });
  if (begun.status !== "redirect") throw new Error("expected a redirect");
  const back = await devLogin(begun.url, login);
  const response = await oauthCallbackResponse(deps, {
    url: back,
    userId: user.id,
    findServer: () => server,
    onAuthorized: async (_server, grant) => {
      if (grant.forEveryone) await adoptSharedAccount(getDb(), user.id, { id: server.id, workspaceId: acme });
    },
  });
  expect(response.status).toBe(303);
  await pool.session(user.id, server).reconnect();
}

async function whoami(user: Person, server: ServerDefinition) {
  const outcome = await pool.session(user.id, server).callTool("whoami");
  return outcome.isError ? `error: ${JSON.stringify(outcome.forModel)}` : (outcome.content.content[0] as { text: string }).text;
}

async function tokenRows(user: Person, serverId: string) {
  return all(
    getDb()
      .select()
      .from(serverCredentials)
      .where(and(eq(serverCredentials.userId, user.id), eq(serverCredentials.serverId, serverId))),
  );
}

describe("shared vs per-member credentials", () => {
  let sharedId = "";
  let ownId = "";

  it("a member's call to a shared server sends the admin's token", async () => {
    sharedId = (await addServer("shared", { url: as.mcpUrl, auth: "oauth", credentials: "shared", headers: { "x-team-key": TEAM_SECRET } }))
      .id;
    await connect(admin, await defFor(admin, sharedId), "admin-at-as", true);
    expect(await whoami(admin, await defFor(admin, sharedId))).toBe("admin-at-as");
    const seen = as.stats.bearerSubjects.length;
    expect(await whoami(bob, await defFor(bob, sharedId))).toBe("admin-at-as");
    expect(as.stats.bearerSubjects.slice(seen)).toEqual(expect.arrayContaining(["admin-at-as"]));
    // One connection per (user, server): bob's call ran on his own connection.
    expect(pool.session(bob.id, await defFor(bob, sharedId)).status().state).toBe("connected");
    expect(await tokenRows(bob, sharedId)).toHaveLength(0);
  });

  it("a member cannot connect or disconnect a shared server", async () => {
    await expect(beginConnect(getDb(), deps, await actorIn(bob, acme), await defFor(bob, sharedId))).rejects.toMatchObject({
      code: "auth.forbidden",
    });
    await expect(endConnect(getDb(), deps, await actorIn(bob, acme), await defFor(bob, sharedId))).rejects.toMatchObject({
      code: "auth.forbidden",
    });
  });

  it("a per_member server asks the member to connect their own account", async () => {
    ownId = (await addServer("own", { url: as.mcpUrl, auth: "oauth" })).id;
    await connect(admin, await defFor(admin, ownId), "admin-at-as");
    const [status] = await pool.discover(bob.id, [await defFor(bob, ownId)]);
    expect(status.state).toBe("needs_authorization");
    await connect(bob, await defFor(bob, ownId), "bob-at-as");
    expect(await whoami(bob, await defFor(bob, ownId))).toBe("bob-at-as");
    expect(await whoami(admin, await defFor(admin, ownId))).toBe("admin-at-as");
  });

  it("a member never receives the shared secrets in any response", async () => {
    const memberViews = JSON.stringify([
      await listServers(getDb(), await actorIn(bob, acme)),
      await serverViewById(getDb(), await actorIn(bob, acme), sharedId),
    ]);
    expect(memberViews).not.toContain(TEAM_SECRET);
    for (const token of as.stats.tokensSeen) expect(memberViews).not.toContain(token);
    const view = await serverViewById(getDb(), await actorIn(bob, acme), sharedId);
    expect(view).toMatchObject({ credentials: "shared", sharedBy: admin.name, config: { headers: { "x-team-key": "********" } } });
  });

  it("per-member header values are each member's own and never returned", async () => {
    const keyed = await addServer("keyed", { url: `${sessionsBase}/mcp`, headers: { "x-member-key": "unused-default" } }, [
      "headers.x-member-key",
    ]);
    const result = await setMemberValues(getDb(), await actorIn(bob, acme), keyed.id, { "headers.x-member-key": "bob-personal-key" });
    expect(result).toEqual({ origin: sessionsBase, keys: [{ key: "headers.x-member-key", set: true, held: false }] });
    expect(JSON.stringify(result)).not.toContain("bob-personal-key");
    expect((await defFor(bob, keyed.id)).config.headers).toEqual({ "x-member-key": "bob-personal-key" });
    // The admin has not set one: the header is left out rather than sending someone else's value.
    expect((await defFor(admin, keyed.id)).config.headers).toEqual({});
  });
});

describe("removal takes effect at once", () => {
  it("closes the member's live session, deletes and revokes their tokens, stops their turns", async () => {
    const live = await addServer("live", { url: `${sessionsBase}/mcp` });
    const own = (await listServers(getDb(), await actorIn(admin, acme))).find((s) => s.name === "own")!;
    const echo = await pool.session(bob.id, await defFor(bob, live.id)).callTool("echo", { message: "hi" });
    expect(echo.isError).toBe(false);
    const stats = async () => (await (await fetch(`${sessionsBase}/stats`)).json()) as { deletes: number };
    const deletesBefore = (await stats()).deletes;
    expect((await tokenRows(bob, own.id)).length).toBeGreaterThan(0);
    const revocationsBefore = as.stats.revocations;

    const { effects, calls } = recordingEffects(pool, deps);
    await removeMember(getDb(), await actorIn(admin, acme), bob.id, effects);

    // The fixture saw bob's session terminated (DELETE), and his pool entries are gone.
    expect((await stats()).deletes).toBe(deletesBefore + 1);
    expect(pool.session(bob.id, await defFor(admin, live.id)).status().state).not.toBe("connected");
    expect(await tokenRows(bob, own.id)).toHaveLength(0);
    expect(as.stats.revocations).toBeGreaterThan(revocationsBefore);
    expect(calls.stopped).toContainEqual([bob.id, acme]);
    // The admin's own connection and shared account are untouched.
    expect(await whoami(admin, await defFor(admin, own.id))).toBe("admin-at-as");
    await expect(actorIn(bob, acme)).rejects.toThrow(/not a member/);
  });
});
