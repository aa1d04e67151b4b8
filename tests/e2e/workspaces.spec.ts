/**
 * Team workspaces in the browser: an owner creates "Acme", adds a server and invites a second
 * user, who registers through the link, switches to Acme and chats with the team's server; the
 * owner removes them and their next action in Acme says so. Two tabs in two workspaces
 * never mix.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { newAccount, ServersPage, waitForHydration } from "./pages/app";
import { ChatPage, signUpByApi } from "./pages/chat";
import { createTeam, signedInAdmin, signedUp } from "./pages/workspaces";

test.describe.configure({ timeout: 180_000 });

async function switchTo(page: Page, label: string) {
  await waitForHydration(page);
  await page.getByTestId("workspace-switcher").selectOption({ label });
}

test("owner creates Acme, invites a teammate who chats with its server, then removes them", async ({ browser, everything }) => {
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signUpByApi(owner, newAccount("acme-owner"));

  // Create the team from the header's switcher.
  await switchTo(owner, "+ New workspace…");
  await owner.getByLabel("New workspace name").fill("Acme");
  await owner.getByRole("button", { name: "Create" }).click();
  await expect(owner).toHaveURL(/\/w\/acme[^/]*\/servers$/);
  const acmePath = new URL(owner.url()).pathname.replace(/\/servers$/, "");
  await expect(owner.getByTestId("workspace-switcher")).toHaveValue(acmePath.split("/")[2]);
  await expect(owner.getByTestId("workspace-role")).toContainText("owner");

  // A server of the team, with shared credentials: members use what its admins configured.
  await waitForHydration(owner);
  await new ServersPage(owner).startAdding("everything");
  await owner.getByLabel("URL").fill(everything.url);
  await owner.getByLabel(/Shared credentials/).check();
  await owner.getByRole("button", { name: "Add server" }).last().click();
  await expect(owner.getByTestId("server-everything")).toBeVisible();

  // Invite the teammate from Settings; the link is shown once to copy.
  await owner.goto(`${acmePath}/settings/workspace`);
  await waitForHydration(owner);
  const mate = newAccount("acme-mate");
  await owner.getByLabel("Invite by email").fill(mate.email);
  await owner.getByRole("button", { name: "Invite" }).click();
  const link = await owner.getByTestId("invitation-link").inputValue();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{40,}$/);
  await expect(owner.getByTestId("pending-invitations")).toContainText(mate.email);

  // The teammate registers through the link (signed out) and lands in Acme.
  const mateContext = await browser.newContext();
  const teammate = await mateContext.newPage();
  await teammate.goto(new URL(link).pathname);
  await waitForHydration(teammate);
  await expect(teammate.getByTestId("invitation-summary")).toContainText("join Acme as member");
  await teammate.getByLabel("Name").fill(mate.name);
  await teammate.getByLabel(/Password/).fill(mate.password);
  await teammate.getByRole("button", { name: "Create account and join" }).click();
  await expect(teammate).toHaveURL(new RegExp(`${acmePath}/chat$`));
  await expect(teammate.getByTestId("current-user")).toContainText(mate.name);

  // Switching: personal, then back to Acme from the header.
  await switchTo(teammate, "Personal");
  await expect(teammate).toHaveURL(/\/w\/personal\/chat$/);
  await switchTo(teammate, "Acme");
  await expect(teammate).toHaveURL(new RegExp(`${acmePath}/chat$`));

  // A member sees the team's shared server, whose credentials it uses, but may not change it.
  await teammate.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Servers" }).click();
  await expect(teammate).toHaveURL(new RegExp(`${acmePath}/servers$`));
  await expect(teammate.getByTestId("workspace-role")).toContainText("member");
  await expect(teammate.getByTestId("shared-everything")).toContainText("credentials its owners and admins configured");
  await teammate.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chat" }).click();
  await expect(teammate).toHaveURL(new RegExp(`${acmePath}/chat$`));
  // The page's own API path names Acme (`/api/w/<slug>/…`), as every call from the page does.
  const forbidden = await teammate.evaluate(
    async (slug) =>
      (
        await fetch(`/api/w/${slug}/servers`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "mine", config: { url: "http://127.0.0.1:1/mcp" } }),
        })
      ).status,
    acmePath.split("/")[2],
  );
  expect(forbidden).toBe(403);

  // Chat with the team's server.
  const chat = new ChatPage(teammate);
  await chat.newChat();
  await expect(teammate).toHaveURL(new RegExp(`${acmePath}/chat/[0-9a-f-]{36}$`));
  await chat.send('Please echo [[call:echo {"message":"team hello"}]]');
  const card = chat.toolCards().first();
  // A new server is untrusted: the teammate's own approval runs the call (docs/tool-trust.md).
  await expect(card).toHaveAttribute("data-state", "waiting for approval", { timeout: 45_000 });
  await card.getByTestId("tool-approve").click();
  await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await expect(card.getByTestId("tool-result")).toContainText("Echo: team hello");
  await chat.waitIdle();

  // The owner removes them.
  await owner.reload();
  await waitForHydration(owner);
  owner.once("dialog", (dialog) => void dialog.accept());
  await owner.getByTestId(`member-${mate.email}`).getByRole("button", { name: "Remove" }).click();
  await expect(owner.getByTestId(`member-${mate.email}`)).toHaveCount(0);

  // Their next action in Acme says who removed them (access-changes.spec.ts has the whole story),
  // a page of Acme explains instead of a 404, and Acme leaves their switcher.
  await chat.send("Are you still there?");
  await expect(teammate.getByTestId("access-notice")).toContainText("You were removed from Acme");
  await teammate.goto(`${acmePath}/chat`);
  await expect(teammate.getByTestId("access-page")).toContainText("You were removed from Acme");
  await teammate.goto("/chat");
  await expect(teammate).toHaveURL(/\/w\/personal\/chat$/);
  const options = await teammate.getByTestId("workspace-switcher").locator("option").allTextContents();
  expect(options).not.toContain("Acme");

  await mateContext.close();
  await ownerContext.close();
});

test("two tabs in two workspaces do not mix", async ({ browser, everything }) => {
  const context = await browser.newContext();
  const first = await context.newPage();
  await signUpByApi(first, newAccount("two-tabs"));
  const team = (await (await first.request.post("/api/workspaces", { data: { name: "Tabs Team" } })).json()) as {
    id: string;
    slug: string;
  };
  expect(
    (
      await first.request.post("/api/servers", {
        data: { name: "team-only", config: { url: everything.url } },
        headers: { "x-workspace-id": team.id },
      })
    ).status(),
  ).toBe(201);

  // A per-member key: this user fills in their own value, which is never shown back.
  const keyed = await first.request.post("/api/servers", {
    data: { name: "keyed", config: { url: everything.url, headers: { "x-api-key": "placeholder" } }, memberKeys: ["headers.x-api-key"] },
    headers: { "x-workspace-id": team.id },
  });
  expect(keyed.status()).toBe(201);
  await first.goto(`/w/${team.slug}/servers`);
  await waitForHydration(first);
  const form = first.getByTestId("member-values-keyed");
  await form.getByLabel("Your value for headers.x-api-key").fill("my-own-key-123");
  await form.getByRole("button", { name: "Save my values" }).click();
  await expect(form).toContainText("(set)");
  await expect(form.getByLabel("Your value for headers.x-api-key")).toHaveValue("");
  await expect(first.locator("body")).not.toContainText("my-own-key-123");

  const second = await context.newPage();
  await first.goto(`/w/${team.slug}/chat`);
  await second.goto("/w/personal/chat");
  await Promise.all([waitForHydration(first), waitForHydration(second)]);

  // Each tab names its page's workspace in the API path (`/w/<slug>/…` → `/api/w/<slug>/…`).
  const pageApi = (page: Page, route: string) => `/api/w/${new URL(page.url()).pathname.split("/")[2]}/${route}`;
  const serversIn = (page: Page) =>
    page.evaluate(
      async (url) => ((await (await fetch(url)).json()) as { servers: { name: string }[] }).servers.map((s) => s.name),
      pageApi(page, "servers"),
    );
  expect(await serversIn(first)).toEqual(["keyed", "team-only"]);
  expect(await serversIn(second)).toEqual([]);

  // A chat started in one tab belongs to that tab's workspace only.
  const teamChat = new ChatPage(first);
  const personalChat = new ChatPage(second);
  const teamChatId = await teamChat.newChat();
  const personalChatId = await personalChat.newChat();
  await expect(first).toHaveURL(new RegExp(`/w/${team.slug}/chat/${teamChatId}$`));
  await expect(second).toHaveURL(new RegExp(`/w/personal/chat/${personalChatId}$`));
  const chatsIn = (page: Page) =>
    page.evaluate(
      async (url) => ((await (await fetch(url)).json()) as { chats: { id: string }[] }).chats.map((c) => c.id),
      pageApi(page, "chats"),
    );
  expect(await chatsIn(first)).toEqual([teamChatId]);
  expect(await chatsIn(second)).toEqual([personalChatId]);
  // Opening the team's chat under the personal workspace is a 404, not a leak.
  expect((await second.goto(`/w/personal/chat/${teamChatId}`))?.status()).toBe(404);
  await context.close();
});

test("the instance admin finds and disables a user, whose session ends at once, and reads the audit log", async ({ browser }) => {
  const someone = await signedUp(browser, "admin-target");
  const team = await createTeam(someone, "Admin View Team");
  const admin = await signedInAdmin(browser);
  await admin.page.goto("/admin");
  await waitForHydration(admin.page);
  // The page's heading comes first; the instance's policies sit under it.
  const headings = admin.page.getByRole("heading");
  await expect(headings.first()).toHaveText("Administration");
  await expect(headings.nth(1)).toHaveText("Second factors");
  await admin.page.getByLabel("Search users").fill(someone.account.email);
  const row = admin.page.getByTestId(`user-${someone.account.email}`);
  await expect(admin.page.getByTestId("admin-users").locator("tr")).toHaveCount(1);
  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row).toContainText("disabled");
  const refused = await someone.api.get("/api/workspaces");
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe("auth.account_disabled");

  // The audit log's filters list what it holds: the disable just recorded, by the admin's name.
  await admin.page.reload();
  await waitForHydration(admin.page);
  const log = admin.page.getByTestId("audit-log");
  await log.getByLabel("Action").selectOption("user.disable");
  await log.getByLabel("Target").selectOption({ label: `${someone.account.name} (${someone.account.email})` });
  await expect(log).toHaveAttribute("aria-busy", "false");
  await expect(log.getByTestId("audit-entry")).toHaveCount(1);
  await expect(log.getByTestId("audit-entry")).toContainText(admin.account.email);
  // The workspaces table names each workspace and its owners, never by raw id.
  const table = admin.page.getByTestId("admin-workspaces");
  for (const header of ["Workspace", "Owners", "Members"]) await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
  const personal = table
    .getByTestId("admin-workspace")
    .filter({ hasText: someone.account.email })
    .filter({ hasText: "personal workspace" });
  await expect(personal).toContainText(`${someone.account.name}'s workspace`);
  await expect(personal).not.toContainText(someone.id);
  const teamRow = table.getByTestId("admin-workspace").filter({ has: admin.page.getByText(`/w/${team.slug}`, { exact: true }) });
  await expect(teamRow).toContainText("Admin View Team");
  await expect(teamRow).toContainText(`${someone.account.name} ${someone.account.email}`);
  await expect(teamRow).not.toContainText(team.id);
  await someone.close();
  await admin.close();
});
