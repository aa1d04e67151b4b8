import { type APIRequestContext, expect, request as playwrightRequest, test } from "@playwright/test";
import { writeRows } from "./helpers/database";
import { AuthPages, newAccount, setupCode, waitForHydration } from "./pages/app";

const PORT = Number(process.env.E2E_PORT ?? 3111);
const LOCALHOST = `http://localhost:${PORT}`;
const LOOPBACK_IP = `http://127.0.0.1:${PORT}`;
let addressSeq = 0;

/** A made-up client address per test, so throttling counts in one test never spill into another. */
function freshAddress(): string {
  addressSeq += 1;
  return `198.51.100.${addressSeq}`;
}

/** A new API client (its own cookie jar) that registers and signs in `account`; returns it and its session cookie. */
async function signedInClient(account: { name: string; email: string; password: string }, register = true) {
  const client = await playwrightRequest.newContext({ baseURL: LOCALHOST });
  if (register) {
    const code = setupCode();
    expect((await client.post("/api/auth/register", { data: code ? { ...account, setupCode: code } : account })).status()).toBe(201);
  }
  expect((await signIn(client, account.email, account.password)).status()).toBe(200);
  const cookie = (await client.storageState()).cookies.find((c) => c.name.endsWith("next-auth.session-token"));
  expect(cookie).toBeTruthy();
  return { client, cookie: `${cookie?.name}=${cookie?.value}` };
}

async function signIn(client: APIRequestContext, email: string, password: string, address = "192.0.2.1") {
  const { csrfToken } = await (await client.get("/api/auth/csrf")).json();
  return client.post("/api/auth/callback/credentials", {
    form: { csrfToken, email, password, json: "true" },
    headers: { "x-forwarded-for": address },
  });
}

/** Status of an authenticated API read made with nothing but `cookie`. */
async function statusWith(cookie: string): Promise<number> {
  const bare = await playwrightRequest.newContext({ baseURL: LOCALHOST });
  const response = await bare.get("/api/servers", { headers: { cookie } });
  await bare.dispose();
  return response.status();
}

test.describe("security headers", () => {
  test("sign-in page, a signed-in page and an API route carry the CSP and hardening headers; pages still run", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to (execute|load)/i.test(message.text())) violations.push(message.text());
    });
    const check = (headers: Record<string, string>) => {
      expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(headers["content-security-policy"]).toContain("img-src 'self' data:");
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["x-frame-options"]).toBe("DENY");
      expect(headers["referrer-policy"]).toBe("no-referrer");
      expect(headers["permissions-policy"]).toContain("camera=()");
    };

    const signin = await page.goto("/signin");
    check(signin?.headers() ?? {});
    // Next stamped this response's nonce on its scripts, and they ran (the page hydrated).
    const nonce = /'nonce-([^']+)'/.exec(signin?.headers()["content-security-policy"] ?? "")?.[1];
    await waitForHydration(page);
    const scriptNonces = await page.locator("script[src]").evaluateAll((scripts) => scripts.map((s) => (s as HTMLScriptElement).nonce));
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
    // A submit before hydration posts (never puts the password in the URL).
    expect(await page.getByTestId("signin-form").getAttribute("method")).toBe("post");

    await new AuthPages(page).register(newAccount("headers"));
    const servers = await page.goto("/servers");
    check(servers?.headers() ?? {});
    await waitForHydration(page);

    const api = await page.request.get("/api/health");
    check(api.headers());
    expect(violations).toEqual([]);
  });

  test("a page of another origin cannot frame the app", async ({ page }) => {
    // about:blank has no CSP of its own: only the app's frame-ancestors can stop the frame.
    await page.goto("about:blank");
    await page.evaluate((target) => {
      const frame = document.createElement("iframe");
      frame.src = target;
      document.body.append(frame);
    }, `${LOOPBACK_IP}/signin`);
    await expect.poll(() => page.frames().length).toBe(2);
    const child = page.frames().find((f) => f !== page.mainFrame());
    await page.waitForTimeout(1500);
    expect(await child?.locator("[data-testid=signin-form]").count()).toBe(0);
  });
});

