import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { getDb } from "@/db/client";
import { all } from "@/db/exec";
import { mcpServers, users } from "@/db/schema";
import { getServerById, toServerDefinition } from "@/db/queries/servers";
import { registerUser } from "@/lib/auth/register";
import { registerTestUser } from "../../helpers/register";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { AppError } from "@/lib/errors";
import { newServerSchema } from "@/lib/servers/input";
import { addServer, changeServer, getServer, listServers, removeServer, type Actor } from "@/lib/servers/service";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { onSqliteRun } from "../../helpers/test-database-kind.mjs";

let dir: string;
let alice: Actor;
let bob: Actor;

async function signUp(email: string): Promise<Actor> {
  const db = getDb();
  const user = await registerTestUser(db, { email, password: "a long enough password", name: email.split("@")[0] });
  return { id: user.id, isAdmin: user.isAdmin, workspaceId: (await getPersonalWorkspaceId(db, user.id))! };
}

// Async: the service functions return promises, so their AppError arrives as a rejection.
async function errorOf(fn: () => unknown): Promise<AppError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

beforeAll(async () => {
  dir = useTempDataDir();
  alice = await signUp("alice@example.com");
  bob = await signUp("bob@example.com");
});
afterAll(() => removeTempDataDir(dir));

describe("database", () => {
  // The SQLite file itself (the Postgres migrations: db-schema-parity, db-migrate-postgres).
  it.runIf(onSqliteRun)("migrates an empty database file with every table and WAL on", () => {
    const sqlite = new Database(path.join(dir, "switchboard.db"), { readonly: true });
    const tables = sqlite
      .prepare("select name from sqlite_master where type = 'table'")
      .all()
      .map((r) => (r as { name: string }).name);
    expect(tables).toEqual(
      expect.arrayContaining([
        "users",
        "workspaces",
        "memberships",
        "mcp_servers",
        "server_credentials",
        "oauth_states",
        "chats",
        "messages",
        "user_settings",
        "tool_policies",
        "audit_log",
        "instance_meta",
        "__drizzle_migrations",
      ]),
    );
    expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    sqlite.close();
  });

  it("keeps the generated key in the data directory with mode 0600", () => {
    expect(fs.statSync(path.join(dir, "secret.key")).mode & 0o777).toBe(0o600);
  });
});

describe("registration", () => {
  it("makes the first user the instance admin, later ones not", () => {
    expect(alice.isAdmin).toBe(true);
    expect(bob.isAdmin).toBe(false);
  });

  it("does not reveal a taken email to self sign-up (no account made), but tells an admin (409), case-insensitively", async () => {
    // $count: the same on both databases (a raw count(*) is a string on Postgres).
    const count = async () => await getDb().$count(users);
    const before = await count();
    await expect(registerUser(getDb(), { email: "ALICE@example.com", password: "another long password", name: "A" })).resolves.toBeNull();
    expect(await count()).toBe(before);
    await expect(
      registerUser(getDb(), { email: "ALICE@example.com", password: "another long password", name: "A" }, { byAdmin: true }),
    ).rejects.toMatchObject({ code: "auth.email_taken", status: 409 });
  });

  it("refuses a weak password (400) naming the field", async () => {
    await expect(registerUser(getDb(), { email: "c@example.com", password: "short", name: "C" })).rejects.toMatchObject({
      code: "auth.weak_password",
      status: 400,
      field: "password",
    });
  });

  it("refuses sign-up when registration is closed, unless an admin adds the user", async () => {
    process.env.SWITCHBOARD_REGISTRATION = "closed";
    try {
      await expect(registerUser(getDb(), { email: "d@example.com", password: "a long enough password", name: "D" })).rejects.toMatchObject({
        code: "auth.registration_closed",
        status: 403,
      });
      const added = await registerUser(
        getDb(),
        { email: "d@example.com", password: "a long enough password", name: "D" },
        { byAdmin: true },
      );
      expect(added?.email).toBe("d@example.com");
    } finally {
      delete process.env.SWITCHBOARD_REGISTRATION;
    }
  });
});

