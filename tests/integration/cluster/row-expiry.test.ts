/**
 * Expiry of old rows (lib/runtime/row-expiry.ts) with two replicas on one database: two processes
 * running their round at the same moment delete once (one round runs, the other finds the lease
 * held), what is still of use stays, and a replica that held the lease and died is taken over once
 * the lease ran out. Real processes (tsx children) on either lane (`SWITCHBOARD_TEST_DB=postgres`).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { all } from "@/db/exec";
import { takeLease } from "@/db/queries/leases";
import { insertPasswordReset } from "@/db/queries/password-resets";
import type { ExpiredRows } from "@/db/queries/row-expiry";
import { createSession, endSession } from "@/db/queries/sessions";
import { upsertOAuthServerRecord } from "@/db/queries/oauth-server";
import { leases, oauthServerRecords, passwordResets, sessions } from "@/db/schema";
import { ROW_EXPIRY_LEASE } from "@/lib/runtime/row-expiry";
import { registerTestUser } from "../../helpers/register";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";

const CHILD = path.join("tests", "fixtures", "cluster", "row-expiry-process.ts");
const DAY = 86_400_000;

let dir = "";
let userId = "";

beforeAll(async () => {
  dir = useTempDataDir();
  const db = getDb();
  userId = (await registerTestUser(db, { email: "a@example.com", password: "a long enough password", name: "a" })).id;
});
afterAll(() => removeTempDataDir(dir));

/** Replica `replica`'s round at wall-clock `startAt`, its clock `offset` ms ahead; what it deleted, or null. */
function round(replica: string, startAt: number, offset = 0): Promise<ExpiredRows | null> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", CHILD, String(startAt), String(offset)], {
      env: { ...process.env, SWITCHBOARD_REPLICA_ID: replica, REDIS_URL: undefined },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    proc.stderr.on("data", (chunk) => (err += chunk));
    proc.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`the child exited ${code}: ${err}`));
      resolve((JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { deleted: ExpiredRows | null }).deleted);
    });
  });
}

/** A session of the test user: `ended` and `expires` relative to now. */
async function session(expiresIn: number, endedAgo?: number): Promise<string> {
  const now = Date.now();
  const id = await createSession(getDb(), { userId, now: new Date(now - 40 * DAY), expiresAt: new Date(now + expiresIn) });
  if (endedAgo !== undefined) await endSession(getDb(), id, new Date(now - endedAgo));
  return id;
}

async function reset(expiresIn: number, name: string): Promise<string> {
  return (await insertPasswordReset(getDb(), { userId, tokenHash: name, issuedBy: null, expiresAt: new Date(Date.now() + expiresIn) })).id;
}

const ids = async (table: typeof sessions | typeof passwordResets) =>
  new Set((await all(getDb().select({ id: table.id }).from(table))).map((row) => row.id));
/** An authorization server record (a code, say) expiring `expiresIn` ms from now (null: never). */
async function oauthRecord(key: string, expiresIn: number | null): Promise<void> {
  await upsertOAuthServerRecord(getDb(), {
    keyHash: key,
    model: "AuthorizationCode",
    payloadEnc: "sealed",
    grantId: null,
    uidHash: null,
    userCodeHash: null,
    userId,
    clientId: null,
    expiresAt: expiresIn === null ? null : new Date(Date.now() + expiresIn),
  });
}
const oauthKeys = async () =>
  new Set((await all(getDb().select({ key: oauthServerRecords.keyHash }).from(oauthServerRecords))).map((row) => row.key));
const leaseNames = async () => new Set((await all(getDb().select({ name: leases.name }).from(leases))).map((row) => row.name));

describe("expiry of old rows across replicas", () => {
  it("two replicas at the same moment: one round runs and deletes each old row once; what is still of use stays", async () => {
    const live = await session(DAY);
    const endedLately = await session(DAY, DAY);
    await session(DAY, 31 * DAY); // ended a month ago
    await session(-31 * DAY); // expired a month ago, never ended
    const resetLately = await reset(-3_600_000, "lately");
    const resetLive = await reset(3_600_000, "live");
    await reset(-31 * DAY, "old");
    // The authorization server's records go as soon as they expired: oidc-provider reads them as absent.
    await oauthRecord("expired", -60_000);
    await oauthRecord("live", DAY);
    await oauthRecord("forever", null);
    const db = getDb();
    const now = new Date();
    await takeLease(db, "sandbox-cgroup-reaper:gone-pod", "dead", 60_000, new Date(now.getTime() - 2 * 3_600_000));
    await takeLease(db, "oauth-refresh:lately", "dead", 60_000, new Date(now.getTime() - 10 * 60_000));
    await takeLease(db, "oauth-refresh:live", "alive", 60_000, now);

    const startAt = Date.now() + 4_000;
    const rounds = await Promise.all([round("replica-a", startAt), round("replica-b", startAt)]);
    const ran = rounds.filter((r) => r !== null);
    expect(ran).toEqual([{ sessions: 2, passwordResets: 1, leases: 1, oauthServerRecords: 1 }]);
    expect(await oauthKeys()).toEqual(new Set(["live", "forever"]));
    expect(await ids(sessions)).toEqual(new Set([live, endedLately]));
    expect(await ids(passwordResets)).toEqual(new Set([resetLately, resetLive]));
    expect(await leaseNames()).toEqual(new Set([ROW_EXPIRY_LEASE, "oauth-refresh:lately", "oauth-refresh:live"]));
    const [held] = await all(db.select().from(leases).where(eq(leases.name, ROW_EXPIRY_LEASE)));
    expect(held.owner).toBe(rounds[0] ? "replica-a" : "replica-b");
  }, 60_000);

  it("the replica holding the lease died: another skips while the lease runs, and takes over once it ran out", async () => {
    const [held] = await all(getDb().select().from(leases).where(eq(leases.name, ROW_EXPIRY_LEASE)));
    const holder = held.owner;
    const other = holder === "replica-a" ? "replica-b" : "replica-a";
    const old = await session(-31 * DAY);
    // The holder is gone (its process exited without giving the lease back, as a crash would). The
    // other's next rounds come a minute before and a minute after the lease runs out.
    const runsOutAt = held.expiresAt.getTime();
    let startAt = Date.now() + 2_000;
    expect(await round(other, startAt, runsOutAt - 60_000 - startAt)).toBeNull();
    expect(await ids(sessions)).toContain(old);
    startAt = Date.now() + 2_000;
    const taken = await round(other, startAt, runsOutAt + 60_000 - startAt);
    expect(taken?.sessions).toBe(1);
    expect(await ids(sessions)).not.toContain(old);
    const [now] = await all(getDb().select().from(leases).where(eq(leases.name, ROW_EXPIRY_LEASE)));
    expect(now.owner).toBe(other);
  }, 60_000);
});
