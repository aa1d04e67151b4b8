/**
 * A change stamp for the rows that decide who may reach what: sessions ending, users, workspaces,
 * memberships, servers, per-(user, server) credentials, tool trust (pins, tool policies, server
 * trust settings), and what a chat turn reads before its model runs (model choices, workspace
 * settings, usage budgets). Every write to those tables in
 * db/queries bumps it, so a lookup cache stamped with it (lib/lookup-cache.ts) is stale from the
 * very next read after a change. Another connection's commits (another process: preflight, an
 * operator's script, another replica), which no counter here sees, are part of the stamp too: on
 * SQLite its `data_version`; on Postgres the count of change notifications (db/changes-postgres.ts,
 * whose comment says why LISTEN/NOTIFY and not a stamp table).
 */
import type Sqlite from "better-sqlite3";
import type { Db } from "./client";
import { changesOf } from "./changes-postgres";

// One counter for the whole process, not per handle: writes inside a transaction go through the
// transaction's own handle, and a bump there must still reach readers of the database handle. It
// lives on globalThis because the server bundles may hold more than one copy of this module (one
// per route entry, and Next's dev server re-evaluates modules), and a bump must reach them all.
const SLOT = Symbol.for("switchboard.db.generation");
const slots = globalThis as { [SLOT]?: { writes: number; unshared: number } };
slots[SLOT] ??= { writes: 0, unshared: 0 };
const counters = slots[SLOT];
const dataVersionQueries = new WeakMap<Sqlite.Database, Sqlite.Statement>();
const VERSION_SLOT = Symbol.for("switchboard.db.dataVersion");

/** Mark that rows deciding access or server definitions changed (call after each such write). */
export function bumpGeneration(): void {
  counters.writes++;
}

/** How long a read of another process's commits counts: such a commit is seen within this time. */
export const DATA_VERSION_TTL_MS = 50;

// Another connection's commit (another process: the preflight, an operator's script) is checked at
// most every DATA_VERSION_TTL_MS: a request reads the stamp for every cache it passes, and the
// PRAGMA was a visible share of a tool call. Our own writes never move `data_version` (they move
// the counter, read every time), so a sign-out or an edit in the app is still seen at once. Kept on
// globalThis with the counter, so every copy of this module shares one read.
const versions = globalThis as { [VERSION_SLOT]?: { client: Sqlite.Database; version: number; at: number } | null };

function dataVersion(client: Sqlite.Database): number {
  const now = performance.now();
  const last = versions[VERSION_SLOT];
  if (last?.client === client && now - last.at < DATA_VERSION_TTL_MS) return last.version;
  let query = dataVersionQueries.get(client);
  if (!query) {
    query = client.prepare("PRAGMA data_version").pluck();
    dataVersionQueries.set(client, query);
  }
  const version = query.get() as number;
  versions[VERSION_SLOT] = { client, version, at: now };
  return version;
}

const unshared = () => `unshared:${++counters.unshared}`;

/** The current stamp of `db`: equal stamps mean no relevant change in between. */
export function generationOf(db: Db): string {
  // drizzle() hands back the database with its client; a handle without one (a transaction) gets a
  // stamp no other read shares, so nothing read through it is ever reused.
  const client = (db as Db & { $client?: object }).$client;
  if (!client) return unshared();
  const changes = changesOf(client);
  if (changes) {
    // Not listening (yet, or the connection dropped): other processes' commits would go unseen.
    const version = changes.version();
    return version === null ? unshared() : `${counters.writes}:pg${version}`;
  }
  if (typeof (client as Partial<Sqlite.Database>).prepare !== "function") return unshared();
  return `${counters.writes}:${dataVersion(client as Sqlite.Database)}`;
}
