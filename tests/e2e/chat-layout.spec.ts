/**
 * The app on a phone (390×844) and a desktop (1280×800): no page scrolls sideways, Send stays in
 * view, the chat list is a drawer on the phone, the current section is marked, and axe finds no
 * serious or critical violation on any page.
 */
import { expect, test } from "./helpers/fixtures";
import { expectNoSeriousA11yViolations, horizontalOverflow } from "./pages/a11y";
import { ADMIN, newAccount } from "./pages/app";
import { signUpByApi } from "./pages/chat";

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
];

for (const viewport of VIEWPORTS) {
  test(`${viewport.name}: chat, servers, settings and account fit, Send is visible, axe is clean`, async ({ page, everything }) => {
    // Five pages, each with an axe run of several seconds on a busy machine: more than the default minute.
    test.setTimeout(150_000);
    await page.setViewportSize(viewport);
    await signUpByApi(page, newAccount(`layout-${viewport.name}`));
    const request = page.context().request;
    expect((await request.post("/api/servers", { data: { name: "everything", config: { url: everything.url } } })).status()).toBe(201);
    const chat = (await (await request.post("/api/chats", { data: {} })).json()) as { id: string };
    await page.goto(`/chat/${chat.id}`);
    await expect(page.getByTestId("chat-send")).toBeInViewport();
    await expect(page.getByTestId("chat-input")).toBeInViewport();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Chat" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Servers" })).not.toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("status-strip")).not.toContainText("checking…", { timeout: 30_000 });
    let overflow = await horizontalOverflow(page);
    expect(overflow.scrollWidth, "chat scrolls sideways").toBeLessThanOrEqual(overflow.innerWidth);
    await expectNoSeriousA11yViolations(page, `chat ${viewport.name}`);

    if (viewport.width < 768) {
      // The chat list is a drawer: hidden until opened, then a focus-trapped dialog.
      await expect(page.getByTestId("chat-list").first()).toBeHidden();
      await page.getByTestId("open-chat-list").click();
      const drawer = page.getByTestId("chat-drawer");
      await expect(drawer.getByTestId("chat-item")).toHaveCount(1);
      await expect(drawer.getByRole("button", { name: "New chat", exact: true })).toBeVisible();
      await expectNoSeriousA11yViolations(page, "chat drawer");
      await page.keyboard.press("Escape");
      await expect(drawer).toBeHidden();
    } else {
      await expect(page.getByTestId("chat-list")).toBeVisible();
    }

    for (const section of ["Servers", "Settings", "Account"]) {
      await nav.getByRole("link", { name: section }).click();
      await expect(nav.getByRole("link", { name: section })).toHaveAttribute("aria-current", "page");
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await page.waitForLoadState("networkidle");
      overflow = await horizontalOverflow(page);
      expect(overflow.scrollWidth, `${section} scrolls sideways`).toBeLessThanOrEqual(overflow.innerWidth);
      await expectNoSeriousA11yViolations(page, `${section} ${viewport.name}`);
    }
  });
}

test("the skip link jumps past the header to the page's content", async ({ page }) => {
  await signUpByApi(page, newAccount("skip"));
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("#main")).toBeFocused();
});

test("axe is clean on the signed-out pages and the admin page", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  for (const path of ["/signin", "/register"]) {
    await page.goto(path);
    await expect(page.getByRole("button").first()).toBeVisible();
    await expectNoSeriousA11yViolations(page, path);
  }
  const { csrfToken } = await (await context.request.get("/api/auth/csrf")).json();
  await context.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: ADMIN.email, password: ADMIN.password, json: "true" },
  });
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expectNoSeriousA11yViolations(page, "/admin");
  await context.close();
});
