/**
 * Query functions of db/queries through the dialect-neutral helpers: counts come back as numbers,
 * "did it change" answers come from the affected-row count and a search ignores case, on SQLite and
 * on Postgres; the messages of a chat keep their insertion order within one millisecond, the
 * per-request session look-up runs as a prepared statement, and read-modify-writes stay atomic
 * under concurrency (SQLite for now, see `dateAndJsonCases`).
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, MIGRATIONS_DIR, openDatabase } from "@/db/client";
import { all, exec } from "@/db/exec";
import { migratePostgres } from "@/db/migrate-postgres";
import { createChat, deleteChat, listChatsByOwner, renameChat } from "@/db/queries/chats";
import { confirmTotp, createPendingTotp, spendTotpStep } from "@/db/queries/factors";
import { pingDb } from "@/db/client";
import { insertInvitation, markInvitationAccepted } from "@/db/queries/invitations";
import { listMessagesByChat, saveMessage } from "@/db/queries/messages";
import { createServer } from "@/db/queries/servers";
import { getServerTrust, updateServerTrust } from "@/db/queries/server-trust";
import { createSession, getSessionState } from "@/db/queries/sessions";
import { countActiveAdmins, createUserWithWorkspace, listUsers, setUserAdmin } from "@/db/queries/users";
import { getPersonalWorkspaceId } from "@/db/queries/workspaces";
import { getToolSearchRow, getWorkspaceModelChoice, saveToolSearchRow, saveWorkspaceModel } from "@/db/queries/workspace-settings";
import * as sqliteTables from "@/db/schema-sqlite";
import * as pgTables from "@/db/schema-postgres";
import { startPostgres, type TestPostgres } from "../../helpers/postgres";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { onSqliteRun } from "../../helpers/test-database-kind.mjs";

let dataDir: string;
beforeAll(() => {
  // The instance key (secrets, TOTP) comes from the data directory.
  dataDir = useTempDataDir();
});
afterAll(() => removeTempDataDir(dataDir));

// The same cases on both. The query functions are typed against the SQLite handle; on Postgres
// they get a node-postgres handle, which is what is tested.
function sharedCases(handle: () => Db) {
  let ann: { id: string };
  let workspaceId: string;
  beforeAll(async () => {
    const db = handle();
    ann = (await createUserWithWorkspace(db, { email: "ann@example.com", name: "Ann Example", passwordHash: "x" }))!;
    await createUserWithWorkspace(db, { email: "bob@example.com", name: "Bob", passwordHash: "x" });
    workspaceId = (await getPersonalWorkspaceId(db, ann.id))!;
  });

  it("answers the database is there", async () => {
    await expect(pingDb(handle())).resolves.toBeUndefined();
  });

  it("counts as numbers, and says whether an update found its row", async () => {
    const db = handle();
    const admins = await countActiveAdmins(db);
    expect(admins).toBe(1);
    expect(await setUserAdmin(db, "no-such-user", true)).toBe(false);
    const bob = (await listUsers(db, "bob"))[0];
    expect(await setUserAdmin(db, bob.id, true)).toBe(true);
    expect(await countActiveAdmins(db)).toBe(2);
  });

  it("finds users by a substring of name or email whatever its case", async () => {
    const db = handle();
    expect((await listUsers(db, "aNN")).map((u) => u.name)).toEqual(["Ann Example"]);
    expect((await listUsers(db, "EXAMPLE.COM")).map((u) => u.email)).toEqual(["ann@example.com", "bob@example.com"]);
  });

  it("deletes only a chat that exists", async () => {
    const db = handle();
    const chat = await createChat(db, { ownerId: ann.id, workspaceId, title: "First" });
    expect(await deleteChat(db, { id: chat.id, ownerId: ann.id })).toBe(true);
    expect(await deleteChat(db, { id: chat.id, ownerId: ann.id })).toBe(false);
  });

  return { ann: () => ann, workspaceId: () => workspaceId };
}

/**
 * Cases that write Dates or JSON: SQLite-only for now. The query functions build with the SQLite
 * tables of db/schema.ts, whose columns hand Postgres a Date as milliseconds and JSON as text; they
 * join the shared cases once the handle brings its dialect's tables (the Db type, issue 26).
 */