describe("server configs are per workspace", () => {
  it("stores header secrets encrypted and returns them masked", async () => {
    const db = getDb();
    const record = await addServer(db, alice, {
      name: "remote",
      config: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer sk-test-0123456789abcdef" } },
    });
    expect(record.config.headers).toEqual({ Authorization: "********" });
    // The stored row, as the database holds it (either dialect).
    const dump = JSON.stringify(await all(db.select().from(mcpServers)));
    expect(dump).toContain(record.id);
    expect(dump).not.toContain("sk-test-0123456789abcdef");
  });

  it("hides one user's server from another: read, change and delete are 404", async () => {
    const db = getDb();
    const record = await addServer(db, alice, { name: "private", config: { url: "https://a.example.com/mcp" } });
    expect((await errorOf(async () => await getServer(db, bob, record.id))).status).toBe(404);
    expect((await errorOf(async () => await changeServer(db, bob, record.id, { name: "stolen" }))).status).toBe(404);
    expect((await errorOf(async () => await removeServer(db, bob, record.id))).status).toBe(404);
    expect((await getServerById(db, { id: record.id, workspaceId: alice.workspaceId }))?.name).toBe("private");
    expect((await listServers(db, bob)).map((s) => s.name)).not.toContain("private");
  });

  it("lets only the instance admin create or change stdio servers (403 otherwise)", async () => {
    const db = getDb();
    const error = await errorOf(async () => await addServer(db, bob, { name: "local", config: { command: "node", args: ["x.js"] } }));
    expect(error.status).toBe(403);
    expect(error.field).toBe("command");
    const bobs = await addServer(db, bob, { name: "web", config: { url: "https://b.example.com/mcp" } });
    expect((await errorOf(async () => await changeServer(db, bob, bobs.id, { config: { command: "sh" } }))).status).toBe(403);
    const record = await addServer(db, alice, { name: "local", config: { command: "node", args: ["x.js"], env: { TOKEN: "abcd1234" } } });
    expect(record.transport).toBe("stdio");
    expect(record.config.env).toEqual({ TOKEN: "********" });
  });

  it("rejects bad configs with 400 naming the field", async () => {
    const db = getDb();
    const cases: Array<[unknown, string]> = [
      [{ name: "both", config: { command: "x", url: "https://x.example" } }, "config.url"],
      [{ name: "neither", config: {} }, "config.command"],
      [{ name: "unknown", config: { url: "https://x.example", colour: "red" } }, "config.colour"],
      [{ name: "types", config: { url: "https://x.example", timeout: "soon" } }, "config.timeout"],
      [{ name: "bad name!", config: { url: "https://x.example" } }, "name"],
    ];
    for (const [body, field] of cases) {
      // Parsed at the boundary, as the route does (lib/servers/input.ts), then saved.
      const error = await errorOf(async () => await addServer(db, alice, newServerSchema.parse(body)));
      expect(error.status, JSON.stringify(body)).toBe(400);
      expect(error.field, JSON.stringify(body)).toBe(field);
    }
    expect(await errorOf(async () => await addServer(db, alice, { name: "remote", config: { url: "https://x.example" } }))).toMatchObject({
      status: 409,
      field: "name",
    });
  });

  it("keeps a secret when an edit on the same origin sends the mask back, and refuses it for another origin", async () => {
    const db = getDb();
    const record = await addServer(db, alice, {
      name: "keep",
      config: { url: "https://k.example/mcp", headers: { "X-Key": "value-1234" } },
    });
    await changeServer(db, alice, record.id, { config: { url: "https://k.example/v2/mcp", headers: { "X-Key": "********" } } });
    const definition = await toServerDefinition(db, await getServer(db, alice, record.id));
    expect(definition.config.url).toBe("https://k.example/v2/mcp");
    expect(definition.config.headers).toEqual({ "X-Key": "value-1234" });
    expect(
      await errorOf(
        async () =>
          await changeServer(db, alice, record.id, { config: { url: "https://k2.example/mcp", headers: { "X-Key": "********" } } }),
      ),
    ).toMatchObject({ status: 400, code: "server.secret_moved" });
  });
});
