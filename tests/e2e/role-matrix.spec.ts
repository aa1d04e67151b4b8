/**
 * The role matrix: every route under app/api × {non-member, member, admin, owner, instance admin}
 * × {own workspace, another workspace}, each cell's status code asserted against the running app.
 * Table-driven: a route file (or method) without a row fails the test.
 */
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { addMember, createTeam, SETUP, signedInAdmin, signedUp, type Signed } from "./pages/workspaces";

test.describe.configure({ timeout: 300_000 });

const ACTORS = ["nonMember", "member", "admin", "owner", "instanceAdmin"] as const;
type Actor = (typeof ACTORS)[number];
/** Expected status per actor, in ACTORS order. */
type Row5 = [number, number, number, number, number];
type Scope = "own" | "other";

/** The ids one cell works with: the workspace (own team or another team) and things in it. */
interface Cell {
  actor: Actor;
  scope: Scope;
  me: Signed;
  workspaceId: string;
  serverId: string;
  /** A chat of the caller in the workspace when they are a member; otherwise the owner's. */
  chatId: string;
  /** A plain member of the workspace nobody acts as (target of role changes). */
  victimId: string;
}

interface Route {
  /** `METHOD /api/path` with the route's own [param] names. */
  key: string;
  url(c: Cell): string;
  body?(c: Cell): unknown;
  /** Fresh ids for a destructive cell (the thing deleted), built before the request. */
  prepare?(c: Cell): Promise<Partial<Cell> & { target?: string }>;
  target?: (c: Cell & { target?: string }) => string;
  own: Row5;
  /** Defaults to every actor 404 (the workspace of another team is invisible). */
  other?: Row5;
  /** Routes that are not about a workspace answer the same in both scopes. */
  userLevel?: boolean;
}

const NOT_FOUND: Row5 = [404, 404, 404, 404, 404];
const MEMBERS_OK = (ok: number): Row5 => [404, ok, ok, ok, 404];
const MANAGERS_OK = (ok: number): Row5 => [404, 403, ok, ok, 404];
const OWNERS_OK = (ok: number): Row5 => [404, 403, 403, ok, 404];
const EVERYONE = (status: number): Row5 => [status, status, status, status, status];
const ADMIN_ONLY = (ok: number): Row5 => [403, 403, 403, 403, ok];

let everythingUrl = "";
const people = {} as Record<Actor | "owner2" | "victim", Signed>;
const teams = { own: { id: "", serverId: "", victimId: "" }, other: { id: "", serverId: "", victimId: "" } };
const chats = new Map<string, string>(); // `${workspaceId}:${userId}` → chat id