function dateAndJsonCases(handle: () => Db, users: { ann: () => { id: string }; workspaceId: () => string }) {
  let ann: { id: string };
  let workspaceId: string;
  beforeAll(() => {
    ann = users.ann();
    workspaceId = users.workspaceId();
  });

  it("renames and deletes only a chat that exists", async () => {
    const db = handle();
    const chat = await createChat(db, { ownerId: ann.id, workspaceId, title: "First" });
    expect(await renameChat(db, { id: chat.id, ownerId: ann.id }, "Renamed")).toBe(true);
    expect(await renameChat(db, { id: "missing", ownerId: ann.id }, "x")).toBe(false);
    expect((await listChatsByOwner(db, ann.id)).map((c) => c.title)).toContain("Renamed");
    expect(await deleteChat(db, { id: chat.id, ownerId: ann.id })).toBe(true);
    expect(await deleteChat(db, { id: chat.id, ownerId: ann.id })).toBe(false);
  });

  it("lists the messages of one millisecond by their seq, not by id or by where they are stored", async () => {
    const db = handle();
    const chat = await createChat(db, { ownerId: ann.id, workspaceId });
    const at = new Date("2026-01-01T00:00:00.000Z");
    // Stored (rowid) and id order are a, b, c; the saved order (seq) is c, b, a.
    const rows = ["m-a", "m-b", "m-c"].map((id, i) => ({
      id,
      chatId: chat.id,
      role: "user" as const,
      parts: [],
      createdAt: at,
      seq: 3 - i,
    }));
    await exec(db.insert(sqliteTables.messages).values(rows));
    expect((await listMessagesByChat(db, chat.id)).map((m) => m.id)).toEqual(["m-c", "m-b", "m-a"]);
  });

  it("uses an invitation once: the second accept changes no row", async () => {
    const db = handle();
    const invitation = await insertInvitation(db, {
      workspaceId,
      email: "cat@example.com",
      role: "member",
      tokenHash: `hash-${Math.random()}`,
      invitedBy: ann.id,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const outcomes = await Promise.all([
      markInvitationAccepted(db, { id: invitation.id, userId: ann.id }, new Date()),
      markInvitationAccepted(db, { id: invitation.id, userId: ann.id }, new Date()),
    ]);
    expect(outcomes.sort()).toEqual([false, true]);
  });

  it("looks a session up through the prepared statement, again and again", async () => {
    const db = handle();
    const now = new Date();
    const ids = [
      await createSession(db, { userId: ann.id, now, expiresAt: new Date(now.getTime() + 60_000) }),
      await createSession(db, { userId: ann.id, now, expiresAt: new Date(now.getTime() + 60_000) }),
    ];
    for (const id of [...ids, ...ids]) expect((await getSessionState(db, id))?.userId).toBe(ann.id);
    expect(await getSessionState(db, "missing")).toBeNull();
  });

  it("keeps both of two concurrent trust changes of different fields", async () => {
    const db = handle();
    const server = await createServer(db, { workspaceId, name: "remote", config: { url: "https://x.example/mcp" }, createdBy: ann.id });
    await Promise.all([
      updateServerTrust(db, server.id, { trusted: true }, null),
      updateServerTrust(db, server.id, { trifectaCheck: false }, null),
    ]);
    expect(await getServerTrust(db, server.id)).toMatchObject({ trusted: true, trifectaCheck: false, pinnedAt: null });
  });

  it("counts one TOTP step once when two requests spend it at once", async () => {
    const db = handle();
    const factorId = await createPendingTotp(db, ann.id, "phone", "JBSWY3DPEHPK3PXP");
    await confirmTotp(db, factorId, 1, new Date());
    const spent = await Promise.all([spendTotpStep(db, factorId, 9, new Date()), spendTotpStep(db, factorId, 9, new Date())]);
    expect(spent.sort()).toEqual([false, true]);
  });

  it("stores the workspace's default model (key sealed) and tool search in one row", async () => {
    const db = handle();
    await saveWorkspaceModel(db, workspaceId, { provider: "openai", model: "m", baseUrl: null, apiKey: "sk-secret", updatedBy: ann.id });
    await saveToolSearchRow(db, workspaceId, { threshold: 5, maxTokens: 3000, alwaysLoaded: ["mcp_a_b"], updatedBy: ann.id });
    expect(await getWorkspaceModelChoice(db, workspaceId)).toEqual({ provider: "openai", model: "m", baseUrl: null, apiKey: "sk-secret" });
    expect(await getToolSearchRow(db, workspaceId)).toEqual({ threshold: 5, maxTokens: 3000, alwaysLoaded: ["mcp_a_b"] });
    const [row] = await all(
      db.select().from(sqliteTables.workspaceSettings).where(eq(sqliteTables.workspaceSettings.workspaceId, workspaceId)),
    );
    expect(row.apiKeyEnc).not.toContain("sk-secret");
  });
}

// The query functions use the run's tables (db/schema.ts): a SQLite handle runs them on the SQLite run only.
describe.runIf(onSqliteRun)("query functions on SQLite", () => {
  let db: Db;
  let close: () => void;
  beforeAll(() => {
    const opened = openDatabase(path.join(dataDir, "dialects.db"));
    db = opened.db;
    close = () => opened.sqlite.close();
  });
  afterAll(() => close());

  const users = sharedCases(() => db);
  dateAndJsonCases(() => db, users);

  it("numbers a chat's new messages after its last one", async () => {
    const user = (await createUserWithWorkspace(db, { email: "dan@example.com", name: "Dan", passwordHash: "x" }))!;
    const chat = await createChat(db, { ownerId: user.id, workspaceId: (await getPersonalWorkspaceId(db, user.id))! });
    for (const id of ["z", "y", "x"]) await saveMessage(db, chat.id, { id, role: "user", parts: [] });
    const { messages } = sqliteTables;
    const seqs = await all(db.select({ id: messages.id, seq: messages.seq }).from(messages).where(eq(messages.chatId, chat.id)));
    expect(seqs.sort((a, b) => a.seq - b.seq).map((m) => m.id)).toEqual(["z", "y", "x"]);
    expect(seqs.map((m) => m.seq).sort()).toEqual([1, 2, 3]);
  });

  it("replaces a message's parts within its chat and refuses its id from another chat", async () => {
    const user = (await createUserWithWorkspace(db, { email: "eve@example.com", name: "Eve", passwordHash: "x" }))!;
    const workspaceId = (await getPersonalWorkspaceId(db, user.id))!;
    const [mine, other] = [
      await createChat(db, { ownerId: user.id, workspaceId }),
      await createChat(db, { ownerId: user.id, workspaceId }),
    ];
    expect(await saveMessage(db, mine.id, { id: "m", role: "assistant", parts: [{ type: "text", text: "first" }] })).toBe(true);
    expect(await saveMessage(db, mine.id, { id: "m", role: "assistant", parts: [{ type: "text", text: "second" }] })).toBe(true);
    expect(await saveMessage(db, other.id, { id: "m", role: "assistant", parts: [{ type: "text", text: "stolen" }] })).toBe(false);
    expect((await listMessagesByChat(db, mine.id)).map((m) => m.parts)).toEqual([[{ type: "text", text: "second" }]]);
    expect(await listMessagesByChat(db, other.id)).toEqual([]);
  });
});

describe("query functions on Postgres", () => {
  let cluster: TestPostgres;
  let pool: pg.Pool;
  let db: ReturnType<typeof drizzlePg<typeof pgTables>>;
  beforeAll(async () => {
    cluster = await startPostgres();
    pool = new pg.Pool({ connectionString: await cluster.createDatabase("queries"), max: 4 });
    await migratePostgres(pool);
    db = drizzlePg(pool, { schema: pgTables });
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  sharedCases(() => db as unknown as Db);
});

describe.runIf(onSqliteRun)("SQLite migration 0017 (messages.seq)", () => {
  it("numbers the messages already stored in the order rowid kept them", async () => {
    // An instance at 0016: three messages of one millisecond, stored in the order c, b, a.
    const folder = path.join(dataDir, "migrations-0016");
    fs.cpSync(MIGRATIONS_DIR, folder, { recursive: true });
    const journalFile = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === "0016_personal_tokens") + 1);
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    const file = path.join(dataDir, "before-0017.db");
    openDatabase(file, folder).sqlite.close();
    const old = new Database(file);
    old.exec(`insert into users (id, email, name, password_hash) values ('u', 'u@example.com', 'U', 'x');
      insert into workspaces (id, name, personal_owner_id) values ('w', 'W', 'u');
      insert into chats (id, owner_id, workspace_id, title) values ('c', 'u', 'w', 'T');
      insert into messages (id, chat_id, role, parts, created_at) values ('m-c', 'c', 'user', '[]', 1000), ('m-b', 'c', 'user', '[]', 1000), ('m-a', 'c', 'user', '[]', 1000);`);
    old.close();

    const { db, sqlite } = openDatabase(file);
    try {
      const seqs = (sqlite.prepare("select seq from messages where chat_id = 'c' order by rowid").all() as { seq: number }[]).map(
        (r) => r.seq,
      );
      expect(seqs.every((seq, i) => i === 0 || seq > seqs[i - 1])).toBe(true);
      expect((await listMessagesByChat(db, "c")).map((m) => m.id)).toEqual(["m-c", "m-b", "m-a"]);
      // A message saved now comes after them.
      await saveMessage(db, "c", { id: "m-0", role: "assistant", parts: [] });
      expect((await listMessagesByChat(db, "c")).map((m) => m.id)).toEqual(["m-c", "m-b", "m-a", "m-0"]);
    } finally {
      sqlite.close();
    }
  });
});
