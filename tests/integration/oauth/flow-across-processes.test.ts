/**
 * The browser OAuth flow with its two halves on two replicas: Connect is begun by one process and
 * the authorization server's redirect back is handled by another, which shares nothing with the first
 * but the database (`oauth_states` holds the state and the sealed PKCE verifier; the client
 * registration and discovery are `server_credentials` rows). Against the real authorization server
 * fixture, on either lane (`SWITCHBOARD_TEST_DB=postgres`). The state is used once across processes:
 * the same redirect handled again, by a third process, is refused.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerDefinition } from "@/lib/mcp";
import { oauthCallbackResponse } from "@/lib/oauth/web/callback";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { addOAuthServer, devLogin, signUp, startFixture, testDeps, type OAuthFixture } from "./helpers";

const CHILD = path.join("tests", "fixtures", "oauth", "flow-process.ts");

let dir: string;
let fixture: OAuthFixture;

beforeAll(async () => {
  dir = useTempDataDir();
  fixture = await startFixture();
});
afterAll(async () => {
  await fixture?.close();
  removeTempDataDir(dir);
});

/** Run one step of the flow in a process of its own; resolves to what it printed. */
function step(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    proc.stderr.on("data", (chunk) => (err += chunk));
    proc.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`the child exited ${code}: ${err}`));
      resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>);
    });
  });
}

describe("the OAuth flow across processes", () => {
  it("begun on one replica, completed on another: the tokens are stored; the same redirect again is refused", async () => {
    const alice = await signUp("alice@example.com");
    const server: ServerDefinition = await addOAuthServer(alice, "across", fixture.mcpUrl);
    const begun = await step(["begin", alice.id, JSON.stringify(server)]);
    expect(begun.status).toBe("redirect");
    // The browser signs in at the authorization server and is sent back with a code and the state.
    const back = await devLogin(String(begun.url), "alice");
    expect(back.searchParams.get("state")).toBeTruthy();

    const done = await step(["callback", alice.id, JSON.stringify(server), back.href]);
    expect(done).toEqual({ status: 303, location: "/servers" });
    expect(fixture.stats.codeGrants).toBe(1);
    // This process (a third replica) reads the tokens the second stored.
    const deps = testDeps();
    const stored = await deps.store.get({ userId: alice.id, serverId: server.id }, "tokens");
    expect(JSON.parse(stored!).tokens.access_token).toBeTruthy();

    // The state was taken by the second process: handled again here it is refused, and no code is redeemed.
    const again = await oauthCallbackResponse(deps, { url: back, userId: alice.id, findServer: () => server });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('data-testid="oauth-error"');
    expect(fixture.stats.codeGrants).toBe(1);
  }, 60_000);

  it("a redirect back for another user's flow is refused on the other replica", async () => {
    const bob = await signUp("bob@example.com");
    const mallory = await signUp("mallory@example.com");
    const server = await addOAuthServer(bob, "foreign", fixture.mcpUrl);
    const begun = await step(["begin", bob.id, JSON.stringify(server)]);
    const back = await devLogin(String(begun.url), "bob");
    const done = await step(["callback", mallory.id, JSON.stringify(server), back.href]);
    expect(done.status).toBe(400);
    expect(await testDeps().store.get({ userId: mallory.id, serverId: server.id }, "tokens")).toBeUndefined();
  }, 60_000);
});
