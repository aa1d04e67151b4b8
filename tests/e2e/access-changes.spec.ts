/**
 * Lost access explained, in a real browser against the running app: a removed member on the chat
 * page is told who removed them and when on their next action, with the message they were typing
 * kept; the workspace switcher drops the team live; a demoted admin and the members of a deleted
 * workspace are told at once, by the event stream; a disabled user is told so on their open page
 * and at sign-in (only with the right password); a member is offered no server controls they
 * cannot use; the keyboard-only path from the landing composer through an approval; and a quick
 * `/name` + Enter that waits for the prompt list.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { expectNoSeriousA11yViolations } from "./pages/a11y";
import { AuthPages, waitForHydration } from "./pages/app";
import { addHttpServerByApi, ChatPage, userWithEverything } from "./pages/chat";
import { addMember, createTeam, SETUP, signedInAdmin, signedUp } from "./pages/workspaces";

test.describe.configure({ timeout: 180_000 });

const shots = (name: string) => `test-results/access-${name}.png`;

async function draftIn(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(localStorage)
      .filter((k) => k.startsWith("switchboard.draft:"))
      .map((k) => localStorage.getItem(k) ?? ""),
  );
}

test("a removed member is told who removed them on their next action, and keeps their draft", async ({ browser }) => {
  const owner = await signedUp(browser, "access-owner");
  const mate = await signedUp(browser, "access-mate");
  const team = await createTeam(owner, "Access Team");
  await addMember(owner, team.id, mate, "member");

  const page = mate.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/w/${team.slug}/chat`);
  await waitForHydration(page);
  const chat = new ChatPage(page);
  await chat.newChat();
  await expect(page.getByTestId("workspace-switcher").locator("option", { hasText: "Access Team" })).toHaveCount(1);

  const draft = "A long question I was in the middle of writing";
  await chat.input().fill(draft);
  const removed = await owner.api.delete(`/api/workspaces/${team.id}/members/${mate.id}`, SETUP);
  expect(removed.status()).toBe(204);

  // The switcher follows the event stream: the team leaves it without any navigation.
  await expect(page.getByTestId("workspace-switcher").locator("option", { hasText: "Access Team" })).toHaveCount(0, {
    timeout: 20_000,
  });

  await page.getByTestId("chat-send").click();
  const notice = page.getByTestId("access-notice");
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await expect(notice).toContainText("You no longer have access to this workspace");
  await expect(notice.getByTestId("access-message")).toContainText(
    new RegExp(`You were removed from Access Team by ${owner.account.name} on \\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2} UTC`),
  );
  await expect(notice.getByTestId("access-draft-kept")).toBeVisible();
  // The page stays as it was, with the text back in the field and not in the transcript (it was
  // never stored), and the reason is said once, by the notice.
  await expect(chat.input()).toHaveValue(draft);
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  await expect(page.getByTestId("chat-error")).toHaveCount(0);
  expect(await draftIn(page)).toContain(draft);
  await expectNoSeriousA11yViolations(page, "access notice");
  await page.screenshot({ path: shots("removed-1280") });

  // Any page of the team now explains instead of a bare 404, and links home.
  await page.goto(`/w/${team.slug}/servers`);
  await expect(page).toHaveURL(new RegExp(`/access/${team.slug}$`));
  await expect(page.getByTestId("access-page")).toContainText(`You were removed from Access Team by ${owner.account.name}`);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: shots("removed-page-390") });
  await page.getByRole("link", { name: "Go to your personal workspace" }).click();
  await expect(page).toHaveURL(/\/w\/personal\/chat$/);

  // Someone who never was a member learns nothing.
  const stranger = await signedUp(browser, "access-stranger");
  expect((await stranger.page.goto(`/w/${team.slug}/chat`))?.status()).toBe(404);
  await stranger.close();
  await mate.close();
  await owner.close();
});

const WHEN = "\\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2} UTC";

test("a demoted admin's open page says so at once and shows what a member can do", async ({ browser, everything }) => {
  const owner = await signedUp(browser, "demote-owner");
  const mate = await signedUp(browser, "demote-mate");
  const team = await createTeam(owner, "Demote Team");
  await addMember(owner, team.id, mate, "admin");
  const created = await owner.api.post("/api/servers", {
    data: { name: "demote-everything", config: { url: everything.url } },
    headers: { "x-workspace-id": team.id },
    ...SETUP,
  });
  expect(created.status()).toBe(201);

  const page = mate.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/w/${team.slug}/settings/workspace`);
  await waitForHydration(page);
  const workspacePolicy = page.getByTestId("workspace-policy-demote-everything-echo");
  await expect(workspacePolicy).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel(`Role of ${mate.account.email}`)).toBeVisible();

  const lowered = await owner.api.patch(`/api/workspaces/${team.id}/members/${mate.id}`, { data: { role: "member" }, ...SETUP });
  expect(lowered.status()).toBe(200);

  // No action needed: the event stream brings the explanation, and the page follows the new role.
  const notice = page.getByTestId("access-notice");
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await expect(notice).toContainText("Your role in this workspace changed");
  await expect(notice.getByTestId("access-message")).toContainText(
    new RegExp(`Your role in Demote Team was changed from admin to member by ${owner.account.name} on ${WHEN}\\.`),
  );
  await expectNoSeriousA11yViolations(page, "demotion notice");
  await page.screenshot({ path: shots("demoted-1280") });
  await page.getByRole("button", { name: "Show the page for my role" }).click();
  await expect(notice).toHaveCount(0);
  // Every part of the page, the tool policy table too, now offers only what a member may set.
  await expect(page.getByLabel(`Role of ${mate.account.email}`)).toHaveCount(0);
  await expect(workspacePolicy).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId("policy-demote-everything-echo")).toBeVisible();

  // A promotion changes the page without a notice.
  expect((await owner.api.patch(`/api/workspaces/${team.id}/members/${mate.id}`, { data: { role: "admin" }, ...SETUP })).status()).toBe(
    200,
  );
  await expect(workspacePolicy).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel(`Role of ${mate.account.email}`)).toBeVisible();
  await expect(notice).toHaveCount(0);
  await mate.close();
  await owner.close();
});

test("members of a deleted workspace are told who deleted it, at once, with their draft kept", async ({ browser }) => {
  const owner = await signedUp(browser, "delete-owner");
  const mate = await signedUp(browser, "delete-mate");
  const team = await createTeam(owner, "Doomed Team");
  await addMember(owner, team.id, mate, "member");

  const page = mate.page;
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`/w/${team.slug}/chat`);
  await waitForHydration(page);
  const chat = new ChatPage(page);
  const draft = "Half a question about the doomed team";
  await chat.input().fill(draft);
  const switcher = page.getByTestId("workspace-switcher").locator("option", { hasText: "Doomed Team" });
  await expect(switcher).toHaveCount(1);
  // The owner's own page elsewhere: its switcher follows too, with no notice for the one who deleted.
  await owner.page.goto("/w/personal/chat");
  await waitForHydration(owner.page);
  await expect(owner.page.getByTestId("workspace-switcher").locator("option", { hasText: "Doomed Team" })).toHaveCount(1);

  expect((await owner.api.delete(`/api/workspaces/${team.id}`, SETUP)).status()).toBe(204);

  const notice = page.getByTestId("access-notice");
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await expect(notice).toContainText("This workspace was deleted");
  await expect(notice.getByTestId("access-message")).toContainText(
    new RegExp(`Doomed Team was deleted by ${owner.account.name} on ${WHEN}, with its servers and chats\\.`),
  );
  await expect(notice.getByTestId("access-draft-kept")).toBeVisible();
  await expect(switcher).toHaveCount(0, { timeout: 20_000 });
  expect(await draftIn(page)).toContain(draft);
  await expectNoSeriousA11yViolations(page, "deleted workspace notice");
  await page.screenshot({ path: shots("deleted-390") });
  await expect(owner.page.getByTestId("workspace-switcher").locator("option", { hasText: "Doomed Team" })).toHaveCount(0, {
    timeout: 20_000,
  });
  await expect(owner.page.getByTestId("access-notice")).toHaveCount(0);

  // The notice cannot be dismissed into a dead page; its link leads home.
  await page.keyboard.press("Escape");
  await expect(notice).toBeVisible();
  await notice.getByRole("link", { name: "Go to your personal workspace" }).click();
  await expect(page).toHaveURL(/\/w\/personal\/chat$/);
  // Later, the workspace's pages are gone like any unknown one: said in words, with the way back.
  expect((await page.goto(`/w/${team.slug}/chat`))?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toContainText("not a member of or that was deleted");
  await page.getByRole("link", { name: "Go to your personal workspace" }).click();
  await expect(page).toHaveURL(/\/w\/personal\/chat$/);
  // An address that is no page at all says so too, with the way in.
  expect((await page.goto("/no/such/page"))?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toContainText("This address is not a page of Switchboard.");
  await expectNoSeriousA11yViolations(page, "unknown address");
  await page.getByRole("link", { name: "Go to Switchboard" }).click();
  await expect(page).toHaveURL(/\/w\/personal\/chat$/);
  await mate.close();
  await owner.close();
});

test("a disabled user is told so on their open page and at sign-in, only with the right password", async ({ browser }) => {
  const someone = await signedUp(browser, "access-disabled");
  const admin = await signedInAdmin(browser);
  const page = someone.page;
  await page.goto("/w/personal/chat");
  await waitForHydration(page);
  await page.getByTestId("chat-input").fill("Something I typed before being disabled");

  expect((await admin.api.patch(`/api/admin/users/${someone.id}`, { data: { disabled: true }, ...SETUP })).status()).toBe(200);

  await page.getByTestId("chat-input").press("Enter");
  const notice = page.getByTestId("access-notice");
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await expect(notice).toContainText("Your account is disabled; ask an administrator");
  await expect(page.getByTestId("chat-input")).toHaveValue("Something I typed before being disabled");
  await page.screenshot({ path: shots("disabled-1280") });

  // Reloading the page lands on sign-in with the reason.
  await page.reload();
  await expect(page).toHaveURL(/\/signin\?reason=disabled$/);
  await expect(page.getByTestId("signin-error")).toContainText("Your account is disabled");

  // At sign-in: a wrong password learns nothing; the right one is told the account is disabled.
  const auth = page;
  await auth.goto("/signin");
  await waitForHydration(auth);
  await auth.getByLabel("Email").fill(someone.account.email);
  await auth.getByLabel("Password").fill("not the right password at all");
  await auth.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(auth.getByTestId("signin-error")).toHaveText("Wrong email or password.");
  await auth.getByLabel("Password").fill(someone.account.password);
  await auth.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(auth.getByTestId("signin-error")).toHaveText("Your account is disabled; ask an administrator to enable it again.");
  await auth.setViewportSize({ width: 390, height: 800 });
  await auth.screenshot({ path: shots("disabled-signin-390") });

  // Enabled again, the same password signs in.
  await auth.setViewportSize({ width: 1280, height: 800 });
  expect((await admin.api.patch(`/api/admin/users/${someone.id}`, { data: { disabled: false }, ...SETUP })).status()).toBe(200);
  await new AuthPages(auth).signIn(someone.account);
  await someone.close();
  await admin.close();
});

test("a member sees no Add, Import, Edit or Delete on servers; an admin does", async ({ browser, everything }) => {
  const owner = await signedUp(browser, "access-srv-owner");
  const member = await signedUp(browser, "access-srv-member");
  const team = await createTeam(owner, "Servers Roles");
  await addMember(owner, team.id, member, "member");
  const created = await owner.api.post("/api/servers", {
    data: { name: "team-everything", config: { url: everything.url } },
    headers: { "x-workspace-id": team.id },
    ...SETUP,
  });
  expect(created.status()).toBe(201);

  for (const [who, manages] of [
    [member, false],
    [owner, true],
  ] as const) {
    await who.page.goto(`/w/${team.slug}/servers`);
    await waitForHydration(who.page);
    const card = who.page.getByTestId("server-team-everything");
    await expect(card).toBeVisible();
    await expect(card.getByRole("link", { name: "Inspect" })).toBeVisible();
    for (const name of ["Edit", "Delete"]) await expect(card.getByRole("button", { name })).toHaveCount(manages ? 1 : 0);
    await expect(who.page.getByRole("button", { name: "Add server" })).toHaveCount(manages ? 1 : 0);
    await expect(who.page.getByRole("button", { name: "Import / export" })).toHaveCount(manages ? 1 : 0);
    await expect(card.getByTestId("trust-read-only")).toHaveCount(manages ? 0 : 1);
  }
  await expect(member.page.getByTestId("workspace-role")).toContainText("owners and admins manage them");
  await member.page.screenshot({ path: shots("member-servers-1280") });

  // Add server moves the keyboard into the form it opens.
  await owner.page.getByRole("button", { name: "Add server" }).click();
  await expect(owner.page.getByLabel(/^Name/)).toBeFocused();
  await member.close();
  await owner.close();
});

test("keyboard only: landing composer → send → approval by Tab → allow", async ({ browser, everything }) => {
  const me = await signedUp(browser, "access-kbd");
  const page = me.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  await addHttpServerByApi(page, "everything", everything.url);
  await page.goto("/w/personal/chat");
  await waitForHydration(page);

  // From the top of the page: the skip link, then Tab to the landing page's composer.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  const input = page.getByTestId("chat-input");
  for (let i = 0; i < 20 && !(await input.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(input).toBeFocused();

  await page.keyboard.type('Please echo [[call:echo {"message":"keyboard hello"}]]');
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/w\/personal\/chat\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  await expect(page.getByTestId("message-user").first()).toContainText("keyboard hello");
  const card = page.getByTestId("tool-card").first();
  await expect(card).toHaveAttribute("data-state", "waiting for approval", { timeout: 45_000 });
  await expect(input).toBeFocused();

  // Forward Tab from the composer reaches the waiting approval, then its controls in order.
  const review = page.getByTestId("review-approval");
  for (let i = 0; i < 4 && !(await review.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(review).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("tool-approval")).toBeFocused();
  const allow = page.getByTestId("tool-approve");
  const order: boolean[] = [];
  for (let i = 0; i < 12 && !(await allow.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
    order.push(await page.evaluate(() => document.activeElement?.closest("[data-testid=tool-approval]") !== null));
  }
  await expect(allow).toBeFocused();
  expect(order.every(Boolean)).toBe(true); // every stop on the way was inside the card
  await page.screenshot({ path: shots("approval-focus-1280") });
  await page.keyboard.press("Enter");
  await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await expect(card.getByTestId("tool-result")).toContainText("Echo: keyboard hello");
  // The landing draft was cleared once the server took the turn.
  expect(await draftIn(page)).toEqual([]);
  await me.close();
});

test("`/name` + Enter typed before the prompt list loads waits for it and picks the exact prompt", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "access-slash");
  await chat.open();
  await chat.newChat();
  await chat.input().focus();
  // Typed and entered at once: the list is still loading when Enter arrives.
  await page.keyboard.type("/args-prompt", { delay: 0 });
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("prompt-form")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("prompt-form")).toContainText("Arguments Prompt");
  await expect(page.getByTestId("message-user")).toHaveCount(0);
});
