/**
 * The hot-path lookup caches on a real SQLite file: sessions, workspace roles and server definitions
 * are read once, but every change (sign-out, a disabled account, a removed member, an edited or
 * deleted server, a member's own credential, a write from another connection) is seen on the very
 * next lookup, and one user is never handed another user's entry. The same for the personal access
 * token check (a revoked token, a removed member, a disabled account), whose last-used write moves no stamp,
 * and for what a chat turn reads before its model runs (the member's and the workspace's model, the
 * tool-search settings, the budgets): a saved setting is what the very next turn gets.
 */
import Database from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { exec } from "@/db/exec";
import { personalTokens } from "@/db/schema";
import { authenticateToken, createToken, revokeToken } from "@/lib/auth/personal-tokens";
import { DATA_VERSION_TTL_MS, generationOf } from "@/db/generation";
import { setUserDisabled } from "@/db/queries/users";
import { upsertMembership } from "@/db/queries/memberships";
import { membershipOf } from "@/lib/workspaces/membership-lookup";
import { endOneSession, resolveSession, startSession } from "@/lib/auth/sessions";
import { cachedServerDefinition, cachedServerDefinitions } from "@/lib/runtime/definition-cache";
import { addServer, changeServer, removeServer } from "@/lib/servers/service";
import { setMemberValues } from "@/lib/servers/member-values";
import { removeMember } from "@/lib/workspaces/members";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { instanceKey } from "@/db/key-check";
import { createDbStore } from "@/lib/oauth/web/db-store";
import { onSqliteRun } from "../../helpers/test-database-kind.mjs";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { actorIn, person, recordingEffects, team, type Person } from "../workspaces/helpers";
import { McpPool } from "@/lib/mcp";
import { updateModelSettings } from "@/lib/models/settings-service";
import { userModelResolution } from "@/lib/models/user-model";
import { setWorkspaceModel, workspaceModelChoice } from "@/lib/models/workspace-default";
import { getToolSearchSettings, setToolSearchSettings } from "@/lib/agent/tool-search-settings";
import { tightestBudget } from "@/lib/usage/budgets";
import { deleteBudget, upsertBudget } from "@/db/queries/usage-settings";

let dir = "";
let owner: Person;
let member: Person;
let outsider: Person;
let teamId = "";
let slug = "";

beforeAll(async () => {
  dir = useTempDataDir();
  owner = await person("owner@example.com");
  member = await person("member@example.com");
  outsider = await person("outsider@example.com");
  teamId = await team(owner, "Cache Team");
  slug = (await getWorkspaceById(getDb(), teamId))!.slug!;
  await upsertMembership(getDb(), { workspaceId: teamId, userId: member.id, role: "member" });
});
afterAll(() => removeTempDataDir(dir));

describe("session cache", () => {
  it("a cached session stops counting at once when it is ended or its user is disabled", async () => {
    const db = getDb();
    const one = await startSession(db, member.id);
    const two = await startSession(db, member.id);
    expect(await resolveSession(db, one)).toBe(member.id);
    expect(await resolveSession(db, one)).toBe(member.id); // served from the cache
    await endOneSession(db, one);
    expect(await resolveSession(db, one)).toBeNull();
    expect(await resolveSession(db, two)).toBe(member.id);
    await setUserDisabled(db, member.id, new Date());
    expect(await resolveSession(db, two)).toBeNull();
    await setUserDisabled(db, member.id, null);
    expect(await resolveSession(db, two)).toBe(member.id);
  });

  // SQLite's data_version stamp (on Postgres the stamp follows NOTIFY: tests/integration/db/postgres-runtime.test.ts).
  it.runIf(onSqliteRun)("a write by another connection (another process) is seen within the data_version interval", async () => {
    const db = getDb();
    const sid = await startSession(db, owner.id);
    expect(await resolveSession(db, sid)).toBe(owner.id);
    const other = new Database(path.join(dir, "switchboard.db"));
    try {
      other.prepare("UPDATE sessions SET ended_at = ? WHERE id = ?").run(Math.floor(Date.now() / 1000), sid);
    } finally {
      other.close();
    }
    // The stamp reads SQLite's data_version at most every DATA_VERSION_TTL_MS (db/generation.ts).
    await new Promise((resolve) => setTimeout(resolve, DATA_VERSION_TTL_MS + 10));
    expect(await resolveSession(db, sid)).toBeNull();
  });
});

