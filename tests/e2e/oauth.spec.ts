import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { AuthPages, newAccount } from "./pages/app";
import { OAuthFixtureProcess, OAuthPages } from "./pages/oauth";

// Access tokens live 6 s, so the refresh test does not wait long (the provider refreshes at 75 %).
const ACCESS_TTL_S = 6;
// The real AS (oidc-provider) + MCP server with a bearer check (tests/fixtures/oauth/server.mjs).
const fixture = new OAuthFixtureProcess(ACCESS_TTL_S);
const contexts: BrowserContext[] = [];

/** One browser context per user: the AS remembers who signed in and would silently return that user's token. */
async function userPage(browser: Browser, prefix: string): Promise<{ page: Page; oauth: OAuthPages }> {
  const context = await browser.newContext();
  contexts.push(context);
  const page = await context.newPage();
  await new AuthPages(page).register(newAccount(prefix));
  return { page, oauth: new OAuthPages(page) };
}

test.describe
  .serial("OAuth in the browser", () => {
    let alice: { page: Page; oauth: OAuthPages };

    test.beforeAll(async () => {
      await fixture.start();
    });
    test.afterAll(async () => {
      for (const context of contexts) await context.close();
      fixture.stop();
    });

    test("add a protected server, Connect, sign in and consent at the AS, call a tool", async ({ browser }) => {
      alice = await userPage(browser, "oauth-alice");
      await alice.oauth.addOAuthServer("guarded", fixture.mcpUrl);
      await alice.oauth.connect("guarded", "alice");
      expect(await alice.oauth.callTool("guarded", "whoami")).toBe("alice");
      expect(await alice.oauth.callTool("guarded", "echo", { text: "hi" })).toBe("echo: hi");
      await expect(alice.page.locator("body")).not.toContainText((await fixture.stats()).tokensSeen.at(-1)!);
    });

    test("an expired access token is refreshed silently", async () => {
      const refreshesBefore = (await fixture.stats()).refreshGrants;
      await alice.page.waitForTimeout(ACCESS_TTL_S * 1000);
      expect(await alice.oauth.callTool("guarded", "whoami")).toBe("alice");
      expect((await fixture.stats()).refreshGrants).toBeGreaterThan(refreshesBefore);
      await alice.page.reload();
      await expect(alice.oauth.state("guarded")).toHaveText("connected");
    });

    test("a second user connects on their own and gets their own identity", async ({ browser }) => {
      const bob = await userPage(browser, "oauth-bob");
      const tokensBefore = (await fixture.stats()).tokensSeen.length;
      await bob.oauth.addOAuthServer("guarded", fixture.mcpUrl);
      // Bob's attempts so far carried no token (alice's is never lent to him).
      expect((await fixture.stats()).tokensSeen.slice(tokensBefore)).toEqual([]);
      await bob.oauth.connect("guarded", "bob");
      expect(await bob.oauth.callTool("guarded", "whoami")).toBe("bob");
      expect(await alice.oauth.callTool("guarded", "whoami")).toBe("alice");
    });

    test("Disconnect revokes at the AS and asks for authorization again", async () => {
      const before = (await fixture.stats()).revocations;
      await alice.page.getByTestId("server-guarded").getByRole("button", { name: "Disconnect" }).click();
      await expect.poll(async () => (await fixture.stats()).revocations).toBeGreaterThan(before);
      await alice.page.reload();
      await expect(alice.oauth.state("guarded")).toHaveText("needs authorization");
      await expect(alice.page.getByTestId("server-guarded").getByRole("button", { name: "Connect", exact: true })).toBeVisible();
    });

    test("the callback refuses a state it did not issue and does not echo it", async () => {
      const response = await alice.page.request.get(`/api/oauth/callback?state=%3Cscript%3Ealert(1)%3C/script%3E&code=x`);
      expect(response.status()).toBe(400);
      expect(await response.text()).not.toContain("<script>alert");
    });

    test("the client metadata document is served", async () => {
      const response = await alice.page.request.get("/oauth/client-metadata.json");
      const doc = await response.json();
      expect(doc.client_id).toMatch(/\/oauth\/client-metadata\.json$/);
      expect(doc.redirect_uris[0]).toMatch(/\/api\/oauth\/callback$/);
    });
  });
