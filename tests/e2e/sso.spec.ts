/**
 * Single sign-on in the browser (docs/sso.md), with oidc-provider as the identity provider on
 * loopback (tests/fixtures/oidc/idp.mjs): a new person of an allowed domain gets an account in the
 * mapped workspace with the mapped role; someone of another domain is refused in words on the sign-in
 * page; a person removed from the group loses the workspace at their next sign-in; an unverified email
 * never reaches an existing account; SSO-only mode hides the password form and refuses password
 * sign-in through the API, except for the break-glass administrator; a second factor is still owed
 * after an SSO sign-in; groups the provider sends only from its userinfo endpoint map too; an
 * administrator edits a provider in the admin area (1280 and 390 px, axe clean), the client secret
 * kept when left blank and never shown, with the re-authentication prompt after 10 minutes.
 */
import { type APIRequestContext, type Browser, expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import { generate } from "otplib";
import { startOidcIdp } from "../fixtures/oidc/idp.mjs";
import { expectNoSeriousA11yViolations, horizontalOverflow } from "./pages/a11y";
import { writeRows } from "./helpers/database";
import { ADMIN, AuthPages, newAccount, setupCode, waitForHydration } from "./pages/app";

const PORT = Number(process.env.E2E_PORT ?? 3111);
const BASE = `http://localhost:${PORT}`;
// Each engineer's run has its own ports: the identity provider takes the app's port + 2.
const IDP_PORT = PORT + 2;
const CLIENT = { clientId: "switchboard-sso", clientSecret: "fixture-client-secret" };
const run = Date.now().toString(36);

type Idp = {
  issuer: string;
  accounts: Map<string, Record<string, unknown>>;
  userinfoOnlyClaims: Set<string>;
  close(): Promise<void>;
};
let idp: Idp;
let admin: APIRequestContext;
let engineering: string;
let addressSeq = 0;

test.describe.configure({ mode: "serial" });

/** One step of next-auth's credentials callback from an API client (a made-up address each time, for the throttle). */
async function passwordSignIn(client: APIRequestContext, email: string, password: string) {
  const { csrfToken } = await (await client.get("/api/auth/csrf")).json();
  addressSeq += 1;
  return client.post("/api/auth/callback/credentials", {
    form: { csrfToken, email, password, json: "true" },
    headers: { "x-forwarded-for": `198.51.100.${addressSeq}` },
  });
}

/** Sign in at the identity provider as `login` from the sign-in page's button; consent when asked. */
async function ssoSignIn(page: Page, login: string, from = "/signin") {
  await page.goto(from);
  await waitForHydration(page);
  await page.getByTestId("sso-acme").click();
  await page.waitForURL(new RegExp(`^http://127\\.0\\.0\\.1:${IDP_PORT}/interaction/`));
  await page.locator("input[name=login]").fill(login);
  await page.locator("input[name=password]").fill("any");
  await page.locator("button[type=submit]").click();
  // The consent page (first sign-in of this browser), then back to the app.
  const consent = page.getByRole("button", { name: "Continue" });
  await Promise.race([consent.waitFor().then(() => consent.click()), page.waitForURL(new RegExp(`^${BASE}/`))]);
  await page.waitForURL(new RegExp(`^${BASE}/`));
}

/** A page in a browser of its own (no identity-provider session carried over). */
async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE });
  return context.newPage();
}

/** The workspaces the page's signed-in user belongs to, with their roles. */
async function myWorkspaces(page: Page): Promise<{ id: string; role: string }[]> {
  return (await page.request.get("/api/workspaces")).json();
}

test.beforeAll(async () => {
  idp = await startOidcIdp({
    port: IDP_PORT,
    ...CLIENT,
    redirectUris: [`${BASE}/api/auth/callback/acme`, `http://127.0.0.1:${PORT}/api/auth/callback/acme`],
  });
  admin = await playwrightRequest.newContext({ baseURL: BASE });
  expect(setupCode()).toBeUndefined();
  expect((await passwordSignIn(admin, ADMIN.email, ADMIN.password)).status()).toBe(200);
  const created = await admin.post("/api/workspaces", { data: { name: `SSO Engineering ${run}` } });
  expect(created.status()).toBe(201);
  engineering = (await created.json()).id;
  const provider = await admin.post("/api/admin/sso-providers", {
    data: {
      name: "Acme",
      label: "Acme SSO",
      issuer: idp.issuer,
      ...CLIENT,
      scopes: "openid email profile groups",
      allowedDomains: ["acme.test"],
      claimMapping: { claim: "groups", adminGroups: [], workspaces: [{ group: "eng", workspaceId: engineering, role: "admin" }] },
    },
  });
  expect(provider.status()).toBe(201);
  expect(JSON.stringify(await provider.json())).not.toContain(CLIENT.clientSecret);
});

