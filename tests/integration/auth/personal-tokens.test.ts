/**
 * Personal access tokens (docs/personal-tokens.md) on a real SQLite file: made through the use
 * cases the account routes call (recent sign-in, the secret answered once and never listed nor
 * audited, only the caller's own revoked), then used as `Authorization: Bearer` on the real `/v0.1`
 * route handlers: the catalog its workspace may see, and a 401 `{code, message}` for a wrong,
 * revoked, expired, other-scope token, a removed member's or a disabled user's.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { listRecentAudit } from "@/db/queries/audit";
import { saveEntryVersion, updateCatalogEntry } from "@/db/queries/catalog";
import { deleteMembership, upsertMembership } from "@/db/queries/memberships";
import { setUserDisabled } from "@/db/queries/users";
import { personalTokens, sessions } from "@/db/schema";
import { createToken } from "@/lib/auth/personal-tokens";
import type { SessionUser } from "@/lib/auth/session";
import { startSession } from "@/lib/auth/sessions";
import { ERROR_STATUS } from "@/lib/errors";
import { createMyToken, myTokens, revokeMyToken } from "@/lib/use-cases/personal-tokens";
import { GET as listRoute } from "@/app/v0.1/servers/route";
import { GET as versionsRoute } from "@/app/v0.1/servers/[name]/versions/route";
import { exampleServers } from "../../fixtures/registry/registry-server.mjs";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { person, type Person, team } from "../workspaces/helpers";
import { all, exec } from "../../../db/exec";

// The use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

let dir: string;
let admin: Person;
let bob: Person;
let cleo: Person;
let teamId: string;
const [weather, issues, time] = exampleServers();

/** `who` signed in just now (a fresh session counts as a recent sign-in). */
async function signedIn(who: Person, isAdmin = false): Promise<SessionUser> {
  return {
    id: who.id,
    email: who.email,
    name: who.name,
    isAdmin,
    workspaceId: who.personalWorkspaceId,
    sessionId: await startSession(getDb(), who.id),
  };
}

const API_READ = { scopes: ["api:read" as const], expiresInDays: 30 as const };

/** `GET /v0.1/servers` through the real route handler with a bearer token. */
async function listWith(secret: string) {
  const response = await listRoute(new Request("http://localhost:3000/v0.1/servers", { headers: { authorization: `Bearer ${secret}` } }));
  return { response, body: await response.json() };
}
const names = (body: { servers: { server: { name: string } }[] }) => [...new Set(body.servers.map((s) => s.server.name))].sort();

/** The refusal a token gets on `/v0.1/servers`: status and code. */
async function refusal(secret: string) {
  const { response, body } = await listWith(secret);
  expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
  expect(response.headers.get("access-control-allow-origin")).toBe("*");
  expect(typeof body.message).toBe("string");
  return { status: response.status, code: body.code };
}

beforeAll(async () => {
  dir = useTempDataDir();
  admin = await person("admin@example.com"); // the first account: the instance administrator
  bob = await person("bob@example.com");
  cleo = await person("cleo@example.com");
  teamId = await team(admin, "Acme");
  await upsertMembership(getDb(), { workspaceId: teamId, userId: bob.id, role: "member" });
  const add = async (server: Record<string, unknown>) =>
    (
      await saveEntryVersion(getDb(), {
        name: server.name as string,
        version: server.version as string,
        serverJson: server,
        source: "manual",
        isLatest: true,
      })
    ).entry;
  await updateCatalogEntry(getDb(), (await add(weather)).id, { visibility: "workspaces", workspaceIds: [teamId] });
  await updateCatalogEntry(getDb(), (await add(issues)).id, { visibility: "all" });
  await add(time); // instance administrators only
});

afterAll(() => removeTempDataDir(dir));

describe("personal access tokens on the account", () => {
  it("are made after a recent sign-in only, for one of the caller's workspaces", async () => {
    const stale = await signedIn(bob);
    await exec(
      getDb()
        .update(sessions)
        .set({ authenticatedAt: new Date(Date.now() - 11 * 60_000) })
        .where(eq(sessions.id, stale.sessionId)),
    );
    await expect(createMyToken(stale, { name: "ci", workspaceId: teamId, ...API_READ })).rejects.toThrow(
      expect.objectContaining({ code: "auth.reauth_required" }),
    );
    await expect(createMyToken(await signedIn(cleo), { name: "ci", workspaceId: teamId, ...API_READ })).rejects.toThrow(
      expect.objectContaining({ code: "workspace.not_found" }),
    );
  });

  it("answer the secret once: never in the list, the stored row or the audit", async () => {
    const bobIn = await signedIn(bob);
    const made = await createMyToken(bobIn, { name: "laptop", workspaceId: teamId, scopes: ["api:read", "mcp"], expiresInDays: 90 });
    expect(made.secret).toMatch(/^sbp_[A-Za-z0-9_-]{43}$/);
    expect(made.scopes).toEqual(["mcp", "api:read"]);
    expect(made.expiresAt.getTime() - Date.now()).toBeGreaterThan(89 * 86_400_000);
    const listed = (await myTokens(bobIn)).find((t) => t.id === made.id)!;
    expect(listed).toMatchObject({ name: "laptop", workspaceName: "Acme", scopes: ["mcp", "api:read"], state: "active", lastUsedAt: null });
    const everything = JSON.stringify([
      await myTokens(bobIn),
      await listRecentAudit(getDb(), 1000),
      await all(getDb().select().from(personalTokens)),
    ]);
    expect(everything).not.toContain(made.secret);
    expect(everything).not.toContain(made.secret.slice(8));
    expect(JSON.stringify(await myTokens(bobIn))).not.toMatch(/tokenHash|token_hash/);
    expect((await listRecentAudit(getDb(), 50)).some((a) => a.action === "user.token_created" && a.actorId === bob.id)).toBe(true);
  });

  it("are revoked only by their owner: another user's id is not found", async () => {
    const made = await createMyToken(await signedIn(bob), { name: "old", workspaceId: teamId, ...API_READ });
    await expect(revokeMyToken(await signedIn(cleo), made.id)).rejects.toThrow(expect.objectContaining({ code: "token.not_found" }));
    expect(ERROR_STATUS["token.not_found"]).toBe(404);
    await revokeMyToken(await signedIn(bob), made.id);
    expect((await myTokens(await signedIn(bob))).find((t) => t.id === made.id)?.state).toBe("revoked");
    await expect(revokeMyToken(await signedIn(bob), made.id)).rejects.toThrow(expect.objectContaining({ code: "token.not_found" }));
    expect((await listRecentAudit(getDb(), 50)).some((a) => a.action === "user.token_revoked" && a.actorId === bob.id)).toBe(true);
  });
});

