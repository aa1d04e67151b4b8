/**
 * Settings in sections with their own pages (the old URLs land on the first), the sentence that
 * says which model wins, and the workspace audit log as people read it: a table with headers and
 * names at 1280 px, cards at 360 px, filters chosen from lists, pages, and a CSV export.
 */
import { expect, test } from "./helpers/fixtures";
import { expectNoSeriousA11yViolations, horizontalOverflow } from "./pages/a11y";
import { waitForHydration } from "./pages/app";
import { addMember, createTeam, signedUp } from "./pages/workspaces";

test.describe.configure({ timeout: 180_000 });

test("settings sections, the model sentence, and the audit log with names, filters, pages and CSV", async ({ browser }, testInfo) => {
  const owner = await signedUp(browser, "audit-owner");
  const mate = await signedUp(browser, "audit-mate");
  const teamName = `Audit ${Date.now()}`;
  const team = await createTeam(owner, teamName);
  await addMember(owner, team.id, mate, "member");
  // Invitations fill more than one page of 25; then a role change names the mate as its target.
  for (let i = 0; i < 26; i++) {
    const invited = await owner.api.post(`/api/workspaces/${team.id}/invitations`, {
      data: { email: `audit-${i}-${Date.now()}@example.com`, role: "member" },
    });
    expect(invited.status()).toBe(201);
  }
  expect((await owner.api.patch(`/api/workspaces/${team.id}/members/${mate.id}`, { data: { role: "admin" } })).ok()).toBe(true);
  const page = owner.page;
  const w = `/w/${team.slug}`;

  // The old single page opens the first section; each section is a page of its own.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${w}/settings`);
  await expect(page).toHaveURL(new RegExp(`${w}/settings/account$`));
  const sections = page.getByRole("navigation", { name: "Settings sections" });
  await expect(sections.getByRole("link", { name: "Account" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("settings-account")).toContainText(owner.account.email);
  await sections.getByRole("link", { name: "Model" }).click();
  await expect(page).toHaveURL(new RegExp(`${w}/settings/model$`));
  await expect(page.getByTestId("model-precedence")).toContainText("Your own model wins");
  await expect(page.getByTestId("model-settings")).toBeVisible();
  // "In use" names the model that really wins here: with no own choice, the workspace default.
  const teamModel = await owner.api.put(`/api/workspaces/${team.id}/model`, {
    data: { provider: "openai-compatible", model: "team-default-llm", baseUrl: "http://127.0.0.1:9/v1" },
  });
  expect(teamModel.status()).toBe(200);
  await page.reload();
  const inUse = page.getByTestId("model-effective");
  await expect(inUse).toHaveText(`In use here: openai-compatible / team-default-llm (default of ${teamName})`);
  await expect(page.getByLabel("Provider").locator("option").first()).toHaveText(
    "Workspace default (openai-compatible / team-default-llm)",
  );
  // Their own choice wins, and the line says so; cleared again, the workspace default is back.
  await page.getByLabel("Provider").selectOption("openai-compatible");
  await page.getByLabel("Model").fill("my-own-llm");
  await page.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
  await page.getByRole("button", { name: "Save model settings" }).click();
  await expect(inUse).toHaveText("In use here: openai-compatible / my-own-llm (your choice)");
  await page.getByLabel("Provider").selectOption("");
  await page.getByLabel("Model").fill("");
  await page.getByLabel("Base URL").fill("");
  await page.getByRole("button", { name: "Save model settings" }).click();
  await expect(inUse).toHaveText(`In use here: openai-compatible / team-default-llm (default of ${teamName})`);
  // In the personal workspace the team's default does not apply.
  await page.goto("/w/personal/settings/model");
  await expect(inUse).not.toContainText("team-default-llm");
  await page.goto(`${w}/settings/model`);
  await sections.getByRole("link", { name: "Workspace" }).click();
  await expect(page.getByTestId(`member-${mate.account.email}`)).toBeVisible();
  await expect(page.getByTestId("audit-log")).toHaveCount(0);

  // The audit log: headers, names and emails instead of ids, both times.
  await sections.getByRole("link", { name: "Audit" }).click();
  await waitForHydration(page);
  const log = page.getByTestId("audit-log");
  for (const header of ["When", "Who", "Action", "Target", "Details"]) {
    await expect(log.getByRole("columnheader", { name: header })).toBeVisible();
  }
  await expect(log.getByTestId("audit-entry")).toHaveCount(25);
  const roleRow = log.getByTestId("audit-entry").filter({ hasText: "member.role" });
  await expect(roleRow).toContainText(owner.account.name);
  await expect(roleRow).toContainText(owner.account.email);
  await expect(roleRow).toContainText(mate.account.name);
  await expect(roleRow).not.toContainText(mate.id);
  // Details read as key and value, not as a JSON string.
  await expect(roleRow.getByTestId("audit-detail").locator("dt")).toHaveText(["from", "to"]);
  await expect(roleRow.getByTestId("audit-detail").locator("dd")).toHaveText(["member", "admin"]);
  await expect(roleRow.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
  await expect(roleRow.locator("time")).toContainText(/just now|minute/);

  // Every filter or page change waits for its own answer: the log is busy until the newest request
  // has filled it (a count taken earlier could be the previous filter's).
  const settled = () => expect(log).toHaveAttribute("aria-busy", "false");
  // Pages: Older, then Newer back.
  await expect(log.getByTestId("audit-page")).toHaveText("Page 1");
  await log.getByRole("button", { name: "Older" }).click();
  await settled();
  await expect(log.getByTestId("audit-page")).toHaveText("Page 2");
  await expect(log.getByTestId("audit-entry").filter({ hasText: "workspace.create" })).toHaveCount(1);
  await log.getByRole("button", { name: "Newer" }).click();
  await settled();
  await expect(log.getByTestId("audit-page")).toHaveText("Page 1");

  // Filters are lists of what the log holds: people by name and email, actions, targets by name.
  await log.getByLabel("Person").selectOption({ label: `${mate.account.name} (${mate.account.email})` });
  await settled();
  await expect(log.getByTestId("audit-entry")).toHaveCount(1);
  await expect(log.getByTestId("audit-entry")).toContainText("invitation.accept");
  await log.getByLabel("Person").selectOption("");
  await settled();
  await log.getByLabel("Action").selectOption("member.role");
  await settled();
  await expect(log.getByTestId("audit-entry")).toHaveCount(1);
  await log.getByLabel("Action").selectOption("");
  await settled();
  await log.getByLabel("Target").selectOption({ label: `${mate.account.name} (${mate.account.email})` });
  await settled();
  await expect(log.getByTestId("audit-entry")).toHaveCount(1);
  await expect(log.getByTestId("audit-entry")).toContainText("member.role");
  await expectNoSeriousA11yViolations(page, "audit log at 1280 px");
  await page.screenshot({ path: testInfo.outputPath("audit-1280.png"), fullPage: true });

  // The export holds what the filters select, as CSV with names.
  const href = await log.getByTestId("audit-export").getAttribute("href");
  expect(href).toContain(`target=${mate.id}`);
  const csv = await owner.api.get(href ?? "");
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(csv.headers()["content-disposition"]).toContain("attachment");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toBe("time,actor_name,actor_email,action,target,target_name,target_email,workspace,detail");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`${owner.account.email},member.role,${mate.id},${mate.account.name},${mate.account.email}`);
  const all = await owner.api.get(`/api/workspaces/${team.id}/audit/export`);
  expect((await all.text()).trim().split("\r\n").length).toBeGreaterThan(28);

  // On a phone the entries are cards, and nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await waitForHydration(page);
  await expect(log.getByTestId("audit-table")).toBeHidden();
  await expect(log.getByTestId("audit-card")).toHaveCount(25);
  await expect(log.getByTestId("audit-card").filter({ hasText: "member.role" })).toContainText(mate.account.email);
  await expect(log.getByLabel("Person")).toBeVisible();
  const overflow = await horizontalOverflow(page);
  expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.innerWidth);
  await expectNoSeriousA11yViolations(page, "audit log at 360 px");
  await page.screenshot({ path: testInfo.outputPath("audit-360.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${w}/settings/model`);
  await expect(page.getByTestId("model-precedence")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("model-390.png"), fullPage: true });

  // A plain member is told who may read the log, and the routes refuse them.
  expect((await owner.api.patch(`/api/workspaces/${team.id}/members/${mate.id}`, { data: { role: "member" } })).ok()).toBe(true);
  await mate.page.goto(`${w}/settings/audit`);
  await expect(mate.page.getByTestId("audit-not-allowed")).toContainText("owners and admins");
  expect((await mate.api.get(`/api/workspaces/${team.id}/audit/export`)).status()).toBe(403);
  await owner.close();
  await mate.close();
});