test.afterAll(async () => {
  // The rest of the suite signs in with passwords and expects no provider button.
  await admin.put("/api/admin/sso-settings", { data: { ssoOnly: false, breakGlassEmail: null } });
  await admin.delete("/api/admin/sso-providers/acme");
  await admin.dispose();
  await idp.close();
});

test("a new person of an allowed domain signs in through SSO: account created, in the mapped workspace with the mapped role; the admin area names the provider", async ({
  browser,
}) => {
  const email = `ada-${run}@acme.test`;
  idp.accounts.set(`ada-${run}`, { email, email_verified: true, name: `Ada ${run}`, groups: ["eng"] });
  const page = await freshPage(browser);
  await ssoSignIn(page, `ada-${run}`);
  await expect(page.getByTestId("current-user")).toContainText(`Ada ${run}`);
  expect(await myWorkspaces(page)).toEqual(expect.arrayContaining([expect.objectContaining({ id: engineering, role: "admin" })]));

  const adminPage = await freshPage(browser);
  await new AuthPages(adminPage).signIn(ADMIN);
  await adminPage.goto("/admin");
  await expect(adminPage.getByTestId(`user-${email}`).getByTestId("user-sso")).toHaveText("SSO: acme");
  await page.context().close();
  await adminPage.context().close();
});

test("removed from the group, the person loses the workspace at their next sign-in", async ({ browser }) => {
  idp.accounts.set(`ada-${run}`, { ...idp.accounts.get(`ada-${run}`), groups: [] });
  const page = await freshPage(browser);
  await ssoSignIn(page, `ada-${run}`);
  await expect(page.getByTestId("current-user")).toContainText(`Ada ${run}`);
  expect((await myWorkspaces(page)).map((w) => w.id)).not.toContain(engineering);
  await page.context().close();
});

test("groups the provider sends only from its userinfo endpoint map like those of the ID token", async ({ browser }) => {
  idp.userinfoOnlyClaims.add("groups");
  try {
    idp.accounts.set(`una-${run}`, { email: `una-${run}@acme.test`, email_verified: true, name: `Una ${run}`, groups: ["eng"] });
    const page = await freshPage(browser);
    await ssoSignIn(page, `una-${run}`);
    await expect(page.getByTestId("current-user")).toContainText(`Una ${run}`);
    expect(await myWorkspaces(page)).toEqual(expect.arrayContaining([expect.objectContaining({ id: engineering, role: "admin" })]));
    await page.context().close();
  } finally {
    idp.userinfoOnlyClaims.clear();
  }
});

/** Every sign-in of the administrator `minutes` old (what sessions.authenticated_at holds). */
function ageAdminSignIns(minutes: number): Promise<void> {
  return writeRows("update sessions set authenticated_at = ? where user_id = (select id from users where email = ?)", [
    new Date(Date.now() - minutes * 60_000),
    ADMIN.email,
  ]);
}