describe("workspace cache", () => {
  it("a removed member loses the workspace on the next lookup; an outsider never gets a member's entry", async () => {
    const db = getDb();
    expect((await membershipOf(db, member.id, { slug }))?.role).toBe("member");
    expect((await membershipOf(db, owner.id, { slug }))?.role).toBe("owner");
    // Same slug, same moment, another user: not a member, whatever the cache holds for others.
    expect(await membershipOf(db, outsider.id, { slug })).toBeNull();
    const generation = generationOf(db);
    expect((await membershipOf(db, member.id, { slug }))?.role).toBe("member");
    expect(generationOf(db)).toBe(generation); // a lookup is not a change
    await removeMember(db, await actorIn(owner, teamId), member.id, recordingEffects(new McpPool()).effects);
    expect(await membershipOf(db, member.id, { slug })).toBeNull();
    await upsertMembership(db, { workspaceId: teamId, userId: member.id, role: "admin" });
    expect((await membershipOf(db, member.id, { slug }))?.role).toBe("admin");
  });
});

describe("server definition cache", () => {
  it("each member gets their own per-member values, and edits, credentials and deletes are seen at once", async () => {
    const db = getDb();
    const ownerActor = await actorIn(owner, teamId);
    const record = await addServer(db, ownerActor, {
      name: "keyed",
      config: { url: "https://mcp.example.com/mcp", headers: { "X-Api-Key": "team-default", "X-Fixed": "shared-secret" } },
      memberKeys: ["headers.X-Api-Key"],
    });
    const asOwner = { id: owner.id, workspaceId: teamId };
    const asMember = { id: member.id, workspaceId: teamId };
    await setMemberValues(db, ownerActor, record.id, { "headers.X-Api-Key": "owner-key" });
    await setMemberValues(db, await actorIn(member, teamId), record.id, { "headers.X-Api-Key": "member-key" });

    const ownerDefinition = await cachedServerDefinition(db, asOwner, record.id);
    const memberDefinition = await cachedServerDefinition(db, asMember, record.id);
    expect(ownerDefinition.config.headers).toEqual({ "X-Api-Key": "owner-key", "X-Fixed": "shared-secret" });
    expect(memberDefinition.config.headers).toEqual({ "X-Api-Key": "member-key", "X-Fixed": "shared-secret" });
    // Cached: the same object again, still each user's own.
    expect(await cachedServerDefinition(db, asMember, record.id)).toBe(memberDefinition);
    expect((await cachedServerDefinitions(db, asOwner)).find((s) => s.id === record.id)?.config.headers?.["X-Api-Key"]).toBe("owner-key");
    expect((await cachedServerDefinitions(db, asMember)).find((s) => s.id === record.id)?.config.headers?.["X-Api-Key"]).toBe("member-key");
    // Another workspace's caller does not reach the server through anyone's entry.
    await expect(cachedServerDefinition(db, { id: outsider.id, workspaceId: outsider.personalWorkspaceId }, record.id)).rejects.toThrow(
      /No such server/,
    );

    // A member changes their own value: seen on their next call, the owner's unchanged.
    await setMemberValues(db, await actorIn(member, teamId), record.id, { "headers.X-Api-Key": "member-key-2" });
    expect((await cachedServerDefinition(db, asMember, record.id)).config.headers?.["X-Api-Key"]).toBe("member-key-2");
    expect((await cachedServerDefinition(db, asOwner, record.id)).config.headers?.["X-Api-Key"]).toBe("owner-key");

    // The owner edits the server (a new path on the same origin, so the masked secrets stay): every
    // member's next definition has the new URL.
    await changeServer(db, ownerActor, record.id, {
      config: { url: "https://mcp.example.com/v2/mcp", headers: { "X-Api-Key": "********", "X-Fixed": "********" } },
    });
    expect((await cachedServerDefinition(db, asMember, record.id)).config.url).toBe("https://mcp.example.com/v2/mcp");
    expect((await cachedServerDefinitions(db, asOwner)).find((s) => s.id === record.id)?.config.url).toBe("https://mcp.example.com/v2/mcp");

    // Deleted: a 404 on the next lookup, and gone from the list.
    await removeServer(db, ownerActor, record.id);
    await expect(cachedServerDefinition(db, asMember, record.id)).rejects.toThrow(/No such server/);
    expect((await cachedServerDefinitions(db, asMember)).some((s) => s.id === record.id)).toBe(false);
  });
});

