/**
 * The callback through its route logic with a real SQLite file and a real AS: wrong, reused,
 * expired and another user's state are refused; query values never reach the HTML.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerDefinition } from "@/lib/mcp";
import { oauthCallbackResponse } from "@/lib/oauth/web/callback";
import type { OAuthDeps } from "@/lib/oauth/web/deps";
import { OAUTH_ERROR_MESSAGES } from "@/lib/oauth/shared/errors";
import { beginAuthorization } from "@/lib/oauth/web/flow";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { addOAuthServer, devLogin, signUp, startFixture, testDeps, type OAuthFixture, type TestUser } from "./helpers";

let dir: string;
let fixture: OAuthFixture;
let alice: TestUser;
let bob: TestUser;
let server: ServerDefinition;
let deps: OAuthDeps;

beforeAll(async () => {
  dir = useTempDataDir();
  fixture = await startFixture();
  alice = await signUp("alice@example.com");
  bob = await signUp("bob@example.com");
  server = await addOAuthServer(alice, "guarded", fixture.mcpUrl);
  deps = testDeps();
});
afterAll(async () => {
  await fixture.close();
  removeTempDataDir(dir);
});

function callback(query: string, userId: string | null, flowDeps = deps) {
  return oauthCallbackResponse(flowDeps, {
    url: new URL(`http://localhost:3111/api/oauth/callback?${query}`),
    userId,
    findServer: (id) => (id === server.id ? server : null),
  });
}

/** Start a real authorization for alice and sign in at the AS: the callback query the AS produced. */
async function aliceCallbackQuery(): Promise<string> {
  const begun = await beginAuthorization(deps, alice.id, server);
  if (begun.status !== "redirect") throw new Error("expected a redirect");
  return (await devLogin(begun.url, "alice")).search.slice(1);
}

async function expectRefused(response: Response, code: keyof typeof OAUTH_ERROR_MESSAGES) {
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toMatch(/text\/html/);
  expect(await response.text()).toContain(OAUTH_ERROR_MESSAGES[code].replace(/'/g, "&#39;"));
}

describe("OAuth callback", () => {
  it("accepts the user's own fresh state once, then refuses it (single use)", async () => {
    const query = await aliceCallbackQuery();
    const first = await callback(query, alice.id);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/servers");
    await expectRefused(await callback(query, alice.id), "invalid_state");
  });

  it("refuses a missing or unknown state", async () => {
    await expectRefused(await callback("code=abc", alice.id), "invalid_state");
    await expectRefused(await callback("code=abc&state=not-a-state-we-issued", alice.id), "invalid_state");
  });

  it("refuses another user's state, and that state is then gone for its owner too", async () => {
    const query = await aliceCallbackQuery();
    await expectRefused(await callback(query, bob.id), "foreign_state");
    await expectRefused(await callback(query, alice.id), "invalid_state");
  });

  it("refuses an expired state", async () => {
    const query = await aliceCallbackQuery();
    const later = { ...deps, now: () => Date.now() + 11 * 60_000 };
    await expectRefused(await callback(query, alice.id, later), "expired_state");
  });

  it("refuses when nobody is signed in, without consuming the state", async () => {
    const query = await aliceCallbackQuery();
    const anonymous = await callback(query, null);
    expect(anonymous.status).toBe(401);
    expect((await callback(query, alice.id)).status).toBe(303);
  });

  it("refuses a state whose code the AS does not accept", async () => {
    const query = new URLSearchParams(await aliceCallbackQuery());
    query.set("code", "forged-code");
    await expectRefused(await callback(query.toString(), alice.id), "exchange_failed");
  });

  it("never echoes query values into the page", async () => {
    const evil = "<script>alert(1)</script>";
    const query = new URLSearchParams({
      state: evil,
      code: `<img src=x onerror=alert(2)>`,
      error: evil,
      error_description: evil,
      iss: evil,
    });
    const response = await callback(query.toString(), alice.id);
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("alert(");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const denied = await aliceCallbackQuery();
    const withError = new URLSearchParams(denied);
    withError.set("error", "access_denied");
    withError.set("error_description", evil);
    const deniedHtml = await (await callback(withError.toString(), alice.id)).text();
    expect(deniedHtml).toContain(OAUTH_ERROR_MESSAGES.authorization_denied);
    expect(deniedHtml).not.toContain("<script");
  });
});
