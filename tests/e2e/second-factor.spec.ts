/**
 * Second factors and re-authentication in the browser (docs/second-factors.md): enrolling an
 * authenticator on the account page (codes computed here with otplib), signing in with a code and
 * with a recovery code, wrong and reused codes refused and throttled; "required for instance
 * administrators" sending an admin without a factor to enrol first; stdio refused to an admin
 * without a factor whatever the policy;
 * and the re-authentication prompt retrying an act after an old sign-in.
 */
import { type APIRequestContext, expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import { generate } from "otplib";
import { writeRows } from "./helpers/database";
import { ADMIN, newAccount, setupCode, waitForHydration } from "./pages/app";

const PORT = Number(process.env.E2E_PORT ?? 3111);
const BASE = `http://localhost:${PORT}`;
let addressSeq = 0;

/** A made-up client address per use (the app trusts loopback's X-Forwarded-For), so throttle counts stay in their test. */
function freshAddress(): string {
  addressSeq += 1;
  return `203.0.113.${addressSeq}`;
}

/** The current TOTP code of `secret`, `steps` time steps ahead (each code counts once, so a test moves forward). */
function totp(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/** One step of next-auth's credentials callback from an API client at `address`. */
async function credentials(client: APIRequestContext, fields: Record<string, string>, address: string) {
  const { csrfToken } = await (await client.get("/api/auth/csrf")).json();
  return client.post("/api/auth/callback/credentials", {
    form: { csrfToken, ...fields, json: "true" },
    headers: { "x-forwarded-for": address },
  });
}

/** A new API client signed in as the instance administrator (a fresh sign-in: sensitive acts allowed). */
async function adminClient(): Promise<APIRequestContext> {
  const client = await playwrightRequest.newContext({ baseURL: BASE });
  expect((await credentials(client, { email: ADMIN.email, password: ADMIN.password }, freshAddress())).status()).toBe(200);
  return client;
}

async function register(client: APIRequestContext, account: { name: string; email: string; password: string }) {
  const code = setupCode();
  expect((await client.post("/api/auth/register", { data: code ? { ...account, setupCode: code } : account })).status()).toBe(201);
}

async function userId(admin: APIRequestContext, email: string): Promise<string> {
  const { users } = await (await admin.get(`/api/admin/users?q=${encodeURIComponent(email)}`)).json();
  return users.find((u: { email: string }) => u.email === email).id;
}

/** Sign in on the page with the password; answers whether the form then asks for a code. */
async function passwordStep(page: Page, account: { email: string; password: string }) {
  await page.goto("/signin");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Enrol an authenticator through the UI on the current page; returns its secret and the recovery codes. */
async function enrolTotp(page: Page): Promise<{ secret: string; codes: string[] }> {
  await page.getByTestId("add-totp").click();
  const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  await page.getByLabel("Code shown by the app").fill(await totp(secret));
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
  const codes = (await page.getByTestId("recovery-code").allTextContents()).map((c) => c.trim());
  await page.getByRole("button", { name: "I have saved them" }).click();
  return { secret, codes };
}

test.describe("TOTP second factor", () => {
  test("enrol on the account page, sign in with a code and with a recovery code; wrong and reused codes refused, then throttled", async ({
    page,
    request,
  }) => {
    // Six sign-ins and an enrolment in one flow: about 50 s on a loaded CI machine.
    test.setTimeout(120_000);
    const account = newAccount("totp");
    await register(request, account);
    await passwordStep(page, account);
    await expect(page.getByTestId("current-user")).toBeVisible();

    await page.goto("/account");
    await waitForHydration(page);
    await expect(page.getByTestId("second-factors")).toContainText("None yet");
    const { secret, codes } = await enrolTotp(page);
    await expect(page.getByTestId("factor")).toHaveCount(1);
    await expect(page.getByTestId("recovery-codes-left")).toHaveText("10 recovery codes left.");

    // Sign in again: the password alone now asks for a code.
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(page).toHaveURL(/\/signin/);
    await passwordStep(page, account);
    await expect(page.getByTestId("second-factor-form")).toBeVisible();
    await expect(page.getByTestId("current-user")).toHaveCount(0);
    await page.getByLabel("Code").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByTestId("signin-error")).toContainText("That code is not right");
    const used = await totp(secret, 1);
    await page.getByLabel("Code").fill(used);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByTestId("current-user")).toBeVisible();

    // A recovery code signs in once.
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(page).toHaveURL(/\/signin/);
    await passwordStep(page, account);
    await page.getByLabel("Code").fill(codes[0]);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByTestId("current-user")).toBeVisible();
    await page.goto("/account");
    await expect(page.getByTestId("recovery-codes-left")).toHaveText("9 recovery codes left.");

    // Over the API from one address: the right password owes a code, no session; reused and wrong
    // codes are refused, and they count like wrong passwords: the 6th attempt is throttled, right code or not.
    const client = await playwrightRequest.newContext({ baseURL: BASE });
    const address = freshAddress();
    const first = await credentials(client, { email: account.email, password: account.password }, address);
    expect(first.status()).toBe(401);
    expect((await first.json()).code).toBe("auth.second_factor_required");
    expect((await client.storageState()).cookies.map((c) => c.name)).not.toContain("next-auth.session-token");
    expect((await credentials(client, { code: codes[0] }, address)).status()).toBe(401);
    expect((await credentials(client, { code: used }, address)).status()).toBe(401);
    expect((await credentials(client, { code: "123456" }, address)).status()).toBe(401);
    expect((await credentials(client, { code: "654321" }, address)).status()).toBe(401);
    const throttled = await credentials(client, { code: await totp(secret, 1) }, address);
    expect(throttled.status()).toBe(429);
    expect(Number(throttled.headers()["retry-after"])).toBeGreaterThan(0);
    expect((await client.storageState()).cookies.map((c) => c.name)).not.toContain("next-auth.session-token");
    await client.dispose();
  });
});

