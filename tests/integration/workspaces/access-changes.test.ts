/**
 * Lost access explained on the API, over a real SQLite file, real session cookies and the app's own
 * proxy and route handlers: a removed member gets `workspace.removed` naming who removed them and
 * when, a demoted admin `workspace.role_changed`, a disabled account `auth.account_disabled`;
 * someone who never was a member still learns nothing (`workspace.not_found`). The person's open
 * pages hear of each membership change on their event stream.
 */
import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { upsertMembership } from "@/db/queries/memberships";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { verifyCredentials } from "@/lib/auth/credentials";
import { nextAuthSecret } from "@/lib/auth/options";
import { startSession } from "@/lib/auth/sessions";
import { McpPool } from "@/lib/mcp";
import { type LiveEvent, statusEvents } from "@/lib/runtime/status-events";
import { adminUpdateUser } from "@/lib/workspaces/admin";
import { changeMemberRole, removeMember } from "@/lib/workspaces/members";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { actorIn, person, type Person, recordingEffects, team } from "./helpers";

// Route modules and the session reader are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const ORIGIN = "http://localhost:3000";
const PASSWORD = "a long enough password";
let dir: string;
let ada: Person;
let bob: Person;
let cleo: Person;
let stranger: Person;
let teamId: string;
let teamSlug: string;
const pool = new McpPool();
const cookies = new Map<string, string>();
const WHEN_LOWERED = /^Your role in Acme was changed from admin to member by ada on \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC\. /;

async function sessionCookie(user: Person): Promise<string> {
  const sid = await startSession(getDb(), user.id);
  const token = await encode({ token: { sub: user.id, sid }, secret: nextAuthSecret() });
  return `next-auth.session-token=${token}`;
}

// The request a route receives for `path` after proxy.ts (as in api-paths.test.ts).
async function throughProxy(path: string, cookie: string | undefined, init: { method?: string; body?: string } = {}): Promise<Request> {
  const { proxy } = await import("@/proxy");
  const headers: Record<string, string> = { host: "localhost:3000", ...(cookie ? { cookie } : {}) };
  if (init.body) Object.assign(headers, { "content-type": "application/json", origin: ORIGIN });
  const incoming = new NextRequest(new URL(path, ORIGIN), { method: init.method, headers });
  const answer = proxy(incoming);
  const forwarded = new Headers();
  for (const name of answer.headers.get("x-middleware-override-headers")?.split(",") ?? [])
    forwarded.set(name, answer.headers.get(`x-middleware-request-${name}`) ?? "");
  return new Request(answer.headers.get("x-middleware-rewrite") ?? incoming.url, {
    method: init.method,
    headers: forwarded,
    body: init.body,
  });
}

async function listServers(who: Person | null, slug = teamSlug) {
  const { GET } = await import("@/app/api/servers/route");
  const response = await GET(await throughProxy(`/api/w/${slug}/servers`, who ? cookies.get(who.id) : undefined));
  return { status: response.status, ...((await response.json()) as { code?: string; message?: string }) };
}

async function join(user: Person, role: "owner" | "admin" | "member") {
  await upsertMembership(getDb(), { workspaceId: teamId, userId: user.id, role });
}

function listen(user: Person): LiveEvent[] {
  const seen: LiveEvent[] = [];
  statusEvents().subscribe(user.id, (event) => seen.push(event));
  return seen;
}

beforeAll(async () => {
  dir = useTempDataDir();
  ada = await person("ada@example.com"); // the first account: instance administrator
  bob = await person("bob@example.com");
  cleo = await person("cleo@example.com");
  stranger = await person("stranger@example.com");
  teamId = await team(ada, "Acme");
  teamSlug = (await getWorkspaceById(getDb(), teamId))!.slug!;
  for (const who of [ada, bob, cleo, stranger]) cookies.set(who.id, await sessionCookie(who));
});
afterAll(async () => {
  await pool.closeAll();
  removeTempDataDir(dir);
});

