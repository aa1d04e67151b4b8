/**
 * The app's data layer on Postgres (`DATABASE_URL=postgres://…`), on a throw-away cluster: the pool
 * opens, migrates under the advisory lock (two processes at once migrate once) and records the key;
 * an unreachable Postgres stops the start with one line; another connection's commit moves the change
 * stamp; the step transactions and the audit and usage batches run awaited on a pooled connection,
 * and the batches are written on close and on a signal's shutdown.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresDb } from "@/db/client";
import { startPostgres, type TestPostgres } from "../../helpers/postgres";
import { freePort } from "../../helpers/ports";

// db/schema.ts chooses its tables at import, so every module of the data layer is imported after
// DATABASE_URL names Postgres (beforeAll).
let client: typeof import("@/db/client");
let generation: typeof import("@/db/generation");
let transaction: typeof import("@/db/transaction");
let tables: typeof import("@/db/schema");
let audit: typeof import("@/db/queries/audit");
let usage: typeof import("@/db/queries/usage-rows");
let workspaceQueries: typeof import("@/db/queries/workspaces");
let messageQueries: typeof import("@/db/queries/messages");
let appContextQueries: typeof import("@/db/queries/app-contexts");

const KEY = Buffer.alloc(32, 7).toString("base64");
const TSX = path.join("node_modules", "tsx", "dist", "cli.mjs");
const FIXTURE = path.join("tests", "fixtures", "db", "postgres-process.ts");
const journal = JSON.parse(fs.readFileSync(path.join("drizzle", "postgres", "meta", "_journal.json"), "utf8")) as { entries: unknown[] };

let cluster: TestPostgres;
let url: string;
let dir: string;
let other: pg.Pool;
const saved = { ...process.env };

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = async (table: string, where = "true") =>
  (await other.query(`select count(*)::int as n from ${table} where ${where}`)).rows[0].n;

beforeAll(async () => {
  cluster = await startPostgres();
  url = await cluster.createDatabase("app");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-pg-runtime-"));
  Object.assign(process.env, { DATABASE_URL: url, SWITCHBOARD_DATA_DIR: dir, SWITCHBOARD_SECRET_KEY: KEY });
  client = await import("@/db/client");
  generation = await import("@/db/generation");
  transaction = await import("@/db/transaction");
  tables = await import("@/db/schema");
  audit = await import("@/db/queries/audit");
  usage = await import("@/db/queries/usage-rows");
  workspaceQueries = await import("@/db/queries/workspaces");
  messageQueries = await import("@/db/queries/messages");
  appContextQueries = await import("@/db/queries/app-contexts");
  other = new pg.Pool({ connectionString: url, max: 3 });
  await client.databaseReady();
  await other.query("insert into users (id, email, name, password_hash) values ('u1', 'u1@example.com', 'U1', 'x')");
  await other.query("insert into workspaces (id, name, personal_owner_id) values ('w1', 'W1', 'u1')");
  await other.query("insert into chats (id, owner_id, workspace_id, title) values ('c1', 'u1', 'w1', 'one'), ('c2', 'u1', 'w1', 'two')");
}, 120_000);

afterAll(async () => {
  await client?.closeDb();
  await other?.end();
  await cluster?.stop();
  for (const name of ["DATABASE_URL", "SWITCHBOARD_DATA_DIR", "SWITCHBOARD_SECRET_KEY"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("opening Postgres at start", () => {
  it("opens a pool, applies every migration and records the key fingerprint before the first query", async () => {
    const db = client.getDb();
    expect(client.isSqliteHandle(db)).toBe(false);
    expect(client.getDb()).toBe(db);
    expect(await count("drizzle.__drizzle_migrations")).toBe(journal.entries.length);
    expect(await count("instance_meta", "key = 'secret_key_id'")).toBe(1);
    expect(client.describeOpenDatabase()).toBe(`Postgres 127.0.0.1:${cluster.port}/app`);
    // The pool's connections carry the statement timeout (the migration lifted it on its own only).
    const shown = await (db as unknown as PostgresDb).execute<{ statement_timeout: string }>(sql`show statement_timeout`);
    expect(shown.rows[0].statement_timeout).toBe("30s");
  });

  it("migrates once when two processes start at once on a fresh database", async () => {
    const fresh = await cluster.createDatabase("two_starts");
    const start = () =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, [TSX, FIXTURE, "start"], { env: { ...process.env, DATABASE_URL: fresh } });
        let out = "";
        let err = "";
        child.stdout.on("data", (chunk) => {
          out += chunk;
        });
        child.stderr.on("data", (chunk) => {
          err += chunk;
        });
        child.on("exit", (code) => resolve({ code, out, err }));
      });
    const both = await Promise.all([start(), start()]);
    for (const run of both) {
      expect(run.err).toBe("");
      expect(run.code).toBe(0);
      expect(run.out).toContain(`ready: Postgres 127.0.0.1:${cluster.port}/two_starts`);
    }
    const check = new pg.Client({ connectionString: fresh });
    await check.connect();
    try {
      const { rows } = await check.query<{ hash: string }>("select hash from drizzle.__drizzle_migrations");
      expect(rows).toHaveLength(journal.entries.length);
      expect(new Set(rows.map((r) => r.hash)).size).toBe(rows.length);
      expect((await check.query("select value from instance_meta where key = 'secret_key_id'")).rows).toHaveLength(1);
    } finally {
      await check.end();
    }
  }, 60_000);

  it("a start on an empty database migrates, prints every line of the start and the setup code, and exits 0", async () => {
    const fresh = await cluster.createDatabase("fresh_start");
    const data = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-pg-preflight-"));
    try {
      const result = spawnSync(process.execPath, [TSX, path.join("scripts", "preflight.ts")], {
        env: { ...process.env, DATABASE_URL: fresh, SWITCHBOARD_DATA_DIR: data },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      // The last lines come after the pool and the change listener closed: a close that let the
      // process exit half-way (an unreferenced socket) lost them, and the start went on without them.
      expect(result.stdout).toContain(`ready (database: Postgres 127.0.0.1:${cluster.port}/fresh_start)`);
      expect(result.stdout).toMatch(/needs this setup code: [0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5} /);
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);

  it("stops the start with one line naming host, port and cause when Postgres cannot be reached", async () => {
    const port = await freePort();
    const result = spawnSync(process.execPath, [TSX, path.join("scripts", "preflight.ts")], {
      env: { ...process.env, DATABASE_URL: `postgres://switchboard:s3cret@127.0.0.1:${port}/app` },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toEqual([
      `switchboard: cannot reach Postgres at 127.0.0.1:${port} (database app): connection refused (is Postgres running and listening there?)`,
    ]);
    expect(result.stderr).not.toContain("s3cret");
  }, 60_000);
});

describe("the change stamp on Postgres", () => {
  const stamp = () => generation.generationOf(client.getDb());
  const shared = () => !stamp().startsWith("unshared:");

  it("moves when another connection commits a write to a cached table, not for a rollback or other tables", async () => {
    await until("the listener", shared);
    const before = stamp();
    expect(stamp()).toBe(before);
    await other.query("insert into users (id, email, name, password_hash) values ('u2', 'u2@example.com', 'U2', 'x')");
    await until("the stamp to move", () => stamp() !== before);

    const settled = stamp();
    const tx = await other.connect();
    try {
      await tx.query("begin");
      await tx.query("update users set name = 'rolled back' where id = 'u2'");
      await tx.query("rollback");
    } finally {
      tx.release();
    }
    await other.query("insert into audit_log (action) values ('not cached')");
    await pause(300);
    expect(stamp()).toBe(settled);
    await other.query("insert into sessions (id, user_id, last_seen_at, expires_at) values ('s1', 'u2', now(), now() + interval '1 day')");
    await until("the session insert", () => stamp() !== settled);
    const afterSession = stamp();
    // A touch (last_seen_at) decides nothing a cache keeps; ending the session does.
    await other.query("update sessions set last_seen_at = now() where id = 's1'");
    await pause(300);
    expect(stamp()).toBe(afterSession);
    await other.query("update sessions set ended_at = now() where id = 's1'");
    await until("the session end", () => stamp() !== afterSession);

    // Personal access tokens (migration 0017): made and revoked move it; a use (last_used_at) does not.
    // The token's workspace first, its own move awaited: a cached table too, whose notice arriving
    // late would otherwise pass for the token's (and move the stamp after `afterToken` was taken).
    const beforeWorkspace = stamp();
    await other.query("insert into workspaces (id, name) values ('w2', 'W2')");
    await until("the workspace insert", () => stamp() !== beforeWorkspace);
    const beforeToken = stamp();
    await other.query(
      "insert into personal_tokens (id, user_id, workspace_id, name, scopes, token_hash, hint, expires_at) values ('t1', 'u2', 'w2', 't', 'mcp', 'h1', 'sbp_x', now() + interval '1 day')",
    );
    await until("the token insert", () => stamp() !== beforeToken);
    const afterToken = stamp();
    await other.query("update personal_tokens set last_used_at = now() where id = 't1'");
    await pause(300);
    expect(stamp()).toBe(afterToken);
    await other.query("update personal_tokens set revoked_at = now() where id = 't1'");
    await until("the token's revocation", () => stamp() !== afterToken);

    // A chat turn's settings (migration 0019): a member's own model, the workspace's settings, a budget.
    const beforeModel = stamp();
    await other.query("insert into user_settings (user_id, provider, model) values ('u2', 'openai', 'gpt-x')");
    await until("the user's model", () => stamp() !== beforeModel);
    const beforeDefault = stamp();
    await other.query("insert into workspace_settings (workspace_id, tool_search_threshold) values ('w2', 5)");
    await until("the workspace's settings", () => stamp() !== beforeDefault);
    const beforeBudget = stamp();
    await other.query("insert into usage_budgets (scope, target_id, unit, monthly_limit) values ('workspace', 'w2', 'tokens', 100)");
    await until("the budget", () => stamp() !== beforeBudget);
  });

  it("gives unshared stamps while the listening connection is down, and moves once it is back", async () => {
    await until("the listener", shared);
    const before = stamp();
    await other.query("select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN switchboard_changes'");
    await until("the listener to drop", () => !shared());
    expect(stamp()).not.toBe(stamp());
    await until("the listener to come back", shared);
    expect(stamp()).not.toBe(before);
  });
});

describe("transactions on Postgres", () => {
  it("creates a team workspace with its owner in one transaction", async () => {
    const created = await workspaceQueries.createTeamWorkspace(client.getDb(), { name: "Team", slug: "team", ownerId: "u1" });
    expect(created).toMatchObject({ name: "Team", slug: "team", personal: false });
    expect(await count("memberships", `workspace_id = '${created.id}' and user_id = 'u1' and role = 'owner'`)).toBe(1);
  });

  it("saves a message, replaces its parts, and refuses the id in another chat", async () => {
    const db = client.getDb();
    const message = { id: "m1", role: "assistant" as const, parts: [{ type: "text" as const, text: "first" }] };
    expect(await messageQueries.saveMessage(db, "c1", message)).toBe(true);
    expect(await messageQueries.saveMessage(db, "c1", { ...message, parts: [{ type: "text", text: "second" }] })).toBe(true);
    expect(await messageQueries.saveMessage(db, "c2", message)).toBe(false);
    const { rows } = await other.query("select chat_id, parts from messages where id = 'm1'");
    expect(rows).toEqual([{ chat_id: "c1", parts: [{ type: "text", text: "second" }] }]);
  });

  it("takes a chat's app contexts and removes them in one transaction", async () => {
    await other.query(
      `insert into app_contexts (chat_id, tool_call_id, server_id, server_name, text, updated_at) values
        ('c1', 't1', 's', 'S', 'one', now() - interval '1 second'), ('c1', 't2', 's', 'S', 'two', now()), ('c2', 't3', 's', 'S', 'other', now())`,
    );
    const taken = await appContextQueries.takeAppContexts(client.getDb(), "c1");
    expect(taken.map((c) => c.text)).toEqual(["one", "two"]);
    expect(await count("app_contexts", "chat_id = 'c1'")).toBe(0);
    expect(await count("app_contexts", "chat_id = 'c2'")).toBe(1);
  });

  it("rolls back every step when the body throws, and hands a failed statement to the body", async () => {
    const db = client.getDb();
    const { stepTransaction, rows, write } = transaction;
    await expect(
      Promise.resolve(
        stepTransaction(db, function* (tx) {
          yield* write(tx.insert(tables.workspaces).values({ id: "lost", name: "lost", slug: "lost" }));
          throw new Error("boom");
        }),
      ),
    ).rejects.toThrow("boom");
    expect(await count("workspaces", "id = 'lost'")).toBe(0);
    const caught = await stepTransaction(db, function* (tx) {
      try {
        yield* write(tx.insert(tables.workspaces).values({ id: "w1", name: "duplicate" }));
      } catch {
        return "caught";
      }
      return "inserted";
    });
    expect(caught).toBe("caught");
    const found = await stepTransaction(db, function* (tx) {
      return yield* rows(tx.select({ name: tables.workspaces.name }).from(tables.workspaces).where(eq(tables.workspaces.id, "w1")));
    });
    expect(found).toEqual([{ name: "W1" }]);
  });
});

describe("the audit batch on Postgres", () => {
  it("writes the waiting entries together when flushed, and keeps an entry whose actor is gone", async () => {
    const db = client.getDb();
    const before = await count("audit_log", "action like 'test.%'");
    await audit.recordAudit(db, { actorId: "u1", action: "test.one" });
    await audit.recordAudit(db, { actorId: null, action: "test.two", detail: { n: 2 } });
    expect(await count("audit_log", "action like 'test.%'")).toBe(before);
    await audit.flushAudit(db);
    const { rows } = await other.query(
      "select actor_id, action, detail from audit_log where action in ('test.one', 'test.two') order by id",
    );
    expect(rows).toEqual([
      { actor_id: "u1", action: "test.one", detail: null },
      { actor_id: null, action: "test.two", detail: { n: 2 } },
    ]);
    await audit.recordAudit(db, { actorId: "deleted-user", action: "test.actor-gone" });
    await audit.flushAudit(db);
    expect((await other.query("select actor_id from audit_log where action = 'test.actor-gone'")).rows).toEqual([{ actor_id: null }]);
  });

  it("writes what waits when the database closes", async () => {
    await audit.recordAudit(client.getDb(), { actorId: null, action: "test.at-close" });
    await client.closeDb();
    expect(await count("audit_log", "action = 'test.at-close'")).toBe(1);
  });

  it("writes what waits on a signal's shutdown before the process exits", async () => {
    const child: ChildProcess = spawn(process.execPath, [TSX, FIXTURE, "shutdown"], { env: process.env });
    let out = "";
    // At once, well inside the batch window (AUDIT_BATCH_MS): only the shutdown can write the entry.
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      if (out.includes("recorded")) child.kill("SIGTERM");
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    expect(await exited).toBe(143);
    expect(out).toContain("recorded");
    expect(await count("audit_log", "action = 'test.before-shutdown'")).toBe(1);
  }, 60_000);
});

describe("the usage batch on Postgres", () => {
  const at = new Date("2026-11-27T10:00:00Z");
  const call = (durationMs: number, outcome: "ok" | "timeout") => ({
    at,
    userId: "u1",
    workspaceId: "w1",
    serverId: "s1",
    serverName: "Server one",
    kind: "tool" as const,
    name: "echo",
    durationMs,
    outcome,
    bytesIn: 10,
    bytesOut: 20,
  });
  const sums = async () =>
    (
      await other.query(
        "select day, kind, group_key, name, label, calls, errors, duration_ms from usage_daily where workspace_id = 'w1' and kind = 'mcp'",
      )
    ).rows;

  it("writes the waiting rows with the daily sums and latency buckets when flushed, and adds to the sums later", async () => {
    const db = client.getDb();
    usage.queueMcpRequest(db, call(12, "ok"));
    usage.queueMcpRequest(db, call(30, "timeout"));
    usage.queueModelRequest(db, {
      at,
      userId: "u1",
      workspaceId: "w1",
      chatId: "c1",
      source: "chat",
      provider: "openai-compatible",
      model: "m",
      inputTokens: 100,
      outputTokens: 7,
      costMicros: 42,
      latencyMs: 300,
      outcome: "ok",
    });
    expect(await count("usage_mcp_requests")).toBe(0);
    await usage.flushUsage(db);
    expect(await count("usage_mcp_requests", "server_id = 's1'")).toBe(2);
    expect(await count("usage_model_requests", "chat_id = 'c1'")).toBe(1);
    expect(await sums()).toEqual([
      { day: "2026-11-27", kind: "mcp", group_key: "s1", name: "tool:echo", label: "Server one", calls: 2, errors: 1, duration_ms: 42 },
    ]);
    const model = (await other.query("select calls, input_tokens, cost_micros from usage_daily where kind = 'model'")).rows;
    expect(model).toEqual([{ calls: 1, input_tokens: 100, cost_micros: 42 }]);
    const buckets = (await other.query("select bucket_ms, calls from usage_latency where server_id = 's1' order by bucket_ms")).rows;
    expect(buckets).toEqual([
      { bucket_ms: 12, calls: 1 },
      { bucket_ms: usage.latencyBucket(30), calls: 1 },
    ]);

    // A later batch (another replica's, say) adds to the same sums.
    usage.queueMcpRequest(db, call(12, "ok"));
    await usage.flushUsage(db);
    expect((await sums())[0]).toMatchObject({ calls: 3, errors: 1, duration_ms: 54 });
    expect((await other.query("select calls from usage_latency where server_id = 's1' and bucket_ms = 12")).rows).toEqual([{ calls: 2 }]);
  });

  it("writes what waits when the database closes", async () => {
    usage.queueMcpRequest(client.getDb(), { ...call(5, "ok"), serverId: "s-close" });
    await client.closeDb();
    expect(await count("usage_mcp_requests", "server_id = 's-close'")).toBe(1);
  });
});
