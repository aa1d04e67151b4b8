/**
 * Every page of the app at 360 px (the narrowest phone we serve): the document is never wider
 * than the window, so nothing scrolls sideways, and axe finds no serious or critical violation.
 * One table of routes, signed out and signed in as the instance administrator in a team workspace.
 */
import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { expectNoSeriousA11yViolations, horizontalOverflow } from "./pages/a11y";
import { waitForHydration } from "./pages/app";
import { addMember, createTeam, signedInAdmin, signedUp } from "./pages/workspaces";

test.describe.configure({ timeout: 240_000 });

const PHONE = { width: 360, height: 740 };

/** The elements sticking out past the window's right edge (for a failure message that says where). */
async function widest(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 8)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${String(el.className).slice(0, 60)} → ${Math.round(el.getBoundingClientRect().right)}px`,
      ),
  );
}

async function expectFits(page: Page, path: string, testInfo: TestInfo) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  const overflow = await horizontalOverflow(page);
  expect(overflow.scrollWidth, `${path} scrolls sideways at 360 px: ${(await widest(page)).join("; ")}`).toBeLessThanOrEqual(
    overflow.innerWidth,
  );
  await expectNoSeriousA11yViolations(page, `${path} at 360 px`);
  // Kept in test-results, to look at the page as a person would.
  await page.screenshot({ path: testInfo.outputPath(`${path.replaceAll("/", "_")}-360.png`), fullPage: true });
}

test("signed out: sign in and register fit 360 px", async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  for (const path of ["/signin", "/register"]) {
    await page.goto(path);
    await expect(page.getByRole("button").first()).toBeVisible();
    const overflow = await horizontalOverflow(page);
    expect(overflow.scrollWidth, `${path}: ${(await widest(page)).join("; ")}`).toBeLessThanOrEqual(overflow.innerWidth);
  }
  await context.close();
});

test("signed in: every page of a team workspace, the account and the administration fit 360 px", async ({
  browser,
  everything,
}, testInfo) => {
  const admin = await signedInAdmin(browser);
  await admin.page.setViewportSize(PHONE);
  const api = admin.api;
  const team = await createTeam(admin, `Fit ${Date.now()}`);
  const header = { "x-workspace-id": team.id };
  const server = await api.post("/api/servers", { headers: header, data: { name: "everything", config: { url: everything.url } } });
  expect(server.status(), await server.text()).toBe(201);
  const serverId = ((await server.json()) as { id: string }).id;
  const chat = (await (await api.post("/api/chats", { headers: header, data: {} })).json()) as { id: string };
  // A member, a pending invitation and audit entries, so the tables have rows to lay out.
  const mate = await signedUp(browser, "fit-mate");
  await addMember(admin, team.id, mate, "member");
  await mate.close();
  const invited = await api.post(`/api/workspaces/${team.id}/invitations`, {
    data: { email: `fit-${Date.now()}@example.com`, role: "member" },
  });
  expect(invited.status()).toBe(201);

  const w = `/w/${team.slug}`;
  const ROUTES = [
    `${w}/chat`,
    `${w}/chat/${chat.id}`,
    `${w}/servers`,
    `${w}/servers/${serverId}`,
    `${w}/settings/account`,
    `${w}/settings/model`,
    `${w}/settings/workspace`,
    `${w}/settings/audit`,
    "/account",
    "/admin",
  ];
  for (const path of ROUTES) await expectFits(admin.page, path, testInfo);
  await admin.close();
});
