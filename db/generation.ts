/**
 * A change stamp for the rows that decide who may reach what: sessions ending, users, workspaces,
 * memberships, servers, per-(user, server) credentials, and tool trust (pins, tool policies, server
 * trust settings). Every write to those tables in
 * db/queries bumps it, so a lookup cache stamped with it (lib/lookup-cache.ts) is stale from the
 * very next read after a change. SQLite's `data_version` is part of the stamp: it moves when another
 * connection (another process: preflight, an operator's script) commits, which no counter here sees.
 */
import type Sqlite from "better-sqlite3";
import type { Db } from "./client";

// One counter for the whole process, not per handle: writes inside a transaction go through the
// transaction's own handle, and a bump there must still reach readers of the database handle. It
// lives on globalThis because the server bundles may hold more than one copy of this module (one
// per route entry, and Next's dev server re-evaluates modules), and a bump must reach them all.
const SLOT = Symbol.for("switchboard.db.generation");
const slots = globalThis as { [SLOT]?: { writes: number; unshared: number } };
slots[SLOT] ??= { writes: 0, unshared: 0 };
const counters = slots[SLOT];
const dataVersionQueries = new WeakMap<Sqlite.Database, Sqlite.Statement>();

/** Mark that rows deciding access or server definitions changed (call after each such write). */
export function bumpGeneration(): void {
  counters.writes++;
}

// Another connection's commit is read once per turn of the event loop: a request reads the stamp
// for every cache it passes, and a commit by another process lands between our turns just as well
// as inside one (it is seen by the next request). Our own writes never move `data_version` (they
// move the counter, which is read every time).
let versionThisTurn: { client: Sqlite.Database; version: number } | null = null;

function dataVersion(client: Sqlite.Database): number {
  if (versionThisTurn?.client === client) return versionThisTurn.version;
  let query = dataVersionQueries.get(client);
  if (!query) {
    query = client.prepare("PRAGMA data_version").pluck();
    dataVersionQueries.set(client, query);
  }
  versionThisTurn = { client, version: query.get() as number };
  setImmediate(forgetVersion);
  return versionThisTurn.version;
}

function forgetVersion(): void {
  versionThisTurn = null;
}

/** The current stamp of `db`: equal stamps mean no relevant change in between. */
export function generationOf(db: Db): string {
  // drizzle() hands back the database with its better-sqlite3 client; a handle without one (a
  // transaction) gets a stamp no other read shares, so nothing read through it is ever reused.
  const client = (db as Db & { $client?: Sqlite.Database }).$client;
  if (!client) return `unshared:${++counters.unshared}`;
  return `${counters.writes}:${dataVersion(client)}`;
}