test("an administrator edits a provider at 1280 and 390 px: filled in, the secret kept when left blank and never shown, axe clean", async ({
  browser,
}) => {
  // Two rounds in the admin area with axe, then a sign-in at the provider: longer than one flow.
  test.setTimeout(300_000);
  for (const width of [1280, 390]) {
    const page = await freshPage(browser);
    await page.setViewportSize({ width, height: 900 });
    await new AuthPages(page).signIn(ADMIN);
    await page.goto("/admin");
    await waitForHydration(page);
    const row = page.getByTestId("sso-provider-acme");
    await row.getByRole("button", { name: /^Edit / }).click();
    const form = page.getByTestId("sso-provider-edit-acme");
    await expect(form.getByLabel("Issuer URL")).toHaveValue(idp.issuer);
    await expect(form.getByLabel("Client id")).toHaveValue(CLIENT.clientId);
    await expect(form.getByLabel("Claim that maps to roles (for example groups)")).toHaveValue("groups");
    await expect(form.getByLabel(/Workspaces: one per line/)).toHaveValue(`eng, ${engineering}, admin`);
    await expect(form.getByLabel(/Client secret/)).toHaveValue("");
    expect(await page.content()).not.toContain(CLIENT.clientSecret);
    const { scrollWidth, innerWidth } = await horizontalOverflow(page);
    expect(scrollWidth, `${width} px: no sideways scroll`).toBeLessThanOrEqual(innerWidth);
    await expectNoSeriousA11yViolations(page, `admin, editing a provider at ${width} px`);

    await form.getByLabel("Button label").fill(`Acme ${width}`);
    await form.getByLabel(/Email domains/).fill("acme.test, acme.example");
    await form.getByRole("button", { name: "Save provider" }).click();
    await expect(page.getByTestId("sso-admin").getByRole("status")).toHaveText("Provider saved.");
    await expect(form).toHaveCount(0);
    await expect(row).toContainText(`Acme ${width}`);
    await expect(row).toContainText("new accounts: acme.test, acme.example");
    await page.context().close();
  }
  const [view] = ((await (await admin.get("/api/admin/sso-providers")).json()) as { id: string }[]).filter((p) => p.id === "acme");
  expect(view).toMatchObject({ label: "Acme 390", hasClientSecret: true, allowedDomains: ["acme.test", "acme.example"] });
  expect(JSON.stringify(view)).not.toContain(CLIENT.clientSecret);
  // The stored secret still works: the code is redeemed at the provider with it.
  idp.accounts.set(`kept-${run}`, { email: `kept-${run}@acme.test`, email_verified: true, name: `Kept ${run}`, groups: [] });
  const person = await freshPage(browser);
  await ssoSignIn(person, `kept-${run}`);
  await expect(person.getByTestId("current-user")).toContainText(`Kept ${run}`);
  await person.context().close();
});

test("editing a provider after 10 minutes asks for the password first, then saves; audited without the secret", async ({ browser }) => {
  const page = await freshPage(browser);
  await new AuthPages(page).signIn(ADMIN);
  await ageAdminSignIns(11);
  try {
    const stale = await page.request.put("/api/admin/sso-providers/acme", {
      data: { issuer: idp.issuer, clientId: CLIENT.clientId, label: "Stale" },
    });
    expect(stale.status()).toBe(403);
    expect((await stale.json()).code).toBe("auth.reauth_required");

    await page.goto("/admin");
    await waitForHydration(page);
    await page
      .getByTestId("sso-provider-acme")
      .getByRole("button", { name: /^Edit / })
      .click();
    const form = page.getByTestId("sso-provider-edit-acme");
    await form.getByLabel("Button label").fill("Acme SSO");
    await form.getByLabel(/Client secret/).fill(CLIENT.clientSecret);
    await form.getByRole("button", { name: "Save provider" }).click();
    const prompt = page.getByTestId("reauth-prompt");
    await expect(prompt).toBeVisible();
    await prompt.getByLabel("Password").fill(ADMIN.password);
    await prompt.getByRole("button", { name: "Confirm" }).click();
    await expect(prompt).toBeHidden();
    await expect(page.getByTestId("sso-admin").getByRole("status")).toHaveText("Provider saved.");
    await expect(page.getByTestId("sso-provider-acme")).toContainText("Acme SSO");
  } finally {
    // The spec's API client signed in as the administrator too: fresh again for the remaining tests.
    await ageAdminSignIns(0);
  }
  const audit = await (await admin.get("/api/admin/audit?action=instance.sso_provider_edit")).text();
  expect(audit).toContain("instance.sso_provider_edit");
  expect(audit).toContain('"secretReplaced":true');
  expect(audit).not.toContain(CLIENT.clientSecret);
  await page.context().close();
});