describe("access changes explained", () => {
  it("a removed member is told who removed them and when; a stranger still gets a plain 404", async () => {
    await join(bob, "member");
    expect(await listServers(bob)).toMatchObject({ status: 200 });
    const { effects } = recordingEffects(pool);
    await removeMember(getDb(), await actorIn(ada, teamId), bob.id, effects);

    const refused = await listServers(bob);
    expect(refused).toMatchObject({ status: 403, code: "workspace.removed" });
    expect(refused.message).toMatch(/^You were removed from Acme by ada on \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC\./);
    expect(await listServers(stranger)).toMatchObject({ status: 404, code: "workspace.not_found", message: "No such workspace." });
    expect(await listServers(bob, "no-such-team")).toMatchObject({ status: 404, code: "workspace.not_found" });
    // The rest of bob's access is untouched.
    expect(await listServers(bob, "personal")).toMatchObject({ status: 200 });
  });

  it("the membership use cases tell the person's open pages (removal, role change, joining)", async () => {
    await join(cleo, "admin");
    const events = listen(cleo);
    const others = listen(stranger);
    const { setMemberRole, removeWorkspaceMember } = await import("@/lib/use-cases/workspaces");
    // A real session, just signed in: a role change needs a recent sign-in (lib/auth/reauth.ts).
    const owner = {
      ...(await actorIn(ada, teamId)),
      email: ada.email,
      name: ada.name,
      isAdmin: true,
      sessionId: await startSession(getDb(), ada.id),
    };
    await setMemberRole(owner, cleo.id, "admin"); // a promotion: the list changes, nothing to explain
    await setMemberRole(owner, cleo.id, "member");
    await removeWorkspaceMember(owner, cleo.id);
    expect(events).toEqual([
      { type: "membership", workspaceId: teamId },
      {
        type: "membership",
        workspaceId: teamId,
        notice: { code: "workspace.role_changed", message: expect.stringMatching(WHEN_LOWERED) },
      },
      { type: "membership", workspaceId: teamId },
    ]);
    expect(others).toEqual([]);
    await join(cleo, "member"); // back, for the next test
  });

  it("deleting a workspace tells every other member's open pages who deleted it and when", async () => {
    const { newWorkspace, removeWorkspace, myWorkspaces } = await import("@/lib/use-cases/workspaces");
    const doomed = await newWorkspace(ada.id, "Doomed");
    await upsertMembership(getDb(), { workspaceId: doomed.id, userId: bob.id, role: "member" });
    const [adaSees, bobSees, strangerSees] = [listen(ada), listen(bob), listen(stranger)];
    const owner = { ...(await actorIn(ada, doomed.id)), email: ada.email, name: ada.name, isAdmin: true, sessionId: "test" };
    await removeWorkspace(owner);
    expect(bobSees).toEqual([
      {
        type: "membership",
        workspaceId: doomed.id,
        notice: {
          code: "workspace.deleted",
          message: expect.stringMatching(
            /^Doomed was deleted by ada on \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC, with its servers and chats\./,
          ),
        },
      },
    ]);
    // The owner who deleted it only has their list refreshed; someone outside hears nothing.
    expect(adaSees).toEqual([{ type: "membership", workspaceId: doomed.id }]);
    expect(strangerSees).toEqual([]);
    expect((await myWorkspaces(bob.id)).some((w) => w.id === doomed.id)).toBe(false);
  });

  it("someone who left is told so, not that they were removed", async () => {
    await join(stranger, "member");
    const { effects } = recordingEffects(pool);
    await removeMember(getDb(), await actorIn(stranger, teamId), stranger.id, effects);
    const refused = await listServers(stranger);
    expect(refused).toMatchObject({ status: 403, code: "workspace.removed" });
    expect(refused.message).toMatch(/^You left Acme on /);
  });

  it("a demoted admin is told who changed their role; a member who never had it gets auth.forbidden", async () => {
    await join(bob, "admin");
    const { effects } = recordingEffects(pool);
    await changeMemberRole(getDb(), await actorIn(ada, teamId), bob.id, "member", effects);
    const { POST } = await import("@/app/api/servers/test/route");
    const attempt = async (who: Person) => {
      const body = JSON.stringify({ config: { url: "https://mcp.example.com/mcp" } });
      const response = await POST(await throughProxy(`/api/w/${teamSlug}/servers/test`, cookies.get(who.id), { method: "POST", body }));
      return { status: response.status, ...((await response.json()) as { code?: string; message?: string }) };
    };
    const demoted = await attempt(bob);
    expect(demoted).toMatchObject({ status: 403, code: "workspace.role_changed" });
    expect(demoted.message).toMatch(/^Your role in Acme was changed from admin to member by ada on .+ UTC; this needs the admin role\./);
    expect(await attempt(cleo)).toMatchObject({ status: 403, code: "auth.forbidden" });
  });

  it("a disabled account's own session is told so; a request without it is only unauthorized", async () => {
    const { effects } = recordingEffects(pool);
    const admin = { ...ada, isAdmin: true, workspaceId: ada.personalWorkspaceId, sessionId: "test" };
    await adminUpdateUser(getDb(), admin, cleo.id, { disabled: true }, effects);
    expect(await listServers(cleo, "personal")).toMatchObject({
      status: 403,
      code: "auth.account_disabled",
      message: "Your account is disabled; ask an administrator to enable it again.",
    });
    expect(await listServers(null, "personal")).toMatchObject({ status: 401, code: "auth.unauthorized" });

    // At sign-in only the right password learns the account is disabled.
    expect(await verifyCredentials(getDb(), cleo.email, PASSWORD)).toEqual({ outcome: "disabled" });
    expect(await verifyCredentials(getDb(), cleo.email, "not the password at all")).toEqual({ outcome: "wrong" });
    expect(await verifyCredentials(getDb(), "nobody@example.com", PASSWORD)).toEqual({ outcome: "wrong" });

    await adminUpdateUser(getDb(), admin, cleo.id, { disabled: false }, effects);
    expect(await verifyCredentials(getDb(), cleo.email, PASSWORD)).toMatchObject({ outcome: "ok", user: { id: cleo.id } });
  });
});
