/**
 * Instance administration over a real SQLite file and a real MCP server: disabling a user signs
 * them out and closes their live sessions at once, admin rights keep at least one administrator,
 * deleting removes personal data, and the audit log filters and pages without secrets.
 */
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createServer, getServerById, setSharedCredentialsUserId, toServerDefinition } from "@/db/queries/servers";
import { createWorkspace } from "@/lib/workspaces/service";
import { getUserById } from "@/db/queries/users";
import { getWorkspaceById } from "@/db/queries/workspaces";
import { McpPool } from "@/lib/mcp";
import { parseServerConfig } from "@/lib/mcp/config";
import { adminDeleteUser, adminInviteUser, adminListUsers, adminUpdateUser, auditPage } from "@/lib/workspaces/admin";
import { registerWithInvitation } from "@/lib/workspaces/invitations";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { FIXTURES, freePort, startHttpServer, stopProcess } from "../mcp/helpers";
import { person, recordingEffects, type Person } from "./helpers";

let dir: string;
let admin: Person;
let alice: Person;
let sessions: ChildProcess | undefined;
let base = "";
const pool = new McpPool();

beforeAll(async () => {
  dir = useTempDataDir();
  admin = await person("root@example.com"); // the first account is the instance administrator
  alice = await person("alice@example.com");
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  sessions = await startHttpServer([path.join(FIXTURES, "session-http-server.mjs")], { PORT: String(port) }, `${base}/stats`);
});
afterAll(async () => {
  await pool.closeAll();
  await stopProcess(sessions);
  removeTempDataDir(dir);
});

describe("instance administration", () => {
  it("disabling a user signs them out and closes their live sessions now", async () => {
    const record = await createServer(getDb(), {
      workspaceId: alice.personalWorkspaceId,
      name: "live",
      config: parseServerConfig({ url: `${base}/mcp` }, "live"),
      createdBy: alice.id,
    });
    const server = await toServerDefinition(getDb(), record);
    expect((await pool.session(alice.id, server).callTool("echo", { message: "hi" })).isError).toBe(false);
    const stats = async () => (await (await fetch(`${base}/stats`)).json()) as { deletes: number };
    const before = (await stats()).deletes;

    const { effects, calls } = recordingEffects(pool);
    await adminUpdateUser(getDb(), admin, alice.id, { disabled: true }, effects);
    expect(await getUserById(getDb(), alice.id)).toBeNull(); // every session check now fails
    expect((await stats()).deletes).toBe(before + 1);
    expect(calls.stopped).toContainEqual([alice.id, null]);
    expect((await adminListUsers(getDb(), "alice")).users[0]).toMatchObject({ email: "alice@example.com", disabledAt: expect.any(String) });

    await adminUpdateUser(getDb(), admin, alice.id, { disabled: false }, effects);
    expect((await getUserById(getDb(), alice.id))?.email).toBe("alice@example.com");
  });

  it("keeps at least one administrator and never acts on the caller's own account", async () => {
    const { effects } = recordingEffects(pool);
    await expect(adminUpdateUser(getDb(), admin, admin.id, { isAdmin: false }, effects)).rejects.toMatchObject({
      code: "user.self_action",
    });
    await adminUpdateUser(getDb(), admin, alice.id, { isAdmin: true }, effects);
    expect((await getUserById(getDb(), alice.id))?.isAdmin).toBe(true);
    await adminUpdateUser(getDb(), admin, alice.id, { isAdmin: false }, effects);
    expect((await getUserById(getDb(), alice.id))?.isAdmin).toBe(false);
  });

  it("creates a user through a single-use invitation link and deletes them with their personal data", async () => {
    const link = await adminInviteUser(getDb(), admin, "carol@example.com", "http://app.test");
    await expect(adminInviteUser(getDb(), admin, "alice@example.com", "http://app.test")).rejects.toThrow(
      expect.objectContaining({ code: "auth.email_taken" }),
    );
    const carol = await registerWithInvitation(getDb(), link.token, { name: "Carol", password: "a long enough password" });
    expect(carol.workspaceId).toBeNull();
    const davePerson = await person("dave@example.com");
    const personal = davePerson.personalWorkspaceId;
    const dave = (await adminListUsers(getDb(), "dave")).users[0];
    // Dave's account backs a shared server in someone else's team: deleting him must still work.
    const team = (await createWorkspace(getDb(), admin.id, "Shared team")).id;
    const shared = await createServer(getDb(), {
      workspaceId: team,
      name: "shared",
      config: parseServerConfig({ url: `${base}/mcp`, credentials: "shared" }, "shared"),
      createdBy: admin.id,
    });
    await setSharedCredentialsUserId(getDb(), shared, dave.id);
    const { effects, calls } = recordingEffects(pool);
    await adminDeleteUser(getDb(), admin, dave.id, effects);
    expect(calls.closed).toContainEqual([null, [shared.id]]);
    expect((await getServerById(getDb(), shared))?.sharedCredentialsUserId).toBeNull();
    expect(await getUserById(getDb(), dave.id)).toBeNull();
    expect(await getWorkspaceById(getDb(), personal)).toBeNull();
  });

  it("the audit log filters by user and action, pages, and holds no secret", async () => {
    const disabled = await auditPage(getDb(), { action: "user.disable" });
    expect(disabled.entries).toHaveLength(1);
    expect(disabled.entries[0]).toMatchObject({ actorEmail: "root@example.com", target: alice.id });
    const byAdmin = await auditPage(getDb(), { user: admin.id, limit: 2 });
    expect(byAdmin.entries).toHaveLength(2);
    expect(byAdmin.nextBefore).not.toBeNull();
    const older = await auditPage(getDb(), { user: admin.id, limit: 2, before: byAdmin.nextBefore ?? undefined });
    expect(older.entries[0].id).toBeLessThan(byAdmin.entries[1].id);
    expect(JSON.stringify(await auditPage(getDb(), { limit: 200 }))).not.toMatch(/password|token_hash/);
  });
});
