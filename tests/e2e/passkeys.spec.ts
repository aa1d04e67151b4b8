/**
 * Passkeys in the browser (docs/second-factors.md#passkeys), with Chromium's virtual authenticator
 * over CDP (a platform authenticator with resident keys and user verification): add a passkey on
 * the account page, sign out, sign in with the passkey alone, sign in with the password and the
 * passkey as the second step; failed passkey answers throttled like wrong passwords; and removing
 * it from the account page with the passkey itself.
 */
import { type APIRequestContext, type CDPSession, expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import { newAccount, setupCode, waitForHydration } from "./pages/app";

const PORT = Number(process.env.E2E_PORT ?? 3111);
const BASE = `http://localhost:${PORT}`;

/** A virtual platform authenticator on `page` that holds discoverable credentials and verifies its user. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function register(client: APIRequestContext, account: { name: string; email: string; password: string }) {
  const code = setupCode();
  expect((await client.post("/api/auth/register", { data: code ? { ...account, setupCode: code } : account })).status()).toBe(201);
}

async function passwordStep(page: Page, account: { email: string; password: string }) {
  await page.goto("/signin");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/signin/);
  await waitForHydration(page);
}

test.describe("passkeys", () => {
  test("add a passkey, sign in with it alone, use it as the second step; answers that do not verify are throttled", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const account = newAccount("passkey");
    await register(request, account);
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await passwordStep(page, account);
    await expect(page.getByTestId("current-user")).toBeVisible();

    // Add it on the account page: a first factor, so the recovery codes are shown once.
    await page.goto("/account");
    await waitForHydration(page);
    await page.getByLabel("Passkey name").fill("Virtual laptop");
    await page.getByTestId("add-passkey").click();
    await expect(page.getByTestId("recovery-code")).toHaveCount(10);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await expect(page.getByTestId("factor")).toHaveCount(1);
    await expect(page.getByTestId("factor")).toContainText("Virtual laptop");
    await expect(page.getByTestId("factor")).toContainText("passkey");
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].isResidentCredential).toBe(true);
    const credentialId = Buffer.from(credentials[0].credentialId, "base64").toString("base64url");

    // Passwordless: no email, no password.
    await signOut(page);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page.getByTestId("current-user")).toBeVisible();

    // The password now owes a second factor, and the passkey answers it instead of a code.
    await signOut(page);
    await passwordStep(page, account);
    await expect(page.getByTestId("second-factor-form")).toBeVisible();
    await expect(page.getByTestId("current-user")).toHaveCount(0);
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await expect(page.getByTestId("current-user")).toBeVisible();
    await page.goto("/account");
    await expect(page.getByTestId("factor")).toContainText("last used");

    // Answers that do not verify count against the passkey's account like wrong passwords: the 6th is throttled.
    const client = await playwrightRequest.newContext({ baseURL: BASE });
    const forged = JSON.stringify({
      id: credentialId,
      rawId: credentialId,
      type: "public-key",
      response: {
        clientDataJSON: Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: "bm9uZQ", origin: BASE })).toString("base64url"),
        authenticatorData: "AAAA",
        signature: "AAAA",
      },
      clientExtensionResults: {},
    });
    for (let i = 0; i < 5; i++) {
      const { csrfToken } = await (await client.get("/api/auth/csrf")).json();
      const answer = await client.post("/api/auth/callback/credentials", {
        form: { csrfToken, passkey: forged, json: "true" },
        headers: { "x-forwarded-for": `198.51.100.${10 + i}` },
      });
      expect(answer.status()).toBe(401);
    }
    const { csrfToken } = await (await client.get("/api/auth/csrf")).json();
    const throttled = await client.post("/api/auth/callback/credentials", {
      form: { csrfToken, passkey: forged, json: "true" },
      headers: { "x-forwarded-for": "198.51.100.99" },
    });
    expect(throttled.status()).toBe(429);
    expect(Number(throttled.headers()["retry-after"])).toBeGreaterThan(0);
    await client.dispose();
  });

  test("the account page lists the passkey with its dates, and removes it with the passkey itself", async ({ page, request }) => {
    const account = newAccount("passkey-remove");
    await register(request, account);
    await virtualAuthenticator(page);
    await passwordStep(page, account);
    await expect(page.getByTestId("current-user")).toBeVisible();
    await page.goto("/account");
    await waitForHydration(page);
    await page.getByTestId("add-passkey").click();
    await page.getByRole("button", { name: "I have saved them" }).click();
    await expect(page.getByTestId("factor")).toContainText("Passkey");
    await expect(page.getByTestId("factor")).toContainText("added");
    await page.getByTestId("factor").getByRole("button", { name: "Remove", exact: true }).click();
    await page.getByRole("button", { name: "Remove with a passkey" }).click();
    await expect(page.getByTestId("factor")).toHaveCount(0);
    await expect(page.getByTestId("second-factors")).toContainText("None yet");
  });
});