async function newChat(who: Signed, workspaceId: string): Promise<string> {
  const created = await who.api.post("/api/chats", { data: {}, headers: { "x-workspace-id": workspaceId }, ...SETUP });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function newServer(owner: Signed, workspaceId: string, name: string): Promise<string> {
  const created = await owner.api.post("/api/servers", {
    data: { name, config: { url: everythingUrl } },
    headers: { "x-workspace-id": workspaceId },
    ...SETUP,
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function invitationToken(owner: Signed, workspaceId: string, email: string): Promise<{ id: string; token: string }> {
  const invited = await owner.api.post(`/api/workspaces/${workspaceId}/invitations`, { data: { email, role: "member" }, ...SETUP });
  expect(invited.status()).toBe(201);
  return (await invited.json()) as { id: string; token: string };
}

/** A new team of the cell's scope owner that the caller is not in, for accepting an invitation. */
async function teamToJoin(c: Cell): Promise<{ inviter: Signed; teamId: string }> {
  // The scope's owner, unless that is the caller (who would already be in their own new team).
  const inviter = c.scope === "own" && c.me !== people.owner ? people.owner : people.owner2;
  return { inviter, teamId: (await createTeam(inviter, `To join ${++unique}`)).id };
}

let unique = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now()}-${++unique}@example.com`;

/** A new account made through an instance invitation (the admin's "create user"), returning its id. */
/** A catalog entry shown to every workspace (a remote for server-everything), made by the instance administrator. */
async function catalogEntry(): Promise<string> {
  const admin = people.instanceAdmin;
  const serverJson = {
    name: `com.example.matrix/e${++unique}`,
    description: "Matrix",
    version: "1.0.0",
    remotes: [{ type: "streamable-http", url: everythingUrl }],
  };
  const created = await admin.api.post("/api/admin/catalog/entries", { data: { serverJson }, ...SETUP });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await admin.api.patch(`/api/admin/catalog/entries/${id}`, { data: { visibility: "all" }, ...SETUP })).status()).toBe(200);
  return id;
}

/** A registry on a loopback port nothing listens on: whoever passes the admin check gets `catalog.registry_unreachable`. */
async function catalogRegistry(): Promise<string> {
  const created = await people.instanceAdmin.api.post("/api/admin/catalog/registries", {
    data: { url: `http://127.0.0.1:9/r${++unique}` },
    ...SETUP,
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function userByInvitation(): Promise<string> {
  const admin = people.instanceAdmin;
  const created = await admin.api.post("/api/admin/users", { data: { email: fresh("victim") } });
  expect(created.status()).toBe(201);
  const { token } = (await created.json()) as { token: string };
  const registered = await admin.api.post(`/api/invitations/${token}/register`, {
    data: { name: "Victim", password: "a long victim password" },
    ...SETUP,
  });
  expect(registered.status()).toBe(201);
  return ((await registered.json()) as { id: string }).id;
}

/** A fresh team where every actor has their role, for cells that delete the workspace itself. */
async function freshTeam(): Promise<string> {
  const team = await createTeam(people.owner, `Fresh ${++unique}`);
  await addMember(people.owner, team.id, people.admin, "admin");
  await addMember(people.owner, team.id, people.member, "member");
  return team.id;
}

const ROUTES: Route[] = [
  { key: "GET /api/health", url: () => "/api/health", own: EVERYONE(200), userLevel: true },
  { key: "GET /api/health/ready", url: () => "/api/health/ready", own: EVERYONE(200), userLevel: true },
  // The replicas' internal hop: no session counts, only its proof; a single node refuses it to everyone.
  { key: "POST /api/internal/sandbox", url: () => "/api/internal/sandbox", body: () => ({}), own: EVERYONE(401), userLevel: true },
  // Off on the test server (no SWITCHBOARD_METRICS_TOKEN): 404 to everyone; token checks in tests/integration/telemetry.
  { key: "GET /api/metrics", url: () => "/api/metrics", own: EVERYONE(404), userLevel: true },
  { key: "POST /api/auth/register", url: () => "/api/auth/register", body: () => ({}), own: EVERYONE(400), userLevel: true },
  // Servers of the workspace.
  { key: "GET /api/servers", url: () => "/api/servers", own: MEMBERS_OK(200) },
  {
    key: "POST /api/servers",
    url: () => "/api/servers",
    body: () => ({ name: `s${++unique}`, config: { url: everythingUrl } }),
    own: MANAGERS_OK(201),
  },
  { key: "GET /api/servers/[id]", url: (c) => `/api/servers/${c.serverId}`, own: MEMBERS_OK(200) },
  { key: "PATCH /api/servers/[id]", url: (c) => `/api/servers/${c.serverId}`, body: () => ({}), own: MANAGERS_OK(200) },
  // A catalog update (docs/catalog.md#updates): the matrix server was typed by hand, so none is on offer.
  { key: "GET /api/servers/[id]/catalog-update", url: (c) => `/api/servers/${c.serverId}/catalog-update`, own: MEMBERS_OK(200) },
  {
    key: "POST /api/servers/[id]/catalog-update",
    url: (c) => `/api/servers/${c.serverId}/catalog-update`,
    body: () => ({ version: "9.9.9" }),
    own: MANAGERS_OK(404),
  },
  {
    key: "DELETE /api/servers/[id]",
    prepare: async (c) => ({ serverId: await newServer(c.scope === "own" ? people.owner : people.owner2, c.workspaceId, `d${++unique}`) }),
    url: (c) => `/api/servers/${c.serverId}`,
    own: MANAGERS_OK(204),
  },
  { key: "GET /api/servers/[id]/tools", url: (c) => `/api/servers/${c.serverId}/tools`, own: MEMBERS_OK(200) },
  {
    key: "POST /api/servers/[id]/tools/call",
    url: (c) => `/api/servers/${c.serverId}/tools/call`,
    body: () => ({ name: "echo", arguments: { message: "matrix" } }),
    own: MEMBERS_OK(200),
  },
  // Tool trust: everyone sees the trust state; only owners/admins change it (a bad body is a 400 first).
  { key: "GET /api/servers/[id]/trust", url: (c) => `/api/servers/${c.serverId}/trust`, own: MEMBERS_OK(200) },
  {
    key: "PUT /api/servers/[id]/trust",
    url: (c) => `/api/servers/${c.serverId}/trust`,
    body: () => ({ trusted: false }),
    own: MANAGERS_OK(200),
  },
  {
    key: "POST /api/servers/[id]/tools/review",
    url: (c) => `/api/servers/${c.serverId}/tools/review`,
    body: () => ({}),
    own: MEMBERS_OK(400),
  },
  { key: "GET /api/tools/held", url: () => "/api/tools/held", own: MEMBERS_OK(200) },
  // MCP Apps: the server must be in the caller's workspace (the matrix server links no app: 404 for members too).
  {
    key: "GET /api/apps/resource",
    url: (c) => `/api/apps/resource?serverId=${c.serverId}&uri=${encodeURIComponent("ui://none/app.html")}`,
    own: MEMBERS_OK(404),
  },
  {
    key: "POST /api/apps/call",
    url: () => "/api/apps/call",
    body: (c) => ({ serverId: c.serverId, name: "echo", arguments: { message: "matrix" } }),
    own: MEMBERS_OK(200),
  },
  {
    key: "POST /api/apps/requests",
    url: () => "/api/apps/requests",
    body: (c) => ({ kind: "open_link", serverId: c.serverId, url: "https://example.com/", confirmed: false }),
    own: MEMBERS_OK(200),
  },
  {
    key: "POST /api/apps/context",
    url: () => "/api/apps/context",
    body: (c) => ({ chatId: c.chatId, toolCallId: "none", serverId: c.serverId, content: [{ type: "text", text: "x" }] }),
    own: MEMBERS_OK(404),
  },
  { key: "GET /api/apps/sandbox", url: () => "/api/apps/sandbox", own: EVERYONE(200), userLevel: true },
  { key: "GET /api/servers/[id]/resources", url: (c) => `/api/servers/${c.serverId}/resources`, own: MEMBERS_OK(200) },
  // Invalid bodies: a member gets the 400, a non-member the 404 — the workspace check comes first.
  {
    key: "POST /api/servers/[id]/resources/read",
    url: (c) => `/api/servers/${c.serverId}/resources/read`,
    body: () => ({}),
    own: MEMBERS_OK(400),
  },
  { key: "GET /api/servers/[id]/prompts", url: (c) => `/api/servers/${c.serverId}/prompts`, own: MEMBERS_OK(200) },
  {
    key: "POST /api/servers/[id]/prompts/get",
    url: (c) => `/api/servers/${c.serverId}/prompts/get`,
    body: () => ({}),
    own: MEMBERS_OK(400),
  },
  { key: "POST /api/servers/[id]/complete", url: (c) => `/api/servers/${c.serverId}/complete`, body: () => ({}), own: MEMBERS_OK(400) },
  // Import previews for every member (a bad text is a 400 first); export for every member, secrets as placeholders.
  { key: "POST /api/servers/import", url: () => "/api/servers/import", body: () => ({ text: "[]" }), own: MEMBERS_OK(400) },
  { key: "GET /api/servers/export", url: () => "/api/servers/export", own: MEMBERS_OK(200) },
  { key: "POST /api/servers/test", url: () => "/api/servers/test", body: () => ({}), own: MANAGERS_OK(400) },
  { key: "POST /api/settings/model/test", url: () => "/api/settings/model/test", own: MEMBERS_OK(200) },
  { key: "GET /api/servers/[id]/icon", url: (c) => `/api/servers/${c.serverId}/icon?i=99`, own: MEMBERS_OK(400) },
  { key: "GET /api/servers/[id]/info", url: (c) => `/api/servers/${c.serverId}/info`, own: MEMBERS_OK(200) },
  { key: "GET /api/servers/[id]/logs", url: (c) => `/api/servers/${c.serverId}/logs`, own: MEMBERS_OK(200) },
  {
    key: "PUT /api/servers/[id]/logs/level",
    url: (c) => `/api/servers/${c.serverId}/logs/level`,
    body: () => ({ level: "verbose" }),
    own: MEMBERS_OK(400),
  },
  {
    key: "POST /api/servers/[id]/resources/subscribe",
    url: (c) => `/api/servers/${c.serverId}/resources/subscribe`,
    body: () => ({}),
    own: MEMBERS_OK(400),
  },
  {
    key: "DELETE /api/servers/[id]/resources/subscribe",
    url: (c) => `/api/servers/${c.serverId}/resources/subscribe`,
    body: () => ({}),
    own: MEMBERS_OK(400),
  },
  // The live event stream is per user (events filtered by membership); `?once=1` ends it after `ready`.
  { key: "GET /api/events", url: () => "/api/events?once=1", own: EVERYONE(200), userLevel: true },
  { key: "GET /api/servers/[id]/status", url: (c) => `/api/servers/${c.serverId}/status`, own: MEMBERS_OK(200) },
  { key: "POST /api/servers/[id]/reconnect", url: (c) => `/api/servers/${c.serverId}/reconnect`, own: MEMBERS_OK(200) },
  { key: "GET /api/servers/[id]/member-values", url: (c) => `/api/servers/${c.serverId}/member-values`, own: MEMBERS_OK(200) },
  {
    key: "PUT /api/servers/[id]/member-values",
    url: (c) => `/api/servers/${c.serverId}/member-values`,
    body: () => ({ values: {} }),
    own: MEMBERS_OK(200),
  },
  { key: "GET /api/mcp/status", url: () => "/api/mcp/status", own: MEMBERS_OK(200) },
  { key: "POST /api/mcp/reload", url: () => "/api/mcp/reload", own: MEMBERS_OK(200) },
  { key: "POST /api/oauth/start", url: () => "/api/oauth/start", body: () => ({}), own: MEMBERS_OK(400) },
  { key: "POST /api/oauth/disconnect", url: () => "/api/oauth/disconnect", body: (c) => ({ serverId: c.serverId }), own: MEMBERS_OK(200) },
  // The callback carries no workspace: without a valid state every caller gets the same refusal page.
  { key: "GET /api/oauth/callback", url: () => "/api/oauth/callback", own: EVERYONE(400), userLevel: true },
  // Chats: private to their author inside one workspace.
  { key: "POST /api/chat", url: () => "/api/chat", body: () => ({}), own: MEMBERS_OK(400) },
  // Rejoining or stopping a running answer: none runs here, so members get 204; the chat stays private.
  { key: "GET /api/chat/[id]/stream", url: (c) => `/api/chat/${c.chatId}/stream`, own: MEMBERS_OK(204) },
  { key: "DELETE /api/chat/[id]/stream", url: (c) => `/api/chat/${c.chatId}/stream`, own: MEMBERS_OK(204) },
  { key: "GET /api/chats", url: () => "/api/chats", own: MEMBERS_OK(200) },
  { key: "POST /api/chats", url: () => "/api/chats", body: () => ({}), own: MEMBERS_OK(201) },
  { key: "GET /api/chats/[id]", url: (c) => `/api/chats/${c.chatId}`, own: MEMBERS_OK(200) },
  { key: "PATCH /api/chats/[id]", url: (c) => `/api/chats/${c.chatId}`, body: () => ({ title: "Renamed" }), own: MEMBERS_OK(200) },
  {
    key: "DELETE /api/chats/[id]",
    prepare: async (c) => ({
      chatId: c.chatId === chats.get(`${c.workspaceId}:${c.me.id}`) ? await newChat(c.me, c.workspaceId) : c.chatId,
    }),
    url: (c) => `/api/chats/${c.chatId}`,
    own: MEMBERS_OK(204),
  },
  // What servers wait on the caller for: per user, never per workspace.
  { key: "GET /api/pending", url: () => "/api/pending", own: EVERYONE(200), userLevel: true },
  {
    key: "POST /api/elicitations/[id]",
    url: () => "/api/elicitations/none",
    body: () => ({ action: "cancel" }),
    own: EVERYONE(404),
    userLevel: true,
  },
  {
    key: "POST /api/sampling/[id]",
    url: () => "/api/sampling/none",
    body: () => ({ action: "deny" }),
    own: EVERYONE(404),
    userLevel: true,
  },
  // The caller's own model, read and saved in a workspace: the answer says which model wins there.
  // Whether members may add remote catalog entries (docs/catalog.md#who-adds): read by members, set (to off) by owners/admins.
  { key: "GET /api/settings/catalog", url: () => "/api/settings/catalog", own: MEMBERS_OK(200) },
  {
    key: "PUT /api/settings/catalog",
    url: () => "/api/settings/catalog",
    body: () => ({ membersAddRemote: false }),
    own: MANAGERS_OK(200),
  },
  { key: "GET /api/settings/model", url: () => "/api/settings/model", own: MEMBERS_OK(200) },
  {
    key: "PUT /api/settings/model",
    url: () => "/api/settings/model",
    body: () => ({ provider: null, model: null, baseUrl: null }),
    own: MEMBERS_OK(200),
  },
  { key: "GET /api/settings/tool-policies", url: () => "/api/settings/tool-policies", own: MEMBERS_OK(200) },
  { key: "PUT /api/settings/tool-policies", url: () => "/api/settings/tool-policies", body: () => ({}), own: MEMBERS_OK(400) },
  // Workspaces, members, invitations, audit, default model.
  { key: "GET /api/workspaces", url: () => "/api/workspaces", own: EVERYONE(200), userLevel: true },
  {
    key: "POST /api/workspaces",
    url: () => "/api/workspaces",
    body: () => ({ name: `Team ${++unique}` }),
    own: EVERYONE(201),
    userLevel: true,
  },
  { key: "GET /api/workspaces/[id]", url: (c) => `/api/workspaces/${c.workspaceId}`, own: MEMBERS_OK(200) },
  {
    key: "PATCH /api/workspaces/[id]",
    url: (c) => `/api/workspaces/${c.workspaceId}`,
    body: () => ({ name: "Matrix team" }),
    own: OWNERS_OK(200),
  },
  {
    key: "DELETE /api/workspaces/[id]",
    prepare: async (c) => (c.scope === "own" ? { workspaceId: await freshTeam() } : {}),
    url: (c) => `/api/workspaces/${c.workspaceId}`,
    own: OWNERS_OK(204),
  },
  { key: "GET /api/workspaces/[id]/members", url: (c) => `/api/workspaces/${c.workspaceId}/members`, own: MEMBERS_OK(200) },
  {
    key: "PATCH /api/workspaces/[id]/members/[userId]",
    url: (c) => `/api/workspaces/${c.workspaceId}/members/${c.victimId}`,
    body: () => ({ role: "member" }),
    own: MANAGERS_OK(200),
  },
  {
    key: "DELETE /api/workspaces/[id]/members/[userId]",
    prepare: async (c) => (c.scope === "own" ? { victimId: await joinedVictim(c.workspaceId) } : {}),
    url: (c) => `/api/workspaces/${c.workspaceId}/members/${c.victimId}`,
    own: MANAGERS_OK(204),
  },
  { key: "GET /api/workspaces/[id]/invitations", url: (c) => `/api/workspaces/${c.workspaceId}/invitations`, own: MANAGERS_OK(200) },
  {
    key: "POST /api/workspaces/[id]/invitations",
    url: (c) => `/api/workspaces/${c.workspaceId}/invitations`,
    body: () => ({ email: fresh("invitee"), role: "member" }),
    own: MANAGERS_OK(201),
  },
  {
    key: "DELETE /api/workspaces/[id]/invitations/[invitationId]",
    prepare: async (c) => ({
      target: (await invitationToken(c.scope === "own" ? people.owner : people.owner2, c.workspaceId, fresh("revoked"))).id,
    }),
    url: (c) => `/api/workspaces/${c.workspaceId}/invitations/${(c as { target?: string }).target}`,
    own: MANAGERS_OK(204),
  },
  { key: "GET /api/workspaces/[id]/audit", url: (c) => `/api/workspaces/${c.workspaceId}/audit`, own: MANAGERS_OK(200) },
  { key: "GET /api/workspaces/[id]/audit/export", url: (c) => `/api/workspaces/${c.workspaceId}/audit/export`, own: MANAGERS_OK(200) },
  // Usage (docs/usage.md): everyone reads their own; the workspace's budget and prices are its managers'.
  { key: "GET /api/workspaces/[id]/usage", url: (c) => `/api/workspaces/${c.workspaceId}/usage`, own: MEMBERS_OK(200) },
  { key: "GET /api/workspaces/[id]/usage/budgets", url: (c) => `/api/workspaces/${c.workspaceId}/usage/budgets`, own: MEMBERS_OK(200) },
  {
    key: "PUT /api/workspaces/[id]/usage/budgets",
    url: (c) => `/api/workspaces/${c.workspaceId}/usage/budgets`,
    body: () => ({ scope: "workspace", unit: "tokens", monthlyLimit: 100_000_000 }),
    own: MANAGERS_OK(200),
  },
  { key: "GET /api/workspaces/[id]/usage/prices", url: (c) => `/api/workspaces/${c.workspaceId}/usage/prices`, own: MEMBERS_OK(200) },
  {
    key: "PUT /api/workspaces/[id]/usage/prices",
    url: (c) => `/api/workspaces/${c.workspaceId}/usage/prices`,
    body: () => ({ scope: "workspace", provider: "openai", model: "matrix-model", input: 1, output: 2 }),
    own: MANAGERS_OK(200),
  },
  { key: "GET /api/workspaces/[id]/model", url: (c) => `/api/workspaces/${c.workspaceId}/model`, own: MEMBERS_OK(200) },
  {
    key: "PUT /api/workspaces/[id]/model",
    url: (c) => `/api/workspaces/${c.workspaceId}/model`,
    body: () => ({ provider: null, model: null, baseUrl: null }),
    own: MANAGERS_OK(200),
  },
  { key: "GET /api/workspaces/[id]/tool-search", url: (c) => `/api/workspaces/${c.workspaceId}/tool-search`, own: MEMBERS_OK(200) },
  {
    key: "PUT /api/workspaces/[id]/tool-search",
    url: (c) => `/api/workspaces/${c.workspaceId}/tool-search`,
    body: () => ({ threshold: 40, maxTokens: 20000, alwaysLoaded: [] }),
    own: MANAGERS_OK(200),
  },
  // Invitations: the token is the permission (accepting needs the invited email signed in).
  {
    key: "POST /api/invitations/[token]/accept",
    prepare: async (c) => ({
      // A current member cannot be invited (invitation.already_member), so the invitation is to a
      // fresh workspace of that scope's owner, which the caller is not yet in.
      target: await teamToJoin(c).then(async ({ inviter, teamId }) => (await invitationToken(inviter, teamId, c.me.account.email)).token),
    }),
    url: (c) => `/api/invitations/${(c as { target?: string }).target}/accept`,
    own: EVERYONE(200),
    other: EVERYONE(200),
  },
  {
    key: "POST /api/invitations/[token]/register",
    prepare: async (c) => ({
      target: (await invitationToken(c.scope === "own" ? people.owner : people.owner2, teamOf(c), fresh("newcomer"))).token,
    }),
    url: (c) => `/api/invitations/${(c as { target?: string }).target}/register`,
    body: () => ({ name: "Newcomer", password: "a long newcomer password" }),
    own: EVERYONE(201),
    other: EVERYONE(201),
  },
  // Instance administration.
  { key: "GET /api/admin/users", url: () => "/api/admin/users?q=example", own: ADMIN_ONLY(200), userLevel: true },
  {
    key: "POST /api/admin/users",
    url: () => "/api/admin/users",
    body: () => ({ email: fresh("created") }),
    own: ADMIN_ONLY(201),
    userLevel: true,
  },
  {
    key: "PATCH /api/admin/users/[id]",
    prepare: async () => ({ target: await userByInvitation() }),
    url: (c) => `/api/admin/users/${(c as { target?: string }).target}`,
    body: () => ({ isAdmin: false, disabled: false }),
    own: ADMIN_ONLY(200),
    userLevel: true,
  },
  {
    key: "DELETE /api/admin/users/[id]",
    prepare: async () => ({ target: await userByInvitation() }),
    url: (c) => `/api/admin/users/${(c as { target?: string }).target}`,
    own: ADMIN_ONLY(204),
    userLevel: true,
  },
  {
    key: "POST /api/admin/users/[id]/password-reset",
    prepare: async () => ({ target: await userByInvitation() }),
    url: (c) => `/api/admin/users/${(c as { target?: string }).target}/password-reset`,
    own: ADMIN_ONLY(201),
    userLevel: true,
  },
  { key: "GET /api/admin/workspaces", url: () => "/api/admin/workspaces", own: ADMIN_ONLY(200), userLevel: true },
  // The server catalog (docs/catalog.md): instance administrators keep it, workspaces browse and add from it.
  { key: "GET /api/admin/catalog", url: () => "/api/admin/catalog", own: ADMIN_ONLY(200), userLevel: true },
  {
    key: "POST /api/admin/catalog/entries",
    url: () => "/api/admin/catalog/entries",
    body: () => ({ serverJson: { name: `com.example.matrix/p${++unique}`, description: "Matrix", version: "1.0.0" } }),
    own: ADMIN_ONLY(201),
    userLevel: true,
  },
  {
    key: "PATCH /api/admin/catalog/entries/[id]",
    prepare: async () => ({ target: await catalogEntry() }),
    url: (c) => `/api/admin/catalog/entries/${(c as { target?: string }).target}`,
    body: () => ({ status: "deprecated", statusMessage: "matrix" }),
    own: ADMIN_ONLY(200),
    userLevel: true,
  },
  {
    key: "DELETE /api/admin/catalog/entries/[id]",
    prepare: async () => ({ target: await catalogEntry() }),
    url: (c) => `/api/admin/catalog/entries/${(c as { target?: string }).target}`,
    own: ADMIN_ONLY(204),
    userLevel: true,
  },
  {
    key: "POST /api/admin/catalog/registries",
    url: () => "/api/admin/catalog/registries",
    body: () => ({ url: `https://r${++unique}.example.com` }),
    own: ADMIN_ONLY(201),
    userLevel: true,
  },
  {
    key: "PATCH /api/admin/catalog/registries/[id]",
    prepare: async () => ({ target: await catalogRegistry() }),
    url: (c) => `/api/admin/catalog/registries/${(c as { target?: string }).target}`,
    body: () => ({ mode: "filter", filter: "example" }),
    own: ADMIN_ONLY(200),
    userLevel: true,
  },
  {
    key: "DELETE /api/admin/catalog/registries/[id]",
    prepare: async () => ({ target: await catalogRegistry() }),
    url: (c) => `/api/admin/catalog/registries/${(c as { target?: string }).target}`,
    own: ADMIN_ONLY(204),
    userLevel: true,
  },
  {
    key: "GET /api/admin/catalog/registries/[id]/servers",
    prepare: async () => ({ target: await catalogRegistry() }),
    url: (c) => `/api/admin/catalog/registries/${(c as { target?: string }).target}/servers`,
    own: ADMIN_ONLY(502),
    userLevel: true,
  },
  {
    key: "POST /api/admin/catalog/registries/[id]/import",
    prepare: async () => ({ target: await catalogRegistry() }),
    url: (c) => `/api/admin/catalog/registries/${(c as { target?: string }).target}/import`,
    body: () => ({ names: ["com.example/none"] }),
    own: ADMIN_ONLY(502),
    userLevel: true,
  },
  {
    key: "POST /api/admin/catalog/registries/[id]/sync",
    prepare: async () => ({ target: await catalogRegistry() }),
    url: (c) => `/api/admin/catalog/registries/${(c as { target?: string }).target}/sync`,
    own: ADMIN_ONLY(502),
    userLevel: true,
  },
  { key: "GET /api/catalog", url: () => "/api/catalog?q=matrix", own: MEMBERS_OK(200) },
  {
    key: "POST /api/catalog/[id]/add",
    prepare: async () => ({ target: await catalogEntry() }),
    url: (c) => `/api/catalog/${(c as { target?: string }).target}/add`,
    body: () => ({ option: "remote.0", name: `c${++unique}`, credentials: "shared" }),
    own: MANAGERS_OK(201),
  },
  { key: "GET /api/admin/audit", url: () => "/api/admin/audit?action=member.role&limit=5", own: ADMIN_ONLY(200), userLevel: true },
  { key: "GET /api/admin/audit/export", url: () => "/api/admin/audit/export?action=member.role", own: ADMIN_ONLY(200), userLevel: true },
  // The instance's second-factor policies (set back to off: the suite's administrators have no factor).
  { key: "GET /api/admin/mfa-policy", url: () => "/api/admin/mfa-policy", own: ADMIN_ONLY(200), userLevel: true },
  {
    key: "PUT /api/admin/mfa-policy",
    url: () => "/api/admin/mfa-policy",
    body: () => ({ requiredForAdmins: false, requiredForEveryone: false }),
    own: ADMIN_ONLY(200),
    userLevel: true,
  },
  // Telemetry content capture (docs/telemetry.md#content-capture), set to off: it stays as it was.
  { key: "GET /api/admin/telemetry", url: () => "/api/admin/telemetry", own: ADMIN_ONLY(200), userLevel: true },
  { key: "GET /api/admin/replicas", url: () => "/api/admin/replicas", own: ADMIN_ONLY(200), userLevel: true },
  {
    key: "PUT /api/admin/telemetry",
    url: () => "/api/admin/telemetry",
    body: () => ({ captureContent: false }),
    own: ADMIN_ONLY(200),
    userLevel: true,
  },
  // Single sign-on (docs/sso.md): bodies that change nothing (an invalid one, an unknown provider, the mode off).
  { key: "GET /api/admin/sso-providers", url: () => "/api/admin/sso-providers", own: ADMIN_ONLY(200), userLevel: true },
  { key: "POST /api/admin/sso-providers", url: () => "/api/admin/sso-providers", body: () => ({}), own: ADMIN_ONLY(400), userLevel: true },
  {
    key: "PUT /api/admin/sso-providers/[id]",
    url: () => "/api/admin/sso-providers/no-such-provider",
    body: () => ({ issuer: "https://idp.example.com", clientId: "c", allowedDomains: [] }),
    own: ADMIN_ONLY(404),
    userLevel: true,
  },
  {
    key: "DELETE /api/admin/sso-providers/[id]",
    url: () => "/api/admin/sso-providers/no-such-provider",
    own: ADMIN_ONLY(404),
    userLevel: true,
  },
  { key: "GET /api/admin/sso-settings", url: () => "/api/admin/sso-settings", own: ADMIN_ONLY(200), userLevel: true },
  {
    key: "PUT /api/admin/sso-settings",
    url: () => "/api/admin/sso-settings",
    body: () => ({ ssoOnly: false, breakGlassEmail: null }),
    own: ADMIN_ONLY(200),
    userLevel: true,
  },
  {
    key: "POST /api/admin/users/[id]/sso-sync",
    prepare: async () => ({ target: await userByInvitation() }),
    url: (c) => `/api/admin/users/${(c as { target?: string }).target}/sso-sync`,
    own: ADMIN_ONLY(200),
    userLevel: true,
  },
  // The caller's own second factors: starting an enrolment stores only a pending, unconfirmed secret.
  { key: "GET /api/account/factors", url: () => "/api/account/factors", own: EVERYONE(200), userLevel: true },
  { key: "POST /api/account/factors/totp", url: () => "/api/account/factors/totp", body: () => ({}), own: EVERYONE(200), userLevel: true },
  {
    key: "POST /api/account/factors/totp/confirm",
    url: () => "/api/account/factors/totp/confirm",
    body: () => ({ factorId: "no-such-factor", code: "000000" }),
    own: EVERYONE(404),
    userLevel: true,
  },
  {
    key: "DELETE /api/account/factors/[id]",
    url: () => "/api/account/factors/no-such-factor",
    body: () => ({ code: "000000" }),
    own: EVERYONE(404),
    userLevel: true,
  },
  // Passkeys: options carry a fresh single-use challenge; an answer to no challenge is refused.
  {
    key: "POST /api/account/factors/passkey",
    url: () => "/api/account/factors/passkey",
    body: () => ({}),
    own: EVERYONE(200),
    userLevel: true,
  },
  {
    key: "POST /api/account/factors/passkey/confirm",
    url: () => "/api/account/factors/passkey/confirm",
    body: () => ({ response: { id: "AA", rawId: "AA", type: "public-key", response: { clientDataJSON: "AA", attestationObject: "AA" } } }),
    own: EVERYONE(400),
    userLevel: true,
  },
  {
    key: "POST /api/account/reauth/passkey",
    url: () => "/api/account/reauth/passkey",
    body: () => ({}),
    own: EVERYONE(200),
    userLevel: true,
  },
  // Public by design (nobody is signed in yet): the options of a passkey sign-in.
  {
    key: "POST /api/auth/passkey",
    url: () => "/api/auth/passkey",
    body: () => ({ purpose: "sign-in" }),
    own: EVERYONE(200),
    userLevel: true,
  },
  // Password recovery is public by design: the suite's instance sends no mail, and a link nobody
  // issued is unknown to everyone.
  {
    key: "POST /api/auth/forgot-password",
    url: () => "/api/auth/forgot-password",
    body: () => ({ email: "nobody@example.com" }),
    own: EVERYONE(404),
    userLevel: true,
  },
  {
    key: "POST /api/password-reset/[token]",
    url: () => "/api/password-reset/no-such-link",
    body: () => ({ password: "a long enough new password 42" }),
    own: EVERYONE(404),
    userLevel: true,
  },
  { key: "POST /api/account/reauth", url: () => "/api/account/reauth", body: () => ({}), own: EVERYONE(400), userLevel: true },
  // The caller's own account (not workspace data). Signing out everywhere ends every session of the
  // caller, so it is the last row: each actor's next request (the other scope) is a 401.
  { key: "POST /api/account/password", url: () => "/api/account/password", body: () => ({}), own: EVERYONE(400), userLevel: true },
  // Personal access tokens: made only for a workspace the caller belongs to; another user's id is unknown.
  { key: "GET /api/account/tokens", url: () => "/api/account/tokens", own: EVERYONE(200), userLevel: true },
  {
    key: "POST /api/account/tokens",
    url: () => "/api/account/tokens",
    body: (c) => ({ name: `matrix ${c.actor}`, workspaceId: c.workspaceId, scopes: ["api:read"], expiresInDays: 7 }),
    own: MEMBERS_OK(201),
  },
  { key: "DELETE /api/account/tokens/[id]", url: () => "/api/account/tokens/no-such-token", own: EVERYONE(404), userLevel: true },
  // The OAuth clients a user allowed on the gateway's endpoints: only their own; another id is 404.
  { key: "GET /api/account/oauth-clients", url: () => "/api/account/oauth-clients", own: EVERYONE(200), userLevel: true },
  {
    key: "DELETE /api/account/oauth-clients/[id]",
    url: () => "/api/account/oauth-clients/no-such-grant",
    own: EVERYONE(404),
    userLevel: true,
  },
  { key: "DELETE /api/account/sessions", url: () => "/api/account/sessions", own: EVERYONE(200), other: EVERYONE(401) },
];

/** Routes deliberately outside the matrix, with the reason. */
const EXCLUDED: Record<string, string> = {
  "GET /api/auth/[...nextauth]": "next-auth's own sign-in endpoints (covered by every sign-in)",
  "POST /api/auth/[...nextauth]": "next-auth's own sign-in endpoints (covered by every sign-in)",
};

function teamOf(c: Cell): string {
  return c.scope === "own" ? teams.own.id : teams.other.id;
}

/** A new account that joined the workspace as a member through its invitation link; returns its id. */
async function joinedVictim(workspaceId: string): Promise<string> {
  const email = fresh("member-victim");
  const { token } = await invitationToken(people.owner, workspaceId, email);
  const registered = await people.owner.api.post(`/api/invitations/${token}/register`, {
    data: { name: "Victim", password: "a long victim password" },
    ...SETUP,
  });
  expect(registered.status()).toBe(201);
  return ((await registered.json()) as { id: string }).id;
}

/** Every `METHOD /api/...` the app serves, read from the route files. */
function discoverRoutes(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const text = fs.readFileSync(full, "utf8");
        const methods = new Set<string>();
        for (const m of text.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g)) methods.add(m[1]);
        for (const m of text.matchAll(/\bas (GET|POST|PUT|PATCH|DELETE)\b/g)) methods.add(m[1]);
        const routePath = `/${path.relative("app", path.dirname(full)).split(path.sep).join("/")}`;
        for (const method of methods) found.push(`${method} ${routePath}`);
      }
    }
  };
  walk("app/api");
  return found.sort();
}

