import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { AuthPages, newAccount } from "./pages/app";
import { OAuthFixtureProcess, OAuthPages } from "./pages/oauth";

// The real AS (oidc-provider) + MCP server (tests/fixtures/oauth/server.mjs); its admin_action tool
// answers 403 insufficient_scope unless the token carries mcp:admin, which its metadata never lists.
const fixture = new OAuthFixtureProcess(3600, { stepUpScope: "mcp:admin" });
let context: BrowserContext;

test.describe
  .serial("OAuth step-up in the browser", () => {
    let page: Page;
    let oauth: OAuthPages;

    test.beforeAll(async ({ browser }) => {
      await fixture.start();
      context = await browser.newContext();
      page = await context.newPage();
      await new AuthPages(page).register(newAccount("step-up"));
      oauth = new OAuthPages(page);
    });
    test.afterAll(async () => {
      await context?.close();
      fixture.stop();
    });

    test("a tool needing a wider scope → 'needs a wider scope' → Connect asks for both scopes → the tool works, one registration", async () => {
      await oauth.addOAuthServer("admin-api", fixture.mcpUrl);
      await oauth.connect("admin-api", "carol");
      expect(await oauth.callTool("admin-api", "whoami")).toBe("carol");

      // The tool needs mcp:admin: the call fails as an authorization matter, naming the scope.
      const id = await oauth.serverId("admin-api");
      const denied = await page.request.post(`/api/servers/${id}/tools/call`, { data: { name: "admin_action", arguments: {} } });
      const body = (await denied.json()) as { isError?: boolean; errorCode?: string };
      expect(body).toMatchObject({ isError: true, errorCode: "needs_authorization" });

      // A reload connects again with the old token; the page must still say what is missing.
      await page.reload();
      const card = page.getByTestId("server-admin-api");
      await expect(oauth.state("admin-api")).toHaveText("needs a wider scope");
      await expect(card.getByTestId("server-error")).toContainText("mcp:admin");
      const connect = card.getByRole("button", { name: "Connect", exact: true });
      await expect(connect).toBeVisible();

      // Connect: the authorization request carries the union; the AS (already signed in) asks consent.
      const authorization = page.waitForRequest((request) => request.url().startsWith(`${fixture.issuer}/auth`));
      await connect.click();
      const scope = new URL((await authorization).url()).searchParams.get("scope")?.split(" ") ?? [];
      expect(scope).toEqual(expect.arrayContaining(["mcp:tools", "mcp:admin"]));
      await expect(page.locator("body")).toContainText("mcp:admin");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/servers$/);
      await expect(oauth.state("admin-api")).toHaveText("connected");

      expect(await oauth.callTool("admin-api", "admin_action")).toBe("admin done for carol");
      expect(await oauth.callTool("admin-api", "whoami")).toBe("carol");
      const stats = await fixture.stats();
      expect(stats.registrations).toBe(1);
      expect(stats.authorizationScopes).toHaveLength(2);
    });
  });