test.describe("cross-site requests against the running app", () => {
  test("another origin's write is refused (403), a text/plain body is refused (415), the page's own fetch works", async ({ page }) => {
    await new AuthPages(page).register(newAccount("csrf"));
    const forged = await page.request.post("/api/servers", {
      data: { name: "forged", config: { url: "https://evil.example/mcp" } },
      headers: { origin: "http://localhost:1" },
    });
    expect(forged.status()).toBe(403);
    const sibling = await page.request.post("/api/servers", {
      data: { name: "forged", config: { url: "https://evil.example/mcp" } },
      headers: { "sec-fetch-site": "same-site" },
    });
    expect(sibling.status()).toBe(403);
    const plain = await page.request.post("/api/servers", {
      data: JSON.stringify({ name: "plain", config: { url: "https://evil.example/mcp" } }),
      headers: { "content-type": "text/plain" },
    });
    expect(plain.status()).toBe(415);
    const own = await page.evaluate(async () => {
      const response = await fetch("/api/servers", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "mine", config: { url: "https://mcp.example.com/mcp" } }),
      });
      return response.status;
    });
    expect(own).toBe(201);
    const names = (await (await page.request.get("/api/servers")).json()).servers.map((s: { name: string }) => s.name);
    expect(names).toEqual(["mine"]);
  });
});

test.describe("sessions end when they should", () => {
  test("a cookie captured before sign-out is refused afterwards", async () => {
    const { client, cookie } = await signedInClient(newAccount("signout"));
    expect(await statusWith(cookie)).toBe(200);
    const { csrfToken } = await (await client.get("/api/auth/csrf")).json();
    expect((await client.post("/api/auth/signout", { form: { csrfToken, json: "true" } })).status()).toBe(200);
    expect(await statusWith(cookie)).toBe(401);
    // next-auth's own session endpoint agrees: nobody is signed in with that cookie.
    const bare = await playwrightRequest.newContext({ baseURL: LOCALHOST });
    expect(await (await bare.get("/api/auth/session", { headers: { cookie } })).json()).toEqual({});
    await bare.dispose();
    await client.dispose();
  });

  test("cookies captured before 'sign out of all devices' are all refused afterwards", async () => {
    const account = newAccount("everywhere");
    const first = await signedInClient(account);
    const second = await signedInClient(account, false);
    expect((await first.client.delete("/api/account/sessions")).status()).toBe(200);
    expect(await statusWith(first.cookie)).toBe(401);
    expect(await statusWith(second.cookie)).toBe(401);
    await Promise.all([first.client.dispose(), second.client.dispose()]);
  });

  test("a password change refuses the other sessions' cookies and keeps this one", async () => {
    const account = newAccount("password");
    const here = await signedInClient(account);
    const elsewhere = await signedInClient(account, false);
    const changed = await here.client.post("/api/account/password", {
      data: { currentPassword: account.password, newPassword: "a different long password" },
    });
    expect(changed.status()).toBe(200);
    expect(await changed.json()).toEqual({ endedSessions: 1 });
    expect(await statusWith(elsewhere.cookie)).toBe(401);
    expect(await statusWith(here.cookie)).toBe(200);
    await Promise.all([here.client.dispose(), elsewhere.client.dispose()]);
  });

  test("a disabled user's cookie is refused from then on", async () => {
    const account = newAccount("disabled");
    const { client, cookie } = await signedInClient(account);
    expect(await statusWith(cookie)).toBe(200);
    // What an administrator's "disable" does to the row (users.disabled_at).
    await writeRows("update users set disabled_at = ? where email = ?", [new Date(), account.email]);
    // Written by another process: on SQLite the app checks for such commits at most every 50 ms
    // (db/generation.ts, DATA_VERSION_TTL_MS), on Postgres a trigger's NOTIFY reaches it a moment
    // after the commit (db/changes-postgres.ts); its own "disable" is seen at once.
    // Refused, and told why: the session's own account is disabled (docs/errors.md).
    const bare = await playwrightRequest.newContext({ baseURL: LOCALHOST });
    await expect
      .poll(
        async () => {
          const refused = await bare.get("/api/servers", { headers: { cookie } });
          return { status: refused.status(), code: (await refused.json()).code };
        },
        { timeout: 5_000, intervals: [60, 100, 200] },
      )
      .toEqual({ status: 403, code: "auth.account_disabled" });
    await bare.dispose();
    expect((await signIn(client, account.email, account.password, freshAddress())).status()).toBe(401);
    await client.dispose();
  });

  test("the account page changes the password", async ({ page }) => {
    const account = newAccount("accountpage");
    await new AuthPages(page).register(account);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
    await waitForHydration(page);
    await page.getByLabel("Current password").fill(account.password);
    await page.getByLabel(/^New password/).fill("the account page password");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("status")).toContainText("Password changed");
  });
});

