/**
 * Direct writes to the database of the app under test, for the few specs that set up a state the UI
 * cannot reach (a sign-in aged 11 minutes, an account disabled by another process). The app runs on
 * SQLite in E2E_DATA_DIR, or on the Postgres in E2E_DATABASE_URL (E2E_DB=postgres, playwright.config.ts).
 */
import Database from "better-sqlite3";
import path from "node:path";
import pg from "pg";

/** The app under test's Postgres URL, or undefined when it runs on SQLite. */
export function postgresUrl(): string | undefined {
  return process.env.E2E_DATABASE_URL || undefined;
}

/**
 * Run one write statement with `?` placeholders. A `Date` parameter is a time column's value: kept as a
 * Date for Postgres (timestamptz), milliseconds for SQLite (what the app's column helpers store).
 */
export async function writeRows(sql: string, params: unknown[]): Promise<void> {
  const url = postgresUrl();
  if (url) {
    let n = 0;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      );
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(path.join(process.env.E2E_DATA_DIR ?? "", "switchboard.db"));
  try {
    db.prepare(sql).run(...params.map((p) => (p instanceof Date ? p.getTime() : p)));
  } finally {
    db.close();
  }
}

/**
 * Settings for a second, fresh instance of the app (first-run.spec.ts): on Postgres a new empty
 * database in the suite's cluster named `name`, on SQLite nothing (its fresh data dir is enough).
 */
export async function freshDatabaseEnv(name: string): Promise<{ DATABASE_URL?: string }> {
  const url = postgresUrl();
  if (!url) return {};
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name}`);
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return { DATABASE_URL: fresh.toString() };
}
