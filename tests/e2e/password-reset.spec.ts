/**
 * Issue 31: an instance administrator issues a one-time password-reset link from the admin area
 * (no mail set up, so the link is shown to pass on), and the user uses it in another browser: the
 * strength meter flags a breached password, which the server refuses; a strong one is set, the
 * user's old session has ended, the link does not work twice, and the new password signs in.
 */
import { type Browser, expect, type Page, test } from "@playwright/test";
import { ADMIN, AuthPages, newAccount, waitForHydration } from "./pages/app";

test.describe.configure({ timeout: 120_000 });

async function signedIn(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await new AuthPages(page).signIn(account);
  return page;
}

test("an administrator issues a reset link; the user sets a new password with it, once", async ({ browser, page }) => {
  const user = newAccount("forgetful");
  const userPage = await (await browser.newContext()).newPage();
  await new AuthPages(userPage).register(user);

  const admin = await signedIn(browser, ADMIN);
  await admin.goto("/admin");
  await waitForHydration(admin);
  await admin.getByLabel("Search users").fill(user.email);
  const row = admin.getByTestId(`user-${user.email}`);
  await row.getByRole("button", { name: "Reset link" }).click();
  const linkField = admin.getByTestId("user-reset-link");
  await expect(linkField).toHaveValue(/\/reset\/[A-Za-z0-9_-]{43}$/);
  const link = await linkField.inputValue();
  await expect(admin.getByText(`Password-reset link for ${user.email}`)).toBeVisible();
  // The issue is in the audit log under the administrator's name, without the link.
  const audit = await admin.request.get("/api/admin/audit?action=user.password_reset_issued");
  expect(audit.ok()).toBe(true);
  const auditText = await audit.text();
  expect(auditText).toContain("user.password_reset_issued");
  expect(auditText).not.toContain(link.split("/reset/")[1]);

  // The user, signed out in another browser, opens the link.
  await page.goto(new URL(link).pathname);
  await waitForHydration(page);
  await expect(page.getByTestId("reset-form")).toContainText(user.email);
  const field = page.getByLabel(/New password/);
  await field.fill("iloveyou123");
  await expect(page.getByTestId("password-meter")).toContainText("Common or breached password");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByTestId("reset-form").getByRole("alert")).toContainText("common or breached");

  const fresh = "a very different new passphrase";
  await field.fill(fresh);
  await expect(page.getByTestId("password-meter")).toHaveAttribute("data-score", /[34]/);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByTestId("reset-done")).toContainText("every session of the account has ended");

  // The user's session in the first browser ended with the reset.
  await userPage.goto("/account");
  await expect(userPage).toHaveURL(/\/signin/);

  // The link works once.
  await page.goto(new URL(link).pathname);
  await expect(page.getByTestId("reset-problem")).toContainText("already used");

  // The old password no longer signs in; the new one does.
  await page.goto("/signin");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("signin-error")).toBeVisible();
  await new AuthPages(page).signIn({ email: user.email, password: fresh });
});

test("the registration form's strength meter scores as the server does", async ({ page }) => {
  await page.goto("/register");
  await waitForHydration(page);
  const password = page.getByLabel(/Password/);
  await password.fill("qwertyuiop");
  await expect(page.getByTestId("password-meter")).toContainText("Common or breached password");
  await password.fill("correct horse battery staple");
  await expect(page.getByTestId("password-meter")).toContainText("Very strong");
});
