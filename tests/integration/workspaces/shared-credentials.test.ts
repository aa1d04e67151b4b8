/**
 * Credentials belong to a person (issue 28), with the real OAuth fixture (AS + MCP server that
 * records every bearer it sees): an admin switching a `per_member` server to `shared` never makes
 * anyone's calls run on anyone's personal tokens (the creator's included); the server waits in
 * "needs authorization" until an owner or admin does an explicit Connect for everyone, whose tokens
 * are stored apart from their own and are then what every member's calls carry.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { all } from "@/db/exec";
import { listAudit } from "@/db/queries/audit";
import { getServerById } from "@/db/queries/servers";
import { serverCredentials } from "@/db/schema";
import { McpPool, type ServerDefinition } from "@/lib/mcp";
import { createGuardedFetch, parseAllowedHosts } from "@/lib/net";
import { oauthCallbackResponse } from "@/lib/oauth/web/callback";
import type { OAuthDeps } from "@/lib/oauth/web/deps";
import { adoptSharedAccount, beginConnect, endConnect } from "@/lib/servers/connect";
import { definitionFor } from "@/lib/servers/credential-mode";
import { onServerReleased } from "@/lib/servers/release";
import { addServer, changeServer, serverViewById } from "@/lib/servers/service";
import { acceptInvitation, createInvitation } from "@/lib/workspaces/invitations";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { devLogin, startFixture, testDeps, type OAuthFixture } from "../oauth/helpers";
import { actorIn, person, sharedAwareProvider, team, type Person } from "./helpers";

let dir: string;
let as: OAuthFixture;
let deps: OAuthDeps;
let pool: McpPool;
let creator: Person;
let carol: Person;
let bob: Person;
let acme: string;
let serverId = "";
const released: Array<Promise<void>> = [];

beforeAll(async () => {
  dir = useTempDataDir();
  as = await startFixture();
  deps = testDeps();
  const db = getDb();
  pool = new McpPool({
    fetch: createGuardedFetch({ allowedHosts: parseAllowedHosts("127.0.0.1,localhost") }),
    authProvider: sharedAwareProvider(db, deps),
  });
  // The host's wiring (lib/runtime/engine.ts): a changed server's connections close at once.
  onServerReleased((id) => {
    const closing = pool.closeServer(id);
    released.push(closing);
    return closing;
  });
  creator = await person("creator@example.com");
  carol = await person("carol@example.com");
  bob = await person("bob@example.com");
  acme = await team(creator, "Acme");
  for (const [user, role] of [
    [carol, "admin"],
    [bob, "member"],
  ] as const)
    await acceptInvitation(
      db,
      user,
      (await createInvitation(db, await actorIn(creator, acme), { email: user.email, role }, { baseUrl: "http://app.test" })).token,
    );
});
afterAll(async () => {
  await pool?.closeAll();
  await as?.close();
  removeTempDataDir(dir);
});

async function defFor(user: Person): Promise<ServerDefinition> {
  return await definitionFor(getDb(), user.id, (await getServerById(getDb(), { id: serverId, workspaceId: acme }))!);
}

async function connect(user: Person, login: string, forEveryone = false) {
  const begun = await beginConnect(getDb(), deps, await actorIn(user, acme), await defFor(user), { forEveryone });
  if (begun.status !== "redirect") throw new Error("expected a redirect");
  const response = await oauthCallbackResponse(deps, {
    url: await devLogin(begun.url, login),
    userId: user.id,
    findServer: async () => await defFor(user),
    onAuthorized: async (_server, grant) => {
      if (!grant.forEveryone) return;
      await adoptSharedAccount(getDb(), user.id, { id: serverId, workspaceId: acme });
      await pool.closeServer(serverId);
    },
  });
  expect(response.status).toBe(303);
}

async function whoami(user: Person): Promise<string> {
  const outcome = await pool.session(user.id, await defFor(user)).callTool("whoami");
  return outcome.isError ? "error" : (outcome.content.content[0] as { text: string }).text;
}

async function setMode(credentials: "shared" | "per_member") {
  await changeServer(getDb(), await actorIn(carol, acme), serverId, { config: { url: as.mcpUrl, auth: "oauth", credentials } });
  await Promise.all(released.splice(0));
}

async function kinds(user: Person): Promise<string[]> {
  const rows = await all(
    getDb()
      .select({ kind: serverCredentials.kind })
      .from(serverCredentials)
      .where(and(eq(serverCredentials.userId, user.id), eq(serverCredentials.serverId, serverId))),
  );
  return rows.map((row) => row.kind).sort();
}

describe("switching to shared never serves anyone's personal tokens", () => {
  it("each member first uses their own account on a per_member server", async () => {
    serverId = (await addServer(getDb(), await actorIn(creator, acme), { name: "mail", config: { url: as.mcpUrl, auth: "oauth" } })).id;
    await connect(creator, "creator-personal");
    await connect(bob, "bob-personal");
    expect(await whoami(creator)).toBe("creator-personal");
    expect(await whoami(bob)).toBe("bob-personal");
  });

  it("after an admin switches it to shared, nobody's call carries a personal token: everyone waits", async () => {
    expect(pool.session(bob.id, await defFor(bob)).status().state).toBe("connected");
    await setMode("shared");
    // The switch closed every connection to the server.
    expect(pool.session(bob.id, await defFor(bob)).status().state).not.toBe("connected");
    const seen = as.stats.bearerSubjects.length;
    for (const user of [bob, carol, creator]) expect(await whoami(user)).toBe("error");
    expect(as.stats.bearerSubjects.slice(seen)).toEqual([]);
    const [status] = await pool.discover(bob.id, [await defFor(bob)]);
    expect(status.state).toBe("needs_authorization");
    expect(await serverViewById(getDb(), await actorIn(bob, acme), serverId)).toMatchObject({ credentials: "shared", sharedBy: null });
    // Personal tokens stay each person's, unused: the creator's account is not the team's.
    expect(await kinds(creator)).toContain("tokens");
    expect((await listAudit(getDb(), { workspaceId: acme, action: "server.credentials_mode" })).entries[0]).toMatchObject({
      actorId: carol.id,
      detail: { from: "per_member", to: "shared" },
    });
  });

  it("a plain Connect of a shared server is refused; a member cannot connect it for everyone", async () => {
    await expect(beginConnect(getDb(), deps, await actorIn(carol, acme), await defFor(carol))).rejects.toMatchObject({
      code: "request.invalid",
    });
    await expect(beginConnect(getDb(), deps, await actorIn(bob, acme), await defFor(bob), { forEveryone: true })).rejects.toMatchObject({
      code: "auth.forbidden",
    });
  });

  it("after the explicit Connect for everyone, every member's call carries that shared token", async () => {
    await connect(carol, "team-account", true);
    const seen = as.stats.bearerSubjects.length;
    expect(await whoami(bob)).toBe("team-account");
    expect(await whoami(creator)).toBe("team-account");
    expect(new Set(as.stats.bearerSubjects.slice(seen))).toEqual(new Set(["team-account"]));
    // Stored apart from carol's own tokens (she has none of her own for this server).
    expect(await kinds(carol)).toEqual(expect.arrayContaining(["shared.tokens"]));
    expect(await kinds(carol)).not.toContain("tokens");
    expect(await serverViewById(getDb(), await actorIn(bob, acme), serverId)).toMatchObject({ sharedBy: carol.name });
  });

  it("leaving shared forgets the team's tokens; coming back waits again instead of reusing them", async () => {
    await setMode("per_member");
    expect(await kinds(carol)).not.toContain("shared.tokens");
    expect(await whoami(bob)).toBe("bob-personal");
    await setMode("shared");
    const seen = as.stats.bearerSubjects.length;
    expect(await whoami(bob)).toBe("error");
    expect(as.stats.bearerSubjects.slice(seen)).toEqual([]);
  });

  it("Disconnect for everyone ends the shared account", async () => {
    await connect(creator, "team-again", true);
    expect(await whoami(bob)).toBe("team-again");
    await endConnect(getDb(), deps, await actorIn(carol, acme), await defFor(carol));
    await pool.closeServer(serverId);
    expect(await kinds(creator)).not.toContain("shared.tokens");
    expect(await kinds(creator)).toContain("tokens");
    expect(await whoami(bob)).toBe("error");
  });
});
