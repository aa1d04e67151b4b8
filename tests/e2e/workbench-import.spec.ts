/**
 * Import and export in the browser: a Claude Desktop JSON with one HTTP and one stdio entry, as a
 * member (the stdio entry refused) and as the instance administrator (its exact launch shown for
 * consent), and an export that imports back to the same configs.
 */
import { expect, test } from "./helpers/fixtures";
import { signInStdioAdmin } from "./helpers/stdio-admin";
import { AuthPages, newAccount, ServersPage } from "./pages/app";

function claudeJson(suffix: string, url: string): string {
  return JSON.stringify(
    {
      mcpServers: {
        [`web-${suffix}`]: { url },
        [`box-${suffix}`]: { command: "node", args: ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"] },
      },
    },
    null,
    2,
  );
}

test("a member imports the HTTP entry of a Claude Desktop file; the stdio entry is refused", async ({ page, everything }) => {
  await new AuthPages(page).register(newAccount("import-member"));
  await new ServersPage(page).open();
  await page.getByTestId("open-import").click();
  await page.getByTestId("import-text").fill(claudeJson("m", everything.url));
  await page.getByTestId("import-preview-button").click();
  await expect(page.getByTestId("import-box-m").getByTestId("import-verdict")).toContainText("only instance administrators");
  await expect(page.getByTestId("import-box-m").getByRole("checkbox")).toBeDisabled();
  await expect(page.getByTestId("import-web-m").getByTestId("import-verdict")).toHaveText("ready");
  await page.getByTestId("import-confirm").click();
  await expect(page.getByTestId("server-web-m")).toBeVisible();
  await expect(page.getByTestId("server-box-m")).toHaveCount(0);
  // Saved means started: the imported server connects without a page asking.
  await expect(page.getByTestId("server-web-m").getByTestId("server-state")).toHaveText("connected", { timeout: 30_000 });
});

test("the administrator sees the stdio entry's exact launch and imports it on consent", async ({ page, everything }) => {
  // Creating stdio servers needs an administrator with a second factor.
  await signInStdioAdmin(page);
  await new ServersPage(page).open();
  await page.getByTestId("open-import").click();
  await page.getByTestId("import-text").fill(claudeJson("a", everything.url));
  await page.getByTestId("import-preview-button").click();
  await expect(page.getByTestId("import-box-a").getByTestId("import-launch")).toContainText(
    "node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio",
  );
  // Not picked until the administrator ticks it.
  await expect(page.getByTestId("import-box-a").getByRole("checkbox")).not.toBeChecked();
  await page.getByTestId("import-box-a").getByRole("checkbox").check();
  await page.getByTestId("import-confirm").click();
  await expect(page.getByTestId("server-box-a")).toBeVisible();
  await expect(page.getByTestId("server-web-a")).toBeVisible();
  for (const name of ["box-a", "web-a"]) {
    const { servers } = await (await page.request.get("/api/servers")).json();
    const id = servers.find((s: { name: string }) => s.name === name).id;
    await page.request.delete(`/api/servers/${id}`);
  }
});

test("export and re-import gives the same configs", async ({ page, browser, everything }) => {
  await new AuthPages(page).register(newAccount("export"));
  for (const [name, config] of [
    ["first", { url: everything.url, tools: { include: [] }, sampling: { review: false } }],
    ["second", { url: everything.url, headers: { "X-Key": "export-secret" }, timeout: 30 }],
  ] as const) {
    expect((await page.request.post("/api/servers", { data: { name, config } })).status()).toBe(201);
  }
  const exported = await page.request.get("/api/servers/export?format=json");
  expect(exported.status()).toBe(200);
  const text = await exported.text();
  expect(text).not.toContain("export-secret");

  const other = await browser.newContext({ baseURL: page.url() });
  const otherPage = await other.newPage();
  await new AuthPages(otherPage).register(newAccount("reimport"));
  const inputs = { "second.headers.X-Key": "export-secret" };
  const preview = await (await otherPage.request.post("/api/servers/import", { data: { text, inputs } })).json();
  expect(preview.servers.every((s: { valid: boolean }) => s.valid)).toBe(true);
  const created = await otherPage.request.post("/api/servers/import", { data: { text, inputs, confirm: ["first", "second"] } });
  expect(created.status()).toBe(201);
  const mine = (await (await page.request.get("/api/servers")).json()).servers as { name: string; config: unknown }[];
  const theirs = (await (await otherPage.request.get("/api/servers")).json()).servers as { name: string; config: unknown }[];
  const configs = (list: { name: string; config: unknown }[]) => Object.fromEntries(list.map((s) => [s.name, s.config]));
  expect(configs(theirs)).toEqual(configs(mine));
  await other.close();
});