describe("stored credential cache (OAuth tokens, read before every MCP request)", () => {
  it("each user reads only their own value, and a refresh or a disconnect is seen at once", async () => {
    const store = createDbStore(getDb(), instanceKey());
    const server = (
      await addServer(getDb(), await actorIn(owner, teamId), { name: "oauth", config: { url: "https://oauth.example.com/mcp" } })
    ).id;
    const a = { userId: owner.id, serverId: server };
    const b = { userId: member.id, serverId: server };
    await store.set(a, "tokens", "owner-token");
    expect(await store.get(a, "tokens")).toBe("owner-token");
    expect(await store.get(a, "tokens")).toBe("owner-token"); // cached
    expect(await store.get(b, "tokens")).toBeUndefined();
    await store.set(b, "tokens", "member-token");
    expect(await store.get(b, "tokens")).toBe("member-token");
    await store.set(a, "tokens", "owner-token-refreshed");
    expect(await store.get(a, "tokens")).toBe("owner-token-refreshed");
    expect(await store.get(b, "tokens")).toBe("member-token");
    await store.delete(a, ["tokens"]);
    expect(await store.get(a, "tokens")).toBeUndefined();
    expect(await store.get(b, "tokens")).toBe("member-token");
  });
});

/** The change stamp once it stopped moving (unchanged across 150 ms). */
async function settledStamp(): Promise<string> {
  for (let last = generationOf(getDb()); ; ) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const now = generationOf(getDb());
    if (now === last) return now;
    last = now;
  }
}

