/**
 * Postgres going away while the app runs (issue 26, docs/errors.md `database.unavailable`): requests
 * through the HTTP boundary (`route()`, as every API route) answer 503 with a clear code and
 * Retry-After while the server is down, never a 500; once it is back the pool reconnects by itself
 * and requests succeed again; every write answered 200 before, during or after is in the
 * database; and the audit entries and usage rows recorded while it was away are written once it is back. On a throw-away cluster shut down cleanly and started again on its port.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../../helpers/postgres";

// db/schema.ts chooses its tables at import: the app's modules are imported once DATABASE_URL names Postgres.
let client: typeof import("@/db/client");
let users: typeof import("@/db/queries/users");
let http: typeof import("@/lib/http");
let audit: typeof import("@/db/queries/audit");
let usage: typeof import("@/db/queries/usage-rows");

let cluster: TestPostgres;
let other: pg.Pool;
let dir: string;
const saved = { ...process.env };

beforeAll(async () => {
  cluster = await startPostgres();
  const url = await cluster.createDatabase("outage");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-pg-outage-"));
  Object.assign(process.env, {
    DATABASE_URL: url,
    SWITCHBOARD_DATA_DIR: dir,
    SWITCHBOARD_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"),
    // A small pool: a connection kept by a transaction that failed during the outage would leave
    // none for the requests after it (drizzle's pool transaction kept one per failed BEGIN).
    SWITCHBOARD_DB_POOL_SIZE: "2",
  });
  client = await import("@/db/client");
  users = await import("@/db/queries/users");
  http = await import("@/lib/http");
  audit = await import("@/db/queries/audit");
  usage = await import("@/db/queries/usage-rows");
  await client.databaseReady();
  other = new pg.Pool({ connectionString: url, max: 2 });
  other.on("error", () => {});
}, 120_000);

afterAll(async () => {
  await client?.closeDb();
  await other?.end();
  await cluster?.stop();
  for (const name of ["DATABASE_URL", "SWITCHBOARD_DATA_DIR", "SWITCHBOARD_SECRET_KEY", "SWITCHBOARD_DB_POOL_SIZE"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

let serial = 0;
// One request: register a person (a transaction: the user and their personal workspace) and answer 200.
async function registerPerson(): Promise<Response> {
  const n = ++serial;
  const email = `person-${n}@example.com`;
  await users.createUserWithWorkspace(client.getDb(), { email, name: `Person ${n}`, passwordHash: "x" });
  return Response.json({ email });
}
const post = () => http.route(registerPerson)();

interface Answer {
  status: number;
  email?: string;
  code?: string;
  retryAfter: string | null;
}
async function ask(): Promise<Answer> {
  const response = await post();
  const body = (await response.json()) as { email?: string; code?: string };
  return { status: response.status, email: body.email, code: body.code, retryAfter: response.headers.get("retry-after") };
}

const storedEmails = async () => new Set((await other.query<{ email: string }>("select email from users")).rows.map((r) => r.email));

describe("Postgres lost while running", () => {
  it("answers 503 database.unavailable while it is down, recovers by itself, and keeps every acknowledged write", async () => {
    const acknowledged: string[] = [];
    const before = await ask();
    expect(before.status).toBe(200);
    acknowledged.push(before.email as string);

    await cluster.pause();
    const down = await Promise.all([ask(), ask(), ask()]);
    for (const answer of down) {
      expect(answer).toMatchObject({ status: 503, code: "database.unavailable", retryAfter: "5" });
    }

    await cluster.resume();
    const after = await ask();
    expect(after.status).toBe(200);
    acknowledged.push(after.email as string);
    const stored = await storedEmails();
    for (const email of acknowledged) expect(stored.has(email)).toBe(true);
  }, 120_000);

  it("under load across a restart: every answer is 200 or 503 (never 500), success after, no acknowledged write lost", async () => {
    const answers: Answer[] = [];
    let running = true;
    // Four clients asking one after another without pause, through the restart.
    const clients = Array.from({ length: 4 }, async () => {
      while (running) answers.push(await ask());
    });
    const waitFor = async (what: () => boolean) => {
      const deadline = Date.now() + 30_000;
      while (!what()) {
        if (Date.now() > deadline) throw new Error("timed out");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    await waitFor(() => answers.filter((a) => a.status === 200).length >= 20);
    await cluster.pause();
    await waitFor(() => answers.filter((a) => a.status === 503).length >= 5);
    await cluster.resume();
    const okBefore = answers.filter((a) => a.status === 200).length;
    await waitFor(() => answers.filter((a) => a.status === 200).length >= okBefore + 20);
    running = false;
    await Promise.all(clients);

    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].sort()).toEqual([200, 503]);
    for (const answer of answers.filter((a) => a.status === 503)) expect(answer.code).toBe("database.unavailable");
    const stored = await storedEmails();
    const lost = answers.filter((a) => a.status === 200 && !stored.has(a.email as string));
    expect(lost).toEqual([]);
  }, 120_000);

  it("keeps the audit entries and usage rows recorded while it is away, and writes them once it is back", async () => {
    const db = client.getDb();
    await cluster.pause();
    await audit.recordAudit(db, { actorId: null, action: "test.while-away" });
    usage.queueMcpRequest(db, {
      at: new Date(),
      userId: "u-away",
      workspaceId: "w-away",
      serverId: "s-away",
      serverName: "away",
      kind: "tool",
      name: "echo",
      durationMs: 3,
      outcome: "ok",
    });
    // The batches are tried while it is down: they fail, and wait instead of being lost.
    await audit.flushAudit(db);
    await usage.flushUsage(db);
    await cluster.resume();
    await audit.flushAudit(db);
    await usage.flushUsage(db);
    const count = async (sql: string) => (await other.query<{ n: number }>(sql)).rows[0].n;
    expect(await count("select count(*)::int as n from audit_log where action = 'test.while-away'")).toBe(1);
    expect(await count("select count(*)::int as n from usage_mcp_requests where server_id = 's-away'")).toBe(1);
    expect(await count("select coalesce(sum(calls), 0)::int as n from usage_daily where group_key = 's-away'")).toBe(1);
  }, 120_000);
});
