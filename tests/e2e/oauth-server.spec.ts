/**
 * Switchboard as the authorization server of its MCP gateway, in the browser
 * (docs/gateway.md#the-authorization-server): the MCP SDK v2 client, given only the endpoint's URL,
 * is refused, discovers the authorization server, registers itself and hands over an authorization
 * URL; the member's browser opens it, sees the consent page (client name, redirect, workspace and
 * server; 1280 and 390 px, axe clean) and allows with the keyboard; the client finishes with the
 * code and calls a tool through the gateway. A signed-out outsider is sent to sign in and back, and
 * is offered Deny only. The connected client is listed on the account page and revoked there.
 */
import {
  Client,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  StreamableHTTPClientTransport,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { expectNoSeriousA11yViolations, horizontalOverflow } from "./pages/a11y";
import { waitForHydration } from "./pages/app";
import { addMember, createTeam, SETUP, signedUp } from "./pages/workspaces";

test.describe.configure({ timeout: 180_000 });

// Where the client's redirect lands: nothing listens there; the browser's request to it is caught.
const REDIRECT = "http://127.0.0.1:9/e2e-oauth-callback";

/** The SDK's OAuth client provider, in memory: what a CLI client keeps in its config directory. */
class MemoryProvider implements OAuthClientProvider {
  info: StoredOAuthClientInformation | undefined;
  stored: StoredOAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  discovered: OAuthDiscoveryState | undefined;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: "E2E SDK client",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.info = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  // Kept with the verifier, so the callback leg checks it talks to the authorization server it began with.
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovered = state;
  }
  discoveryState() {
    return this.discovered;
  }
}

/** The client's first connection: refused, it registers and asks for the browser; the authorization URL. */
async function startClient(endpoint: string, provider: MemoryProvider): Promise<{ transport: StreamableHTTPClientTransport; url: URL }> {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider });
  const client = new Client({ name: "e2e-sdk-client", version: "1.0.0" });
  await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.info?.client_id).toBeTruthy();
  const url = provider.authorizationUrl as URL;
  expect(url.pathname).toBe("/oauth/authorize");
  expect(url.searchParams.get("resource")).toBe(endpoint);
  return { transport, url };
}

/** Catch the browser's arrival at the client's redirect URI: the query it carried. */
function callbackOn(page: Page): Promise<URLSearchParams> {
  return new Promise((resolve) => {
    void page.route(`${REDIRECT}**`, async (route) => {
      resolve(new URL(route.request().url()).searchParams);
      await route.fulfill({ status: 200, contentType: "text/plain", body: "You can close this window." });
    });
  });
}

async function fitsAndPasses(page: Page, label: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const { scrollWidth, innerWidth } = await horizontalOverflow(page);
    expect(scrollWidth, `${label} at ${width} px: no sideways scroll`).toBeLessThanOrEqual(innerWidth);
    await expectNoSeriousA11yViolations(page, `${label} at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("an MCP SDK client signs in through the consent page, calls a tool, and is revoked from the account page", async ({
  browser,
  everything,
}) => {
  const stamp = Date.now();
  const owner = await signedUp(browser, "as-owner");
  const member = await signedUp(browser, "as-member");
  const team = await createTeam(owner, `Gateway ${stamp}`);
  await addMember(owner, team.id, member, "member");
  const created = await owner.api.post("/api/servers", {
    data: { name: "everything", config: { url: everything.url } },
    headers: { "x-workspace-id": team.id },
    ...SETUP,
  });
  expect(created.status()).toBe(201);
  const { id: serverId } = (await created.json()) as { id: string };
  // `echo` runs without a question for the member (the server is untrusted: every tool asks by default).
  const policy = await member.api.put("/api/settings/tool-policies", {
    data: { serverId, toolName: "echo", policy: "allow" },
    headers: { "x-workspace-id": team.id },
    ...SETUP,
  });
  expect(policy.status()).toBe(204);

  const { page } = member;
  const origin = new URL(page.url()).origin;
  const endpoint = `${origin}/mcp/${team.slug}/everything`;
  const provider = new MemoryProvider();
  const { transport, url } = await startClient(endpoint, provider);

  const callback = callbackOn(page);
  await page.goto(url.href);
  await expect(page).toHaveURL(/\/oauth\/interaction\/[\w-]+$/);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("E2E SDK client");
  const details = page.getByTestId("consent-details");
  await expect(details).toContainText("Client (self-declared name)");
  await expect(details).toContainText(REDIRECT);
  await expect(details).toContainText(`The server "everything" of the workspace Gateway ${stamp}`);
  await expect(details).toContainText(endpoint);
  await fitsAndPasses(page, "consent page");
  // Allow with the keyboard.
  await page.getByRole("button", { name: "Allow" }).focus();
  await page.keyboard.press("Enter");
  const params = await callback;
  expect(params.get("code")).toBeTruthy();

  await transport.finishAuth(params);
  expect(provider.stored?.access_token).toBeTruthy();
  const client = new Client({ name: "e2e-sdk-client", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider }));
  expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("echo");
  const result = await client.callTool({ name: "echo", arguments: { message: "signed in through the browser" } });
  expect(JSON.stringify(result.content)).toContain("signed in through the browser");
  await client.close();

  // The account page lists it; Revoke (confirmed) ends its access at once.
  await page.goto("/account");
  await waitForHydration(page);
  const section = page.getByTestId("connected-clients");
  await expect(section.getByRole("heading", { name: "Connected clients" })).toBeVisible();
  const row = section.getByTestId("connected-client").filter({ hasText: "E2E SDK client" });
  await expect(row).toContainText(`Gateway ${stamp} › everything`);
  await expect(row).toContainText("last used");
  await fitsAndPasses(page, "account with a connected client");
  await row.getByRole("button", { name: "Revoke E2E SDK client" }).click();
  await row.getByRole("button", { name: "Revoke client" }).click();
  await expect(section.getByTestId("connected-client").filter({ hasText: "E2E SDK client" })).toHaveCount(0);
  const refused = await fetch(endpoint, {
    method: "POST",
    headers: {
      authorization: `Bearer ${provider.stored?.access_token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  expect(refused.status).toBe(401);
  expect(refused.headers.get("www-authenticate")).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp/`);

  // A signed-out outsider: to sign in and back to the consent page, which offers Deny only.
  const outsider = await signedUp(browser, "as-outsider");
  const outsiderEmail = outsider.account.email;
  await outsider.close();
  const fresh = await browser.newContext();
  const stranger = await fresh.newPage();
  const second = await startClient(endpoint, new MemoryProvider());
  const denied = callbackOn(stranger);
  await stranger.goto(second.url.href);
  await expect(stranger).toHaveURL(/\/signin\?next=%2Foauth%2Finteraction%2F/);
  await waitForHydration(stranger);
  await stranger.getByLabel("Email").fill(outsiderEmail);
  await stranger.getByLabel("Password").fill(outsider.account.password);
  await stranger.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(stranger).toHaveURL(/\/oauth\/interaction\/[\w-]+$/);
  await expect(stranger.getByTestId("consent-refusal")).toContainText("not a member");
  await expect(stranger.getByRole("button", { name: "Allow" })).toHaveCount(0);
  await stranger.getByRole("button", { name: "Deny" }).click();
  expect((await denied).get("error")).toBe("access_denied");
  await fresh.close();
});