async function send(api: APIRequestContext, method: string, url: string, workspaceId: string, body: unknown): Promise<APIResponse> {
  const options = { headers: { "x-workspace-id": workspaceId }, ...(body === undefined ? {} : { data: body }), maxRedirects: 0 };
  return api.fetch(url, { method, ...options });
}

test("every route under app/api has a row", () => {
  const keys = ROUTES.map((r) => r.key).concat(Object.keys(EXCLUDED));
  expect(new Set(keys).size).toBe(keys.length);
  expect(keys.sort()).toEqual(discoverRoutes());
});

test("role matrix: every route × role × own/other workspace", async ({ browser, everything }) => {
  everythingUrl = everything.url;
  people.owner = await signedUp(browser, "m-owner");
  people.admin = await signedUp(browser, "m-admin");
  people.member = await signedUp(browser, "m-member");
  people.nonMember = await signedUp(browser, "m-outsider");
  people.owner2 = await signedUp(browser, "m-owner2");
  people.instanceAdmin = await signedInAdmin(browser);

  const own = await createTeam(people.owner, "Matrix team");
  await addMember(people.owner, own.id, people.admin, "admin");
  await addMember(people.owner, own.id, people.member, "member");
  const other = await createTeam(people.owner2, "Other team");
  teams.own = { id: own.id, serverId: await newServer(people.owner, own.id, "everything"), victimId: await joinedVictim(own.id) };
  teams.other = { id: other.id, serverId: await newServer(people.owner2, other.id, "everything"), victimId: "" };
  for (const who of [people.owner, people.admin, people.member]) chats.set(`${own.id}:${who.id}`, await newChat(who, own.id));
  chats.set(`${other.id}:${people.owner2.id}`, await newChat(people.owner2, other.id));
  teams.other.victimId = people.owner2.id;

  const failures: string[] = [];
  let cells = 0;
  for (const route of ROUTES) {
    const [method] = route.key.split(" ");
    for (const scope of ["own", "other"] as const) {
      const expected = scope === "own" ? route.own : (route.other ?? (route.userLevel ? route.own : NOT_FOUND));
      for (const [index, actor] of ACTORS.entries()) {
        const team = teams[scope];
        const ownerOfTeam = scope === "own" ? people.owner : people.owner2;
        const me = people[actor];
        let cell: Cell & { target?: string } = {
          actor,
          scope,
          me,
          workspaceId: team.id,
          serverId: team.serverId,
          chatId: chats.get(`${team.id}:${me.id}`) ?? (chats.get(`${team.id}:${ownerOfTeam.id}`) as string),
          victimId: team.victimId,
        };
        if (route.prepare) cell = { ...cell, ...(await route.prepare(cell)) };
        const response = await send(me.api, method, route.url(cell), cell.workspaceId, route.body?.(cell));
        cells++;
        if (response.status() !== expected[index]) {
          failures.push(
            `${route.key} [${actor}, ${scope}]: expected ${expected[index]}, got ${response.status()} ${(await response.text()).slice(0, 160)}`,
          );
        }
      }
    }
  }
  expect(failures, failures.join("\n")).toEqual([]);
  expect(cells).toBe(ROUTES.length * ACTORS.length * 2);
  console.log(`role matrix: ${ROUTES.length} routes × ${ACTORS.length} roles × 2 workspaces = ${cells} cells`);
});