describe("personal access token check", () => {
  const refusal = (secret: string) =>
    authenticateToken(getDb(), secret, "mcp").then(
      () => "accepted",
      (error: { code?: string }) => error.code,
    );

  it("is read once, its last-used write moves no stamp, and a revocation or a removal is refused on the next request", async () => {
    const db = getDb();
    const carl = await person("carl.tokens@example.com");
    await upsertMembership(db, { workspaceId: teamId, userId: carl.id, role: "member" });
    const made = await createToken(db, carl, { name: "cached", workspaceId: teamId, scopes: ["mcp"], expiresInDays: 7 });
    // On Postgres the notifications of the writes above arrive after their commit: let them land first.
    const before = await settledStamp();
    expect((await authenticateToken(db, made.secret, "mcp")).user.id).toBe(carl.id); // writes last_used_at
    if (!onSqliteRun) await new Promise((resolve) => setTimeout(resolve, 200)); // a notification would have arrived
    expect(generationOf(db)).toBe(before);
    expect((await authenticateToken(db, made.secret, "mcp")).workspaceId).toBe(teamId);
    expect(generationOf(db)).toBe(before);
    await revokeToken(db, carl, made.id);
    expect(await refusal(made.secret)).toBe("token.revoked");

    const again = await createToken(db, carl, { name: "again", workspaceId: teamId, scopes: ["mcp"], expiresInDays: 7 });
    expect(await refusal(again.secret)).toBe("accepted");
    await removeMember(db, await actorIn(owner, teamId), carl.id, recordingEffects(new McpPool()).effects);
    expect(await refusal(again.secret)).toBe("token.access_lost");
    const own = await createToken(db, carl, { name: "own", workspaceId: carl.personalWorkspaceId, scopes: ["mcp"], expiresInDays: 7 });
    expect(await refusal(own.secret)).toBe("accepted");
    await setUserDisabled(db, carl.id, new Date());
    expect(await refusal(own.secret)).toBe("token.account_disabled");
  });

  // The entry is really reused: a change this process makes without moving the stamp is not seen
  // (only a query module's bump or another process's commit retires it); SQLite, where this
  // process's own writes do not move data_version.
  it.runIf(onSqliteRun)(
    "is served from the cache until the stamp moves; another connection's revocation is seen within the interval",
    async () => {
      const db = getDb();
      const made = await createToken(db, member, { name: "reused", workspaceId: teamId, scopes: ["mcp"], expiresInDays: 7 });
      expect(await refusal(made.secret)).toBe("accepted");
      await exec(db.update(personalTokens).set({ scopes: "api:read" }).where(eq(personalTokens.id, made.id)));
      expect(await refusal(made.secret)).toBe("accepted");
      await exec(db.update(personalTokens).set({ scopes: "mcp" }).where(eq(personalTokens.id, made.id)));

      const other = new Database(path.join(dir, "switchboard.db"));
      try {
        other.prepare("UPDATE personal_tokens SET revoked_at = ? WHERE id = ?").run(Date.now(), made.id);
      } finally {
        other.close();
      }
      await new Promise((resolve) => setTimeout(resolve, DATA_VERSION_TTL_MS + 10));
      expect(await refusal(made.secret)).toBe("token.revoked");
    },
  );
});

describe("what a chat turn reads before the model runs", () => {
  it("is read once per stamp, and a saved model, tool-search setting or budget is what the next read gets", async () => {
    const db = getDb();
    const admin = await actorIn(owner, teamId);
    await settledStamp();
    expect(await workspaceModelChoice(db, teamId)).toBeNull();
    await setWorkspaceModel(db, admin, {
      provider: "openai-compatible",
      model: "team-model",
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: "team-key",
    });
    expect((await workspaceModelChoice(db, teamId))?.model).toBe("team-model");
    const resolved = await userModelResolution(db, member.id, workspaceModelChoice(db, teamId));
    expect(resolved.ok && resolved.config.model).toBe("team-model");
    // A member's own choice replaces the default on the next read (no choice, null, was cached too).
    await updateModelSettings(db, member.id, { provider: "openai-compatible", model: "own-model", baseUrl: "http://127.0.0.1:9/v1" });
    const own = await userModelResolution(db, member.id, workspaceModelChoice(db, teamId));
    expect(own.ok && own.config.model).toBe("own-model");

    const stamp = generationOf(db);
    const first = await getToolSearchSettings(db, teamId);
    first.alwaysLoaded.push("mcp_changed_by_a_caller"); // each read is a copy of the cached entry
    expect((await getToolSearchSettings(db, teamId)).alwaysLoaded).toEqual([]);
    expect(generationOf(db)).toBe(stamp); // reads are not changes
    await setToolSearchSettings(db, admin, { threshold: 7, maxTokens: 5000, alwaysLoaded: ["mcp_a_b"] });
    expect(await getToolSearchSettings(db, teamId)).toEqual({ threshold: 7, maxTokens: 5000, alwaysLoaded: ["mcp_a_b"] });

    expect(await tightestBudget(db, member.id, teamId)).toBeNull();
    await upsertBudget(db, { scope: "workspace", targetId: teamId, unit: "tokens", monthlyLimit: 1000, updatedBy: owner.id });
    expect((await tightestBudget(db, member.id, teamId))?.limit).toBe(1000);
    await deleteBudget(db, { scope: "workspace", targetId: teamId });
    expect(await tightestBudget(db, member.id, teamId)).toBeNull();
  });
});