test.describe("required for instance administrators", () => {
  test("an admin without a factor is sent to enrol first, and stdio creation is refused until they have one, even with the policy off", async ({
    page,
    request,
  }) => {
    const account = newAccount("mfa-admin");
    await register(request, account);
    const admin = await adminClient();
    const stdio = { name: `box-${Date.now()}`, config: { command: "node", args: ["--version"] } };
    try {
      expect((await admin.patch(`/api/admin/users/${await userId(admin, account.email)}`, { data: { isAdmin: true } })).status()).toBe(200);
      // The administrators' policy off: signed in without a code, but still no stdio server without a factor.
      const off = await admin.put("/api/admin/mfa-policy", { data: { requiredForAdmins: false, requiredForEveryone: false } });
      expect(off.status()).toBe(200);
      const unguarded = await playwrightRequest.newContext({ baseURL: BASE });
      expect((await credentials(unguarded, { email: account.email, password: account.password }, freshAddress())).status()).toBe(200);
      const refusedOff = await unguarded.post("/api/servers", { data: stdio });
      expect(refusedOff.status()).toBe(403);
      expect(await refusedOff.json()).toMatchObject({ code: "auth.enrolment_required", field: "command" });
      await unguarded.dispose();

      const policy = await admin.put("/api/admin/mfa-policy", { data: { requiredForAdmins: true, requiredForEveryone: false } });
      expect(policy.status()).toBe(200);

      await passwordStep(page, account);
      await expect(page).toHaveURL(/\/enrol$/);
      await expect(page.getByTestId("enrolment-required")).toContainText("requires a second factor");
      // Every page sends them back here first.
      await page.goto("/servers");
      await expect(page).toHaveURL(/\/enrol$/);
      const refused = await page.request.post("/api/servers", { data: stdio });
      expect(refused.status()).toBe(403);
      expect((await refused.json()).code).toBe("auth.enrolment_required");

      await waitForHydration(page);
      await enrolTotp(page);
      await expect(page.getByTestId("current-user")).toBeVisible();
      const created = await page.request.post("/api/servers", { data: stdio });
      expect(created.status()).toBe(201);
      expect((await page.request.delete(`/api/servers/${(await created.json()).id}`)).status()).toBe(204);
    } finally {
      // The rest of the suite signs in as an administrator without a factor.
      await admin.put("/api/admin/mfa-policy", { data: { requiredForAdmins: false, requiredForEveryone: false } });
      await admin.dispose();
    }
  });
});

test.describe("re-authentication", () => {
  test("after 10 minutes a sensitive act asks for the password, then goes through", async ({ page, request }) => {
    const other = newAccount("reauth-target");
    await register(request, other);
    await passwordStep(page, ADMIN);
    await expect(page.getByTestId("current-user")).toBeVisible();
    // The administrator's sign-in, 11 minutes ago (what sessions.authenticated_at holds).
    await writeRows("update sessions set authenticated_at = ? where user_id = (select id from users where email = ?)", [
      new Date(Date.now() - 11 * 60_000),
      ADMIN.email,
    ]);

    const id = await userId(page.request, other.email);
    const stale = await page.request.patch(`/api/admin/users/${id}`, { data: { disabled: true } });
    expect(stale.status()).toBe(403);
    expect((await stale.json()).code).toBe("auth.reauth_required");

    await page.goto("/admin");
    await waitForHydration(page);
    await page.getByLabel("Search users").fill(other.email);
    const row = page.getByTestId(`user-${other.email}`);
    await row.getByRole("button", { name: "Disable" }).click();
    const prompt = page.getByTestId("reauth-prompt");
    await expect(prompt).toBeVisible();
    await prompt.getByLabel("Password").fill("not the password");
    await prompt.getByRole("button", { name: "Confirm" }).click();
    await expect(prompt.getByRole("alert")).toContainText("The password is not right.");
    await prompt.getByLabel("Password").fill(ADMIN.password);
    await prompt.getByRole("button", { name: "Confirm" }).click();
    await expect(prompt).toBeHidden();
    // The act was sent again and went through.
    await expect(row).toContainText("disabled");
    await expect(row.getByRole("button", { name: "Enable" })).toBeVisible();
  });
});
