import { expect, test } from "@playwright/test";
import { AuthPages, newAccount } from "./pages/app";
import { OAuthFixtureProcess, OAuthPages } from "./pages/oauth";

// The app runs without a configured public URL (playwright.config.ts), so OAuth must come back to
// the loopback address the user is on, where their session cookie is (lib/oauth/web/redirect.ts).
const PORT = Number(process.env.E2E_PORT ?? 3111);
const LOOPBACK_IP = `http://127.0.0.1:${PORT}`;
const fixture = new OAuthFixtureProcess(3600);

test.beforeAll(async () => {
  await fixture.start();
});
test.afterAll(() => {
  fixture.stop();
});

test("Connect started from 127.0.0.1 comes back to 127.0.0.1 and connects", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: LOOPBACK_IP });
  try {
    const page = await context.newPage();
    await new AuthPages(page).register(newAccount("oauth-origin"));
    const oauth = new OAuthPages(page);
    await oauth.addOAuthServer("loopback-origin", fixture.mcpUrl);
    const asked = page.waitForRequest((request) => request.url().startsWith(fixture.issuer));
    const connecting = oauth.connect("loopback-origin", "carol");
    const authorize = new URL((await asked).url());
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${LOOPBACK_IP}/api/oauth/callback`);
    await connecting;
    expect(new URL(page.url()).origin).toBe(LOOPBACK_IP);
    expect(await oauth.callTool("loopback-origin", "whoami")).toBe("carol");
  } finally {
    await context.close();
  }
});
