/**
 * Two processes (two replicas) on one database ask for one user's expired OAuth tokens at the same
 * moment: the refresh lease (db/queries/leases.ts, taken by the database store) lets one of them
 * refresh; the other waits, reads what it stored and is handed the same token. The authorization
 * server sees exactly one refresh grant, so a rotating refresh token is never spent twice.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { releaseLease, takeLease } from "@/db/queries/leases";
import { oauthCallbackResponse } from "@/lib/oauth/web/callback";
import type { OAuthDeps } from "@/lib/oauth/web/deps";
import { beginAuthorization } from "@/lib/oauth/web/flow";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { addOAuthServer, devLogin, signUp, startFixture, testDeps, type OAuthFixture } from "./helpers";

const TSX = path.join("node_modules", "tsx", "dist", "cli.mjs");
const CHILD = path.join("tests", "fixtures", "oauth", "refresh-process.ts");

let dir: string;
let deps: OAuthDeps;
let fixture: OAuthFixture;

beforeAll(async () => {
  dir = useTempDataDir();
  deps = testDeps();
  fixture = await startFixture();
});
afterAll(async () => {
  await fixture?.close();
  removeTempDataDir(dir);
});

/** Run the child; resolves to the access token it printed. */
function child(userId: string, server: unknown, startAt: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [TSX, CHILD, userId, JSON.stringify(server), String(startAt)], {
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    proc.stderr.on("data", (chunk) => (err += chunk));
    proc.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`the child exited ${code}: ${err}`));
      resolve((JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { accessToken: string | null }).accessToken);
    });
  });
}

describe("one refresh across processes", () => {
  it("a lease is one holder's until released or run out, on either database", async () => {
    const db = getDb();
    const now = new Date();
    expect(await takeLease(db, "probe", "a", 1_000, now)).toBe(true);
    expect(await takeLease(db, "probe", "b", 1_000, now)).toBe(false);
    // Its holder renews it; another takes it once it ran out.
    expect(await takeLease(db, "probe", "a", 1_000, now)).toBe(true);
    expect(await takeLease(db, "probe", "b", 1_000, new Date(now.getTime() + 2_000))).toBe(true);
    // Only its holder gives it back.
    await releaseLease(db, "probe", "a");
    expect(await takeLease(db, "probe", "c", 1_000, new Date(now.getTime() + 2_000))).toBe(false);
    await releaseLease(db, "probe", "b");
    expect(await takeLease(db, "probe", "c", 1_000, new Date(now.getTime() + 2_000))).toBe(true);
  });

  it("two processes asking at once for expired tokens: one refresh grant, the same new token for both", async () => {
    const alice = await signUp("alice@example.com");
    const server = await addOAuthServer(alice, "shared-refresh", fixture.mcpUrl);
    const begun = await beginAuthorization(deps, alice.id, server);
    if (begun.status !== "redirect") throw new Error("expected a redirect");
    const back = await devLogin(begun.url, "alice");
    expect((await oauthCallbackResponse(deps, { url: back, userId: alice.id, findServer: () => server })).status).toBe(303);
    const before = JSON.parse((await deps.store.get({ userId: alice.id, serverId: server.id }, "tokens"))!).tokens.access_token;
    expect(fixture.stats.refreshGrants).toBe(0);

    // Both start their request at the same wall-clock moment, after their start-up.
    const startAt = Date.now() + 4_000;
    const [first, second] = await Promise.all([child(alice.id, server, startAt), child(alice.id, server, startAt)]);
    expect(fixture.stats.refreshGrants).toBe(1);
    expect(first).toBeTruthy();
    expect(first).not.toBe(before);
    expect(second).toBe(first);
  }, 60_000);
});