test.describe("sign-in abuse", () => {
  test("the 6th wrong password within the window gets 429 with Retry-After, even with the right password", async ({ request }) => {
    const account = newAccount("throttle");
    const code = setupCode();
    expect((await request.post("/api/auth/register", { data: code ? { ...account, setupCode: code } : account })).status()).toBe(201);
    const address = freshAddress();
    for (let i = 0; i < 5; i++) expect((await signIn(request, account.email, `wrong password ${i}`, address)).status()).toBe(401);
    const sixth = await signIn(request, account.email, "wrong password 6", address);
    expect(sixth.status()).toBe(429);
    expect(Number(sixth.headers()["retry-after"])).toBeGreaterThan(0);
    // From another address too: the account itself is throttled.
    expect((await signIn(request, account.email, account.password, freshAddress())).status()).toBe(429);
  });

  test("one address trying many accounts is throttled", async ({ request }) => {
    const address = freshAddress();
    for (let i = 0; i < 20; i++)
      expect((await signIn(request, `nobody-${i}-${address}@example.com`, "some password", address)).status()).toBe(401);
    expect((await signIn(request, `nobody-last-${address}@example.com`, "some password", address)).status()).toBe(429);
  });

  test("registration answers the same for a taken email as for a new one", async ({ request }) => {
    const taken = newAccount("taken");
    const first = await request.post("/api/auth/register", { data: taken, headers: { "x-forwarded-for": freshAddress() } });
    const again = await request.post("/api/auth/register", {
      data: { ...taken, password: "another long password" },
      headers: { "x-forwarded-for": freshAddress() },
    });
    expect([first.status(), again.status()]).toEqual([201, 201]);
    expect(Object.keys(await again.json()).sort()).toEqual(Object.keys(await first.json()).sort());
    expect(await again.json()).toEqual({ email: taken.email, name: taken.name });
    // The account is still the first one's.
    expect((await signIn(request, taken.email, taken.password, freshAddress())).status()).toBe(200);
  });
});

test.describe("public URL", () => {
  test("sign in via 127.0.0.1 and sign out stays on 127.0.0.1", async ({ browser }) => {
    const account = newAccount("loopback");
    const api = await playwrightRequest.newContext({ baseURL: LOCALHOST });
    expect((await api.post("/api/auth/register", { data: account })).status()).toBe(201);
    await api.dispose();

    const context = await browser.newContext({ baseURL: LOOPBACK_IP });
    const page = await context.newPage();
    await page.goto(`${LOOPBACK_IP}/signin`);
    await waitForHydration(page);
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByTestId("current-user")).toContainText(account.name);
    expect(new URL(page.url()).origin).toBe(LOOPBACK_IP);
    const cookie = (await context.cookies()).find((c) => c.name.endsWith("next-auth.session-token"));

    // A link made here points back here: an invitation created from 127.0.0.1 is a 127.0.0.1 link.
    const invitationUrl = await page.evaluate(async () => {
      const json = { "content-type": "application/json" };
      const created = await fetch("/api/workspaces", { method: "POST", headers: json, body: JSON.stringify({ name: "Loopback team" }) });
      const { id } = await created.json();
      const response = await fetch(`/api/workspaces/${id}/invitations`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ email: "invitee@example.test", role: "member" }),
      });
      return (await response.json()).url as string;
    });
    expect(new URL(invitationUrl).origin).toBe(LOOPBACK_IP);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(`${LOOPBACK_IP}/signin`);
    // And the session that browser had is over, not just its cookie.
    expect(await statusWith(`${cookie?.name}=${cookie?.value}`)).toBe(401);
    await context.close();
  });
});
