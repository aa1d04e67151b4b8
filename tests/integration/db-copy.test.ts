/**
 * `switchboard db copy|migrate|check` as the operator runs them: the real command line spawned on a
 * real SQLite instance (filled through db/queries) and a throw-away Postgres (tests/helpers/postgres.ts).
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getTableColumns } from "drizzle-orm";
import Database from "better-sqlite3";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetInstanceKey } from "@/db/key-check";
import { tablesInDependencyOrder } from "@/db/ops/table-order";
import { openDatabase } from "@/db/client";
import { createChat } from "@/db/queries/chats";
import { createUserWithWorkspace } from "@/db/queries/users";
import { keyFromText, decrypt } from "@/lib/crypto";
import { freePort } from "../helpers/ports";
import { startPostgres, type TestPostgres } from "../helpers/postgres";
import { ADMIN_SIGN_IN, populateInstance, type PopulatedInstance } from "../helpers/populated-instance";
import { all } from "../../db/exec";

const CLI = path.resolve("bin/switchboard.mjs");
const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");
const APP_READS = path.resolve("tests/fixtures/db/app-reads.ts");
const KEY = randomBytes(32).toString("hex");
const OTHER_KEY = randomBytes(32).toString("hex");
const BULK = 4000;
// Each case spawns the command line several times, each a fresh Node loading the engine (seconds on a busy machine).
const SPAWNS = 300_000;

let cluster: TestPostgres;
let dir: string;
let source: string;
let planted: PopulatedInstance;
const pools: pg.Pool[] = [];
const savedKey = process.env.SWITCHBOARD_SECRET_KEY;

function cli(args: string[], env: Record<string, string | undefined> = {}) {
  const { DATABASE_URL: _ignored, ...base } = process.env;
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    timeout: 120_000,
    env: { ...base, SWITCHBOARD_DATA_DIR: dir, SWITCHBOARD_SECRET_KEY: KEY, ...env } as NodeJS.ProcessEnv,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function pool(url: string): pg.Pool {
  const created = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(created);
  return created;
}

async function countRows(url: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tablesInDependencyOrder()) {
    const { rows } = await pool(url).query<{ n: number }>(`select count(*)::int as n from "${table.name}"`);
    counts[table.name] = rows[0].n;
  }
  return counts;
}

function sqliteCounts(file: string): Record<string, number> {
  const sqlite = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(
      tablesInDependencyOrder().map((t) => [t.name, (sqlite.prepare(`select count(*) as n from "${t.name}"`).get() as { n: number }).n]),
    );
  } finally {
    sqlite.close();
  }
}

/** A row as both dialects read it through the schema, with Dates as milliseconds; rows sorted. */
function normalise(rows: Record<string, unknown>[]): string[] {
  return rows
    .map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.getTime() : v]))))
    .sort();
}