describe("a bearer token on /v0.1", () => {
  it("reads the catalog its workspace may see, with CORS, and records its use", async () => {
    const inTeam = await createMyToken(await signedIn(bob), { name: "team", workspaceId: teamId, ...API_READ });
    const { response, body } = await listWith(inTeam.secret);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(names(body)).toEqual([issues.name, weather.name].sort());
    expect((await myTokens(await signedIn(bob))).find((t) => t.id === inTeam.id)?.lastUsedAt).toBeInstanceOf(Date);

    // A token for Bob's personal workspace sees only what every workspace sees, not the team's entry.
    const personal = await createMyToken(await signedIn(bob), { name: "own", workspaceId: bob.personalWorkspaceId, ...API_READ });
    expect(names((await listWith(personal.secret)).body)).toEqual([issues.name]);
    const hidden = await versionsRoute(
      new Request(`http://localhost:3000/v0.1/servers/${encodeURIComponent(weather.name)}/versions`, {
        headers: { authorization: `Bearer ${personal.secret}` },
      }),
      { params: Promise.resolve({ name: encodeURIComponent(weather.name) }) },
    );
    expect(hidden.status).toBe(404);
    expect((await hidden.json()).code).toBe("catalog.not_found");

    // An instance administrator's token reads as its workspace too: admins-only entries need the session.
    const adminToken = await createMyToken(await signedIn(admin, true), {
      name: "admin",
      workspaceId: admin.personalWorkspaceId,
      ...API_READ,
    });
    expect(names((await listWith(adminToken.secret)).body)).toEqual([issues.name]);
  });

  it("is refused with 401 and a token code: wrong, other scope, revoked, expired", async () => {
    const good = await createMyToken(await signedIn(bob), { name: "x", workspaceId: teamId, ...API_READ });
    expect(await refusal(`${good.secret.slice(0, -1)}${good.secret.endsWith("A") ? "B" : "A"}`)).toEqual({
      status: 401,
      code: "token.invalid",
    });
    expect(await refusal("not-a-token")).toEqual({ status: 401, code: "token.invalid" });
    const mcpOnly = await createMyToken(await signedIn(bob), { name: "mcp", workspaceId: teamId, scopes: ["mcp"], expiresInDays: 7 });
    expect(await refusal(mcpOnly.secret)).toEqual({ status: 401, code: "token.insufficient_scope" });
    await revokeMyToken(await signedIn(bob), good.id);
    expect(await refusal(good.secret)).toEqual({ status: 401, code: "token.revoked" });
    const expired = await createToken(
      getDb(),
      bob,
      { name: "past", workspaceId: teamId, ...API_READ, expiresInDays: 7 },
      new Date(Date.now() - 8 * 86_400_000),
    );
    expect(await refusal(expired.secret)).toEqual({ status: 401, code: "token.expired" });
  });

  it("stops at once when its user leaves the workspace or is disabled", async () => {
    const carl = await person("carl@example.com");
    await upsertMembership(getDb(), { workspaceId: teamId, userId: carl.id, role: "member" });
    const token = await createMyToken(await signedIn(carl), { name: "c", workspaceId: teamId, ...API_READ });
    expect((await listWith(token.secret)).response.status).toBe(200);
    await deleteMembership(getDb(), { workspaceId: teamId, userId: carl.id });
    expect(await refusal(token.secret)).toEqual({ status: 401, code: "token.access_lost" });

    const own = await createMyToken(await signedIn(carl), { name: "own", workspaceId: carl.personalWorkspaceId, ...API_READ });
    expect((await listWith(own.secret)).response.status).toBe(200);
    await setUserDisabled(getDb(), carl.id, new Date());
    expect(await refusal(own.secret)).toEqual({ status: 401, code: "token.account_disabled" });
  });
});
