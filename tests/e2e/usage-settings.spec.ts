/**
 * Usage settings in the browser (docs/usage.md#prices, #budgets): the instance administrator edits
 * the instance's price table and sets a budget for one user (Admin › Usage settings); a workspace
 * owner sets the workspace's own price on its Usage page, which a member of it cannot; forms refuse
 * what the server would, each change is audited, and every screen fits 1280 and 390 px, axe clean.
 */
import { expect, test } from "./helpers/fixtures";
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll } from "./pages/a11y";
import { waitForHydration } from "./pages/app";
import { addMember, createTeam, type Signed, signedInAdmin, signedUp } from "./pages/workspaces";

test.describe.configure({ timeout: 180_000 });

async function fitsAndPasses(who: Signed, label: string) {
  for (const width of [1280, 390]) {
    await who.page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(who.page, `${label} at ${width} px`);
    await expectNoSeriousA11yViolations(who.page, `${label} at ${width} px`);
  }
}

async function audited(admin: Signed, action: string) {
  const answer = await admin.api.get(`/api/admin/audit?action=${action}`);
  expect(answer.status()).toBe(200);
  return JSON.stringify(await answer.json());
}

test("the administrator edits the instance's prices and a user's budget; an owner the workspace's prices", async ({ browser }) => {
  const owner = await signedUp(browser, "prices-owner");
  const member = await signedUp(browser, "prices-member");
  const team = await createTeam(owner, `Prices ${Date.now()}`);
  await addMember(owner, team.id, member, "member");
  const admin = await signedInAdmin(browser);
  const model = `e2e-model-${Date.now()}`;

  // Admin › Usage settings: the form refuses an empty model and a missing output price, in words.
  await admin.page.setViewportSize({ width: 1280, height: 900 });
  await admin.page.goto("/admin/usage");
  await waitForHydration(admin.page);
  const prices = admin.page.getByTestId("price-instances");
  await expect(prices).toBeVisible({ timeout: 30_000 });
  await prices.getByLabel("Input", { exact: true }).fill("-1");
  await prices.getByRole("button", { name: "Save price" }).click();
  await expect(prices.getByText("Name the model.")).toBeVisible();
  await expect(prices.getByText("A number from 0 to 10,000.")).toBeVisible();
  await expect(prices.getByLabel("Output", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await prices.getByLabel("Provider", { exact: true }).selectOption("anthropic");
  await prices.getByLabel("Model", { exact: true }).fill(model);
  await prices.getByLabel("Input", { exact: true }).fill("3");
  await prices.getByLabel("Output", { exact: true }).fill("15");
  await prices.getByRole("button", { name: "Save price" }).click();
  const row = prices.getByTestId(`price-anthropic-${model}`);
  await expect(row).toContainText("$15");
  expect(await audited(admin, "usage.price_set")).toContain(`anthropic/${model}`);

  // A budget of its own for the member, in dollars; the member's standing follows it.
  const budgets = admin.page.getByTestId("user-budgets");
  await budgets.getByLabel("User", { exact: true }).selectOption({ label: member.account.email });
  await budgets.getByLabel("Monthly limit", { exact: true }).fill("nothing");
  await budgets.getByRole("button", { name: "Save budget" }).click();
  await expect(budgets.getByText("A number above 0.")).toBeVisible();
  await budgets.getByLabel("Monthly limit", { exact: true }).fill("5");
  await budgets.getByLabel("Counted in", { exact: true }).selectOption("cents");
  await budgets.getByRole("button", { name: "Save budget" }).click();
  await expect(budgets.getByTestId(`user-budget-${member.account.email}`)).toContainText("$5.00");
  expect(await audited(admin, "usage.budget_set")).toContain(member.id);
  const standing = await member.api.get(`/api/workspaces/${team.id}/usage/budgets`);
  expect((await standing.json()).standing).toMatchObject({ scope: "user", unit: "cents", limit: 500 });
  await fitsAndPasses(admin, "usage settings");

  // Removing the price and the budget: gone from the tables, audited.
  await admin.page.setViewportSize({ width: 1280, height: 900 });
  await row.getByRole("button", { name: /Remove/ }).click();
  await expect(row).toHaveCount(0);
  await budgets
    .getByTestId(`user-budget-${member.account.email}`)
    .getByRole("button", { name: /Remove/ })
    .click();
  await expect(budgets.getByText("No user has a budget of their own.")).toBeVisible();
  expect(await audited(admin, "usage.budget_removed")).toContain(member.id);

  // The owner sets the workspace's own price on its Usage page; the member sees no price form there.
  await owner.page.setViewportSize({ width: 1280, height: 900 });
  await owner.page.goto(`/w/${team.slug}/settings/usage`);
  await waitForHydration(owner.page);
  const own = owner.page.getByTestId("price-workspaces");
  await expect(own).toBeVisible({ timeout: 30_000 });
  await own.getByLabel("Provider", { exact: true }).selectOption("openai-compatible");
  await own.getByLabel("Model", { exact: true }).fill("scripted");
  await own.getByLabel("Input", { exact: true }).fill("0.5");
  await own.getByLabel("Output", { exact: true }).fill("1");
  await own.getByRole("button", { name: "Save price" }).click();
  await expect(own.getByTestId("price-openai-compatible-scripted")).toContainText("$0.5");
  await fitsAndPasses(owner, "workspace prices");
  await member.page.goto(`/w/${team.slug}/settings/usage`);
  await waitForHydration(member.page);
  await expect(member.page.getByTestId("usage-totals")).toBeVisible({ timeout: 30_000 });
  await expect(member.page.getByTestId("price-workspaces")).toHaveCount(0);
  // And the API refuses the member as the page does.
  const refused = await member.api.put(`/api/workspaces/${team.id}/usage/prices`, {
    data: { scope: "workspace", provider: "openai", model: "x", input: 1, output: 1 },
  });
  expect(refused.status()).toBe(403);

  for (const who of [owner, member, admin]) await who.close();
});
