/**
 * The Usage pages (docs/usage.md#the-usage-pages) as people read them: a member sees their own
 * tokens, cost and tool calls, an owner the workspace's by member and server, the instance
 * administrator every workspace's; at 1280 and 390 px, with the charts drawn, a CSV downloaded and
 * axe clean. A member asking for another member's usage gets a 404.
 */
import fs from "node:fs";
import { expect, test } from "./helpers/fixtures";
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll } from "./pages/a11y";
import { waitForHydration } from "./pages/app";
import { addMember, createTeam, type Signed, signedInAdmin, signedUp } from "./pages/workspaces";

test.describe.configure({ timeout: 240_000 });

/** One chat turn through the API (the scripted model reports 10 + 5 tokens per request). */
async function chatTurn(who: Signed, slug: string, text: string) {
  const created = await who.api.post(`/api/w/${slug}/chats`, { data: {} });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const turn = await who.api.post(`/api/w/${slug}/chat`, { data: { chatId: id, message: { text } }, timeout: 60_000 });
  expect(turn.status()).toBe(200);
  expect(await turn.text()).toContain("said");
}

async function openUsage(who: Signed, slug: string, width: number) {
  await who.page.setViewportSize({ width, height: 900 });
  await who.page.goto(`/w/${slug}/settings/usage`);
  await waitForHydration(who.page);
  await expect(who.page.getByTestId("usage-totals")).toBeVisible({ timeout: 30_000 });
}

async function chartsDrawn(who: Signed) {
  for (const id of ["chart-daily", "chart-servers"]) {
    await expect(who.page.getByTestId(id).locator("svg.recharts-surface").first()).toBeVisible();
  }
}

async function fitsAndPasses(who: Signed, label: string) {
  await expectNoSidewaysScroll(who.page, label);
  await expectNoSeriousA11yViolations(who.page, label);
}

test("usage pages for a member, a workspace owner and the instance administrator", async ({ browser, everything }) => {
  const owner = await signedUp(browser, "usage-owner");
  const member = await signedUp(browser, "usage-member");
  const teamName = `Usage ${Date.now()}`;
  const team = await createTeam(owner, teamName);
  await addMember(owner, team.id, member, "member");
  const server = await owner.api.post(`/api/w/${team.slug}/servers`, { data: { name: "everything", config: { url: everything.url } } });
  expect(server.status()).toBe(201);
  const { id: serverId } = (await server.json()) as { id: string };

  await chatTurn(member, team.slug, "hello from the member");
  await chatTurn(owner, team.slug, "hello from the owner");
  // A tool call by hand: recorded whatever the gate decides (a call, or a refusal by policy).
  await member.api.post(`/api/w/${team.slug}/servers/${serverId}/tools/call`, {
    data: { name: "echo", arguments: { message: "usage" } },
    timeout: 60_000,
  });

  // The member: their own figures only, at 1280 and 390 px; the CSV downloads.
  await openUsage(member, team.slug, 1280);
  const scope = member.page.getByLabel("Whose usage");
  await expect(scope.locator("option")).toHaveCount(1);
  await expect(member.page.getByTestId("usage-totals")).toContainText("Tokens in");
  await expect(member.page.getByTestId("usage-models")).toContainText("scripted");
  await expect(member.page.getByTestId("usage-workspaces")).toContainText(teamName);
  await chartsDrawn(member);
  await fitsAndPasses(member, "member usage at 1280 px");
  const [download] = await Promise.all([member.page.waitForEvent("download"), member.page.getByTestId("usage-csv").click()]);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  expect(csv).toContain("daily");
  expect(csv).toContain("openai-compatible");
  await openUsage(member, team.slug, 390);
  await chartsDrawn(member);
  await fitsAndPasses(member, "member usage at 390 px");

  // Another member's usage does not exist for a member; the workspace's is not theirs to read.
  const peek = await member.api.get(`/api/workspaces/${team.id}/usage?scope=workspace&member=${owner.id}`);
  expect(peek.status()).toBe(404);
  expect((await peek.json()).code).toBe("workspace.member_not_found");
  expect((await member.api.get(`/api/workspaces/${team.id}/usage?scope=workspace`)).status()).toBe(403);

  // The owner: the workspace by member, model, server and tool; tables sort with the keyboard.
  await openUsage(owner, team.slug, 1280);
  await owner.page.getByLabel("Whose usage").selectOption("workspace");
  const members = owner.page.getByTestId("usage-members");
  await expect(members).toContainText(member.account.name);
  await expect(members).toContainText(owner.account.name);
  await expect(owner.page.getByTestId("usage-servers")).toContainText("everything");
  const header = members.getByRole("button", { name: "Member" });
  await header.focus();
  await owner.page.keyboard.press("Enter");
  await expect(members.getByRole("columnheader", { name: /Member/ })).toHaveAttribute("aria-sort", "descending");
  await chartsDrawn(owner);
  await fitsAndPasses(owner, "workspace usage at 1280 px");
  const seen = await owner.api.get(`/api/workspaces/${team.id}/usage?scope=workspace&member=${member.id}`);
  expect(seen.status()).toBe(200);
  expect((await seen.json()).totals.inputTokens).toBeGreaterThanOrEqual(10);
  await owner.page.setViewportSize({ width: 390, height: 900 });
  await fitsAndPasses(owner, "workspace usage at 390 px");

  // The instance administrator: every workspace.
  const admin = await signedInAdmin(browser);
  await openUsage(admin, "personal", 1280);
  await admin.page.getByLabel("Whose usage").selectOption("instance");
  await expect(admin.page.getByTestId("usage-workspaces")).toContainText(teamName);
  await chartsDrawn(admin);
  await fitsAndPasses(admin, "instance usage at 1280 px");
  await admin.page.setViewportSize({ width: 390, height: 900 });
  await fitsAndPasses(admin, "instance usage at 390 px");
  expect((await member.api.get(`/api/workspaces/${team.id}/usage?scope=instance`)).status()).toBe(403);

  for (const who of [owner, member, admin]) await who.close();
});