/** A one-line failure: exit 2, one line on stderr starting `switchboard:`, no stack. */
function expectOneLineFailure(result: ReturnType<typeof cli>, pattern: RegExp) {
  expect(result.code).toBe(2);
  const lines = result.stderr
    .trim()
    .split("\n")
    .filter((l) => !l.startsWith("instance key "));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^switchboard: /);
  expect(lines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-dbcopy-"));
  process.env.SWITCHBOARD_SECRET_KEY = KEY;
  resetInstanceKey();
  source = path.join(dir, "switchboard.db");
  planted = await populateInstance(source, BULK);
  cluster = await startPostgres();
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await cluster?.stop();
  if (savedKey === undefined) delete process.env.SWITCHBOARD_SECRET_KEY;
  else process.env.SWITCHBOARD_SECRET_KEY = savedKey;
  resetInstanceKey();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("switchboard db copy", () => {
  let target: string;

  it(
    "copies every table: the same rows, the same counts, secrets that decrypt to the same values",
    async () => {
      target = await cluster.createDatabase("copied");
      const result = cli(["db", "copy", "--from", source, "--to", target]);
      expect(result.stderr).toContain(`instance key ${keyFromText(KEY).id}`);
      expect(result.code).toBe(0);
      const summary = result.stdout.trim().split("\n").at(-1) ?? "";
      const tableCount = tablesInDependencyOrder().length;
      expect(summary).toMatch(
        new RegExp(
          `^copied \\d+ rows in ${tableCount} tables to Postgres 127\\.0\\.0\\.1:\\d+/copied in \\d+ ms; row counts equal, [1-9]\\d* sampled secrets decrypt`,
        ),
      );
      console.log(summary);

      const counts = sqliteCounts(source);
      expect(await countRows(target)).toEqual(counts);
      for (const name of Object.keys(counts)) if (name !== "sessions_unused") expect(counts[name], name).toBeGreaterThan(0);

      // Row by row, as each dialect's schema reads it (booleans, times and JSON normalised by the schema).
      const sqlite = new Database(source, { readonly: true });
      const fromSqlite = drizzleSqlite(sqlite);
      const fromPostgres = drizzlePg(pool(target));
      try {
        for (const table of tablesInDependencyOrder()) {
          const left = normalise((await all(fromSqlite.select().from(table.sqlite))) as Record<string, unknown>[]);
          const right = normalise((await fromPostgres.select().from(table.postgres)) as Record<string, unknown>[]);
          expect(right, table.name).toEqual(left);
          expect(Object.keys(getTableColumns(table.postgres)).sort()).toEqual(Object.keys(getTableColumns(table.sqlite)).sort());
        }
      } finally {
        sqlite.close();
      }

      // The secrets decrypt on the target, with the instance key, to what was written.
      const key = keyFromText(KEY);
      const db = pool(target);
      const server = await db.query<{ secrets_enc: string }>("select secrets_enc from mcp_servers where id = $1", [planted.serverId]);
      expect(JSON.parse(decrypt(server.rows[0].secrets_enc, key)).headers).toEqual(planted.secrets.serverHeaders);
      const token = await db.query<{ value_enc: string }>("select value_enc from server_credentials where kind = 'tokens'");
      expect(decrypt(token.rows[0].value_enc, key)).toBe(planted.secrets.oauthToken);
      const apiKey = await db.query<{ api_key_enc: string }>("select api_key_enc from user_settings where user_id = $1", [planted.adminId]);
      expect(decrypt(apiKey.rows[0].api_key_enc, key)).toBe(planted.secrets.apiKey);
      const teamKey = await db.query<{ api_key_enc: string }>("select api_key_enc from workspace_settings");
      expect(decrypt(teamKey.rows[0].api_key_enc, key)).toBe(planted.secrets.workspaceApiKey);
      const meta = await db.query<{ value: string }>("select value from instance_meta where key = 'secret_key_id'");
      expect(meta.rows[0].value).toBe(key.id);

      // The audit identity continues after the copied ids.
      const { rows } = await db.query<{ id: string; max: string }>(
        "insert into audit_log (action) values ('after.copy') returning id, (select max(id) from audit_log) as max",
      );
      expect(Number(rows[0].id)).toBe(counts.audit_log + 1);
      await db.query("delete from audit_log where action = 'after.copy'");
    },
    SPAWNS,
  );

  it(
    "refuses a target that holds data unless --force, which replaces it",
    async () => {
      const before = await countRows(target);
      expectOneLineFailure(
        cli(["db", "copy", "--from", source, "--to", target]),
        // The first four tables holding rows, in copy order (tables without foreign keys come first).
        /the target already holds data \(\d+ in [a-z_]+(, \d+ in [a-z_]+){3}, …\): pass --force to replace it$/,
      );
      expect(await countRows(target)).toEqual(before);

      await pool(target).query("insert into instance_meta (key, value) values ('left.over', 'x')");
      const forced = cli(["db", "copy", "--from", source, "--to", target, "--force"]);
      expect(forced.code).toBe(0);
      expect(await countRows(target)).toEqual(sqliteCounts(source));
      const leftOver = await pool(target).query("select 1 from instance_meta where key = 'left.over'");
      expect(leftOver.rowCount).toBe(0);
    },
    SPAWNS,
  );

  it(
    "the app on the copy signs the same person in, decrypts the same secrets, shows the same chats and audit log",
    async () => {
      // The app's own reads (tests/fixtures/db/app-reads.ts) in a process of its own on each side:
      // the SQLite source (a copy of it, in a data directory of its own) and the Postgres copy.
      const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-dbcopy-app-"));
      fs.copyFileSync(source, path.join(sqliteDir, "switchboard.db"));
      const args = [ADMIN_SIGN_IN.email, ADMIN_SIGN_IN.password, planted.adminId, planted.serverId, planted.teamId];
      const read = (env: Record<string, string | undefined>) => {
        const { DATABASE_URL: _ignored, ...base } = process.env;
        const result = spawnSync(process.execPath, [TSX, APP_READS, ...args], {
          encoding: "utf8",
          timeout: 120_000,
          env: { ...base, SWITCHBOARD_SECRET_KEY: KEY, ...env } as NodeJS.ProcessEnv,
        });
        expect(result.stderr).toBe("");
        expect(result.status).toBe(0);
        return JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "null");
      };
      try {
        const onSqlite = read({ SWITCHBOARD_DATA_DIR: sqliteDir });
        const onPostgres = read({ SWITCHBOARD_DATA_DIR: dir, DATABASE_URL: target });
        expect(onSqlite.signIn).toEqual({ outcome: "ok", email: ADMIN_SIGN_IN.email, isAdmin: true });
        expect(onSqlite.wrongPassword).toBe("wrong");
        expect(onSqlite.server.config.headers).toEqual(planted.secrets.serverHeaders);
        expect(onSqlite.chats.length).toBeGreaterThan(0);
        expect(onSqlite.audit.length).toBeGreaterThan(0);
        expect(onPostgres).toEqual(onSqlite);
      } finally {
        fs.rmSync(sqliteDir, { recursive: true, force: true });
      }
    },
    SPAWNS,
  );

  it(
    "leaves the target empty when a row cannot be copied (one transaction)",
    async () => {
      // SQLite keeps a NUL in text; Postgres refuses it: the copy fails at the chats table, after users went in.
      const file = path.join(dir, "nul.db");
      await populateInstance(file);
      const { db, sqlite } = openDatabase(file);
      const user = await createUserWithWorkspace(db, { email: "nul@example.com", name: "Nul", passwordHash: "x" });
      const workspaceId = (sqlite.prepare("select id from workspaces where personal_owner_id = ?").get(user?.id) as { id: string }).id;
      await createChat(db, { ownerId: user?.id ?? "", workspaceId, title: "bad\u0000title" });
      sqlite.close();
      const url = await cluster.createDatabase("rolled_back");
      expectOneLineFailure(
        cli(["db", "copy", "--from", file, "--to", url]),
        /copying chats failed, the copy was rolled back \(no row of the target changed\): .*0x00/,
      );
      const counts = await countRows(url);
      expect(Object.values(counts).every((n) => n === 0)).toBe(true);
    },
    SPAWNS,
  );

  it(
    "names an unreachable target in one line: host, port and cause",
    async () => {
      const port = await freePort();
      expectOneLineFailure(
        cli(["db", "copy", "--from", source, "--to", `postgres://switchboard:hunter2@127.0.0.1:${port}/nowhere`]),
        new RegExp(`cannot reach Postgres at 127\\.0\\.0\\.1:${port} \\(database nowhere\\): connection refused`),
      );
      const missing = cli(["db", "copy", "--from", source, "--to", `${cluster.url.replace(/\/postgres$/, "/absent")}`]);
      expectOneLineFailure(missing, /cannot reach Postgres at .*\(database absent\): the database does not exist/);
      expect(missing.stderr).not.toContain("hunter2");
    },
    SPAWNS,
  );

  it(
    "refuses a wrong key before touching the target",
    async () => {
      const url = await cluster.createDatabase("wrong_key");
      expectOneLineFailure(
        cli(["db", "copy", "--from", source, "--to", url], { SWITCHBOARD_SECRET_KEY: OTHER_KEY }),
        new RegExp(
          `source .*: key mismatch\\. The stored secrets were encrypted with key ${keyFromText(KEY).id}, but the current key is ${keyFromText(OTHER_KEY).id}`,
        ),
      );
      const tables = await pool(url).query("select 1 from information_schema.tables where table_schema = 'public'");
      expect(tables.rowCount).toBe(0);
    },
    SPAWNS,
  );

  it(
    "refuses a source that is missing, not SQLite, or not Switchboard's",
    async () => {
      const url = await cluster.createDatabase("bad_sources");
      expectOneLineFailure(cli(["db", "copy", "--from", path.join(dir, "absent.db"), "--to", url]), /no SQLite database at .*absent\.db$/);
      const text = path.join(dir, "notes.txt");
      fs.writeFileSync(text, "not a database at all, just some text that is long enough to have a header page".repeat(20));
      expectOneLineFailure(cli(["db", "copy", "--from", text, "--to", url]), /notes\.txt is not a SQLite database$/);
      const other = path.join(dir, "other.db");
      new Database(other).exec("create table things (id integer)");
      expectOneLineFailure(
        cli(["db", "copy", "--from", other, "--to", url]),
        /other\.db is not a Switchboard database \(no __drizzle_migrations, /,
      );
      expectOneLineFailure(cli(["db", "copy", "--from", source]), /db copy needs --to <postgres url>/);
    },
    SPAWNS,
  );
});

describe("switchboard db migrate and db check", () => {
  it(
    "checks a fresh database after db migrate, an unmigrated one, and one under another key",
    async () => {
      const fresh = await cluster.createDatabase("fresh");
      expectOneLineFailure(
        cli(["db", "check"], { DATABASE_URL: fresh }),
        /Postgres 127\.0\.0\.1:\d+\/fresh: \d+ of \d+ migrations? not applied: run switchboard db migrate/,
      );

      const migrated = cli(["db", "migrate"], { DATABASE_URL: fresh });
      expect(migrated.code).toBe(0);
      expect(migrated.stdout).toMatch(/^Postgres 127\.0\.0\.1:\d+\/fresh: applied [1-9]\d* migration\(s\)/);
      expect(cli(["db", "migrate"], { DATABASE_URL: fresh }).stdout).toMatch(/applied 0 migration\(s\)/);

      const check = cli(["db", "check"], { DATABASE_URL: fresh });
      expect(check.code).toBe(0);
      expect(check.stdout).toMatch(/reachable, (\d+) of \1 migrations applied, key \w+ \(not recorded yet/);

      const copied = await cluster.createDatabase("checked");
      expect(cli(["db", "copy", "--from", source, "--to", copied]).code).toBe(0);
      expect(cli(["db", "check"], { DATABASE_URL: copied }).stdout).toContain(`key ${keyFromText(KEY).id} matches`);
      expectOneLineFailure(cli(["db", "check"], { DATABASE_URL: copied, SWITCHBOARD_SECRET_KEY: OTHER_KEY }), /checked: key mismatch\./);

      const port = await freePort();
      expectOneLineFailure(
        cli(["db", "check"], { DATABASE_URL: `postgresql://127.0.0.1:${port}/x` }),
        /cannot reach Postgres at 127\.0\.0\.1:\d+ \(database x\): connection refused/,
      );
      expectOneLineFailure(
        cli(["db", "check"], { DATABASE_URL: "mysql://x" }),
        /DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//,
      );
    },
    SPAWNS,
  );

  it(
    "works on the data directory's SQLite file when DATABASE_URL is unset",
    () => {
      const check = cli(["db", "check"]);
      expect(check.code).toBe(0);
      expect(check.stdout).toContain(`SQLite ${source}: reachable`);
      expect(check.stdout).toContain(`key ${keyFromText(KEY).id} matches`);
      expectOneLineFailure(cli(["db", "check"], { SWITCHBOARD_SECRET_KEY: OTHER_KEY }), /switchboard\.db: key mismatch\./);

      const empty = fs.mkdtempSync(path.join(dir, "empty-"));
      expectOneLineFailure(cli(["db", "check"], { SWITCHBOARD_DATA_DIR: empty }), /no SQLite database at .*switchboard\.db/);
      expect(cli(["db", "migrate"], { SWITCHBOARD_DATA_DIR: empty }).stdout).toMatch(/applied [1-9]\d* migration\(s\)/);
      expect(cli(["db", "check"], { SWITCHBOARD_DATA_DIR: empty }).code).toBe(0);
      expectOneLineFailure(
        cli(["db", "check"], { SWITCHBOARD_DATA_DIR: path.join(dir, "nokey"), SWITCHBOARD_SECRET_KEY: "" }),
        /no SQLite database/,
      );
    },
    SPAWNS,
  );
});
