/**
 * Personal access tokens in the browser (docs/personal-tokens.md): a member makes one on the account
 * page for their team with `api:read`; the secret is shown once with a copy button (the clipboard
 * holds it), is gone after Done and never in the list; used from this test with fetch as
 * `Authorization: Bearer` on `/v0.1/servers`, it reads what the team may see; revoked after a
 * confirmation, it gets `401 token.revoked`. The section fits 1280 and 390 px, axe clean.
 */
import { expect, test } from "./helpers/fixtures";
import { expectNoSeriousA11yViolations, horizontalOverflow } from "./pages/a11y";
import { waitForHydration } from "./pages/app";
import { addMember, createTeam, SETUP, type Signed, signedInAdmin, signedUp } from "./pages/workspaces";

test.describe.configure({ timeout: 180_000 });

async function fitsAndPasses(who: Signed, label: string) {
  for (const width of [1280, 390]) {
    await who.page.setViewportSize({ width, height: 900 });
    const { scrollWidth, innerWidth } = await horizontalOverflow(who.page);
    expect(scrollWidth, `${label} at ${width} px: no sideways scroll`).toBeLessThanOrEqual(innerWidth);
    await expectNoSeriousA11yViolations(who.page, `${label} at ${width} px`);
  }
  await who.page.setViewportSize({ width: 1280, height: 900 });
}

/** A catalog entry made by the administrator, shown to `workspaceIds` (or admins only when empty). */
async function entry(admin: Signed, name: string, workspaceIds: string[]) {
  const serverJson = {
    name,
    description: "Token test",
    version: "1.0.0",
    remotes: [{ type: "streamable-http", url: "https://mcp.example.com/mcp" }],
  };
  const created = await admin.api.post("/api/admin/catalog/entries", { data: { serverJson }, ...SETUP });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const visibility = workspaceIds.length ? { visibility: "workspaces", workspaceIds } : { visibility: "admins" };
  expect((await admin.api.patch(`/api/admin/catalog/entries/${id}`, { data: visibility, ...SETUP })).status()).toBe(200);
}

test("a member makes a token, sees it once, copies it, reads the catalog with it and revokes it", async ({ browser }) => {
  const stamp = Date.now();
  const owner = await signedUp(browser, "pat-owner");
  const member = await signedUp(browser, "pat-member");
  const team = await createTeam(owner, `Tokens ${stamp}`);
  await addMember(owner, team.id, member, "member");
  const admin = await signedInAdmin(browser);
  const teamEntry = `com.example.pat/team-${stamp}`;
  const adminsEntry = `com.example.pat/admins-${stamp}`;
  await entry(admin, teamEntry, [team.id]);
  await entry(admin, adminsEntry, []);

  const { page } = member;
  await page.goto("/account");
  await waitForHydration(page);
  const base = new URL(page.url()).origin;
  const section = page.getByTestId("personal-tokens");
  await expect(section.getByRole("heading", { name: "Personal access tokens" })).toBeVisible();
  await fitsAndPasses(member, "account with no token");

  // Made with the keyboard: name, workspace, scopes, expiry, then Enter.
  await section.getByLabel("Name", { exact: true }).fill("editor");
  await section.getByLabel("Workspace", { exact: true }).selectOption({ label: `Tokens ${stamp}` });
  await expect(section.getByLabel(/^api:read/)).toBeChecked();
  await section.getByLabel("Expires after").selectOption("7");
  await section.getByLabel("Name", { exact: true }).focus();
  await page.keyboard.press("Enter");

  const shown = page.getByTestId("token-shown");
  await expect(shown).toContainText("you will not see it again");
  const secret = await shown.getByLabel("Your new token").inputValue();
  expect(secret).toMatch(/^sbp_[A-Za-z0-9_-]{43}$/);
  // Checked before Copy: its toast fades in over the page, which axe reads as low contrast mid-animation.
  await fitsAndPasses(member, "account with the new token shown");
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await shown.getByRole("button", { name: "Copy" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const row = section.getByTestId("personal-token").filter({ hasText: "editor" });
  await expect(row).toContainText(`Tokens ${stamp}`);
  await expect(row).toContainText("api:read");
  await expect(row).toContainText("never used");
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  const listed = await member.api.get("/api/account/tokens");
  expect(JSON.stringify(await listed.json())).not.toContain(secret);

  // The token from outside the browser: no cookie, only the bearer header.
  const read = await fetch(`${base}/v0.1/servers`, { headers: { authorization: `Bearer ${secret}` } });
  expect(read.status).toBe(200);
  expect(read.headers.get("access-control-allow-origin")).toBe("*");
  const names = ((await read.json()) as { servers: { server: { name: string } }[] }).servers.map((s) => s.server.name);
  expect(names).toContain(teamEntry);
  expect(names).not.toContain(adminsEntry);
  await page.reload();
  await waitForHydration(page);
  await expect(row).not.toContainText("never used");

  // Revoke asks first; Cancel keeps it, Revoke token ends it.
  await row.getByRole("button", { name: "Revoke", exact: true }).click();
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(row).not.toContainText("(revoked)");
  await row.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(row).toContainText("Clients using it stop at once");
  await fitsAndPasses(member, "account confirming a revocation");
  await row.getByRole("button", { name: "Revoke token" }).click();
  await expect(row).toContainText("(revoked)");
  const refused = await fetch(`${base}/v0.1/servers`, { headers: { authorization: `Bearer ${secret}` } });
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { code: string }).code).toBe("token.revoked");

  await Promise.all([owner.close(), member.close(), admin.close()]);
});