test("a person with an authenticator app still owes the code after signing in through SSO, and returns to the page they came from", async ({
  browser,
}) => {
  idp.accounts.set(`sam-${run}`, { email: `sam-${run}@acme.test`, email_verified: true, name: `Sam ${run}`, groups: [] });
  const first = await freshPage(browser);
  await ssoSignIn(first, `sam-${run}`);
  await expect(first.getByTestId("current-user")).toContainText(`Sam ${run}`);
  const started = await (await first.request.post("/api/account/factors/totp", { data: {} })).json();
  const now = Math.floor(Date.now() / 1000);
  const confirmed = await first.request.post("/api/account/factors/totp/confirm", {
    data: { factorId: started.factorId, code: await generate({ secret: started.secret, epoch: now }) },
  });
  expect(confirmed.status()).toBe(200);
  await first.context().close();

  // Signed out on an MCP client's consent page (docs/gateway.md), the person signs in from there.
  const consent = "/oauth/interaction/sso-second-factor-test";
  const page = await freshPage(browser);
  await ssoSignIn(page, `sam-${run}`, `/signin?next=${encodeURIComponent(consent)}`);
  // Not signed in by the provider alone: the sign-in page asks for the code of the pending sign-in,
  // and keeps the page to return to.
  await expect(page).toHaveURL(/\/signin\?step=code&next=%2Foauth%2Finteraction%2Fsso-second-factor-test$/);
  expect((await page.request.get("/api/workspaces")).status()).toBe(401);
  await page.getByLabel("Code").fill(await generate({ secret: started.secret, epoch: now + 30 }));
  await page.getByRole("button", { name: "Verify" }).click();
  // Back on the consent page, not the chat, and signed in.
  await expect(page).toHaveURL(new RegExp(`${consent}$`));
  expect((await page.request.get("/api/workspaces")).status()).toBe(200);
  await page.context().close();
});

test("a person of another domain is refused with a clear message on the sign-in page", async ({ browser }) => {
  idp.accounts.set(`eve-${run}`, { email: `eve-${run}@elsewhere.test`, email_verified: true, name: "Eve", groups: ["eng"] });
  const page = await freshPage(browser);
  await ssoSignIn(page, `eve-${run}`);
  await expect(page).toHaveURL(/\/signin\?error=sso\.domain_not_allowed/);
  await expect(page.getByTestId("sso-error")).toContainText("email domain may not sign in to this instance");
  expect((await (await admin.get(`/api/admin/users?q=eve-${run}`)).json()).users).toEqual([]);
  await page.context().close();
});

test("an unverified email never links to an existing account", async ({ browser }) => {
  const existing = newAccount("sso-existing");
  const page = await freshPage(browser);
  await new AuthPages(page).register(existing);
  await page.context().close();
  idp.accounts.set(`mallory-${run}`, { email: existing.email, email_verified: false, name: "Mallory", groups: ["eng"] });
  const attacker = await freshPage(browser);
  await ssoSignIn(attacker, `mallory-${run}`);
  await expect(attacker.getByTestId("sso-error")).toContainText("has not verified your email address");
  expect((await attacker.request.get("/api/workspaces")).status()).toBe(401);
  const [user] = (await (await admin.get(`/api/admin/users?q=${encodeURIComponent(existing.email)}`)).json()).users;
  expect(user.sso).toEqual([]);
  await attacker.context().close();
});

test("SSO-only mode hides the password form and refuses password sign-in through the API, except for the break-glass administrator", async ({
  browser,
}) => {
  const member = newAccount("sso-only");
  const page = await freshPage(browser);
  await new AuthPages(page).register(member);
  await page.context().close();
  expect((await admin.put("/api/admin/sso-settings", { data: { ssoOnly: true, breakGlassEmail: ADMIN.email } })).status()).toBe(200);
  try {
    const signin = await freshPage(browser);
    await signin.goto("/signin");
    await waitForHydration(signin);
    await expect(signin.getByTestId("sso-acme")).toBeVisible();
    await expect(signin.getByTestId("signin-form")).toHaveCount(0);

    const client = await playwrightRequest.newContext({ baseURL: BASE });
    const refused = await passwordSignIn(client, member.email, member.password);
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "auth.sso_only" });
    expect((await client.get("/api/workspaces")).status()).toBe(401);
    await client.dispose();

    // The break-glass administrator still has a way in, by the page's link to the password form.
    await signin.getByTestId("break-glass-link").click();
    await expect(signin.getByTestId("signin-form")).toBeVisible();
    await waitForHydration(signin);
    await signin.getByLabel("Email").fill(ADMIN.email);
    await signin.getByLabel("Password").fill(ADMIN.password);
    await signin.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(signin.getByTestId("current-user")).toBeVisible();
    await signin.context().close();
  } finally {
    await admin.put("/api/admin/sso-settings", { data: { ssoOnly: false, breakGlassEmail: null } });
  }
});
