/**
 * Workspace-scoped API paths through the app's own pieces, over a real SQLite file and a real
 * session cookie: proxy.ts takes the request apart exactly as Next then hands it on (the rewrite
 * and the overridden request headers), and the route handler answers. `/api/w/<team>/servers`
 * lists the team's servers, a workspace the caller is no member of is a 404, the path wins over
 * `x-workspace-id`, and a client cannot name the path's workspace through the internal header.
 */
import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { createServer } from "@/db/queries/servers";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { nextAuthSecret } from "@/lib/auth/options";
import { startSession } from "@/lib/auth/sessions";
import { parseServerConfig } from "@/lib/mcp/config";
import { WORKSPACE_PATH_HEADER } from "@/lib/workspaces/api-path";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { person, type Person, team } from "./helpers";

// Route modules and the session reader are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const ORIGIN = "http://localhost:3000";
let dir: string;
let owner: Person;
let outsider: Person;
let teamId: string;
let teamSlug: string;
const cookies = new Map<string, string>();

async function sessionCookie(user: Person): Promise<string> {
  const sid = await startSession(getDb(), user.id);
  const token = await encode({ token: { sub: user.id, sid }, secret: nextAuthSecret() });
  return `next-auth.session-token=${token}`;
}

/** The request a route receives for `path` after proxy.ts, as Next builds it from the proxy's answer. */
async function throughProxy(path: string, who: Person, headers: Record<string, string> = {}): Promise<Request> {
  const { proxy } = await import("@/proxy");
  const incoming = new NextRequest(new URL(path, ORIGIN), {
    headers: { host: "localhost:3000", cookie: cookies.get(who.id)!, ...headers },
  });
  const answer = proxy(incoming);
  const overridden = answer.headers.get("x-middleware-override-headers");
  expect(overridden).not.toBeNull(); // the proxy always sets the request's headers
  const forwarded = new Headers();
  for (const name of overridden!.split(",")) forwarded.set(name, answer.headers.get(`x-middleware-request-${name}`) ?? "");
  return new Request(answer.headers.get("x-middleware-rewrite") ?? incoming.url, { headers: forwarded });
}

async function listed(path: string, who: Person, headers: Record<string, string> = {}) {
  const { GET } = await import("@/app/api/servers/route");
  const response = await GET(await throughProxy(path, who, headers));
  const body = (await response.json()) as { servers?: { name: string }[]; code?: string };
  return { status: response.status, names: body.servers?.map((s) => s.name).sort(), code: body.code };
}

async function addServer(workspaceId: string, name: string, by: Person): Promise<void> {
  await createServer(getDb(), {
    workspaceId,
    name,
    config: parseServerConfig({ url: "https://mcp.example.com/mcp" }, name),
    createdBy: by.id,
  });
}

beforeAll(async () => {
  dir = useTempDataDir();
  owner = await person("owner@example.com");
  outsider = await person("outsider@example.com");
  teamId = await team(owner, "Paths Team");
  teamSlug = (await getWorkspaceById(getDb(), teamId))!.slug!;
  await addServer(teamId, "team-one", owner);
  await addServer(teamId, "team-two", owner);
  await addServer(owner.personalWorkspaceId, "mine", owner);
  await addServer(outsider.personalWorkspaceId, "outsiders", outsider);
  for (const who of [owner, outsider]) cookies.set(who.id, await sessionCookie(who));
});
afterAll(() => removeTempDataDir(dir));

describe("workspace-scoped API paths", () => {
  it("/api/w/<team>/servers lists the team's servers; /api/w/personal/servers the caller's own", async () => {
    expect(await listed(`/api/w/${teamSlug}/servers`, owner)).toMatchObject({ status: 200, names: ["team-one", "team-two"] });
    expect(await listed("/api/w/personal/servers", owner)).toMatchObject({ status: 200, names: ["mine"] });
    expect(await listed("/api/w/personal/servers", outsider)).toMatchObject({ status: 200, names: ["outsiders"] });
  });

  it("a workspace the caller is no member of is a 404, for reads and writes alike", async () => {
    expect(await listed(`/api/w/${teamSlug}/servers`, outsider)).toEqual({ status: 404, names: undefined, code: "workspace.not_found" });
    expect(await listed("/api/w/no-such-team/servers", owner)).toMatchObject({ status: 404, code: "workspace.not_found" });
    const { POST } = await import("@/app/api/servers/route");
    const request = await throughProxy(`/api/w/${teamSlug}/servers`, outsider, { "content-type": "application/json" });
    const write = await POST(
      new Request(request.url, {
        method: "POST",
        headers: request.headers,
        body: JSON.stringify({ name: "planted", config: { url: "https://x.example/mcp" } }),
      }),
    );
    expect(write.status).toBe(404);
    expect(await listed(`/api/w/${teamSlug}/servers`, owner)).toMatchObject({ names: ["team-one", "team-two"] });
  });

  it("the path's workspace wins over x-workspace-id; the header alone still names one (scripts)", async () => {
    expect(await listed("/api/w/personal/servers", owner, { "x-workspace-id": teamId })).toMatchObject({ names: ["mine"] });
    expect(await listed(`/api/w/${teamSlug}/servers`, owner, { "x-workspace-id": owner.personalWorkspaceId })).toMatchObject({
      names: ["team-one", "team-two"],
    });
    expect(await listed("/api/servers", owner, { "x-workspace-id": teamId })).toMatchObject({ names: ["team-one", "team-two"] });
    expect(await listed("/api/servers", owner)).toMatchObject({ names: ["mine"] });
    // A path naming a workspace the caller is not in is a 404 even with a header naming their own.
    expect(await listed(`/api/w/${teamSlug}/servers`, outsider, { "x-workspace-id": outsider.personalWorkspaceId })).toMatchObject({
      status: 404,
    });
  });

  it("the internal header a client sends is dropped: only the path names the path's workspace", async () => {
    expect(await listed("/api/servers", owner, { [WORKSPACE_PATH_HEADER]: teamSlug })).toMatchObject({ names: ["mine"] });
    expect(await listed("/api/w/personal/servers", owner, { [WORKSPACE_PATH_HEADER]: teamSlug })).toMatchObject({ names: ["mine"] });
  });

  it("export under the team's path downloads the team's servers, not the personal ones", async () => {
    const { GET } = await import("@/app/api/servers/export/route");
    const response = await GET(await throughProxy(`/api/w/${teamSlug}/servers/export?format=yaml`, owner));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain("team-one");
    expect(text).toContain("team-two");
    expect(text).not.toContain("mine");
  });
});
