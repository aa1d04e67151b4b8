/**
 * The Servers workbench in a real browser against real server-everything: a tool called by hand
 * through its generated form (with the "ask" confirmation), a template resource read with a
 * server completion, a subscription whose updates arrive live, a log message after switching the
 * level, and a killed stdio server whose status changes and recovers without a reload.
 */
import { expect, test } from "./helpers/fixtures";
import { signInStdioAdmin } from "./helpers/stdio-admin";
import { AuthPages, newAccount } from "./pages/app";
import { InspectorPage } from "./pages/inspector";

async function addServer(page: import("@playwright/test").Page, name: string, config: Record<string, unknown>): Promise<string> {
  const created = await page.request.post("/api/servers", { data: { name, config } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

test("a tool is called by hand through the form generated from its schema, after confirming", async ({ page, everything }) => {
  await new AuthPages(page).register(newAccount("bench-tool"));
  await addServer(page, "everything", { url: everything.url });
  const inspector = new InspectorPage(page);
  await inspector.openFromServers("everything");
  await expect(inspector.state()).toHaveText("connected", { timeout: 30_000 });
  await expect(page.getByTestId("server-identity")).toContainText("protocol");

  await page.getByTestId("tool-get-sum").click();
  await page.locator("#root_a").fill("2");
  await page.locator("#root_b").fill("40");
  await page.getByTestId("call-tool").click();
  // An untrusted server's tool asks: nothing runs until the person confirms.
  await expect(page.getByTestId("confirm-call")).toContainText("not trusted");
  await page.getByTestId("confirm-call-yes").click();
  await expect(page.getByTestId("result-status")).toHaveText("ok");
  await expect(page.getByTestId("tool-result")).toContainText("42");
  await expect(page.getByTestId("result-duration")).toContainText("ms");
  await expect(page.getByTestId("recent-calls")).toContainText("get-sum");
});

test("a template resource is read with a completion, and a subscription's updates arrive live", async ({ page, everything }) => {
  await new AuthPages(page).register(newAccount("bench-res"));
  const id = await addServer(page, "everything", { url: everything.url });
  const inspector = new InspectorPage(page);
  await inspector.openFromServers("everything", "resources");
  await expect(inspector.state()).toHaveText("connected", { timeout: 30_000 });

  await page.getByTestId("template-item").filter({ hasText: "/text/" }).click();
  await page.getByTestId("arg-resourceId").fill("3");
  await page.getByTestId("completion-resourceId-3").click();
  await page.getByTestId("read-template").click();
  await expect(page.getByTestId("resource-content")).toContainText("Resource 3:");

  await page.getByTestId("subscribe").click();
  await expect(page.getByTestId("subscribe")).toHaveText("Unsubscribe");
  // server-everything sends updates of subscribed resources once this tool turns them on.
  const toggle = await page.request.post(`/api/servers/${id}/tools/call`, { data: { name: "toggle-subscriber-updates", arguments: {} } });
  expect(toggle.ok()).toBe(true);
  await expect(page.getByTestId("resource-updates")).toContainText("received", { timeout: 20_000 });
});

test("a log message shows after switching the level", async ({ page, everything }) => {
  await new AuthPages(page).register(newAccount("bench-log"));
  const id = await addServer(page, "everything", { url: everything.url });
  const inspector = new InspectorPage(page);
  await inspector.openFromServers("everything", "logs");
  await expect(inspector.state()).toHaveText("connected", { timeout: 30_000 });
  await expect(page.getByTestId("log-lines").locator('[data-source="connection"]').filter({ hasText: "connected over" })).toHaveCount(1);
  await page.getByTestId("log-level").selectOption("debug");
  const toggle = await page.request.post(`/api/servers/${id}/tools/call`, { data: { name: "toggle-simulated-logging", arguments: {} } });
  expect(toggle.ok()).toBe(true);
  // server-everything's simulated messages ("Debug-level message", …) arrive now that the level is debug.
  await expect(
    page
      .getByTestId("log-lines")
      .locator('[data-source="server"]')
      .filter({ hasText: /level[- ]message/ })
      .first(),
  ).toBeVisible({
    timeout: 20_000,
  });
});

test("a killed stdio server's status changes without a reload, then recovers", async ({ page }) => {
  // Creating stdio servers needs an administrator with a second factor.
  await signInStdioAdmin(page);
  const id = await addServer(page, `killable-${Date.now() % 100000}`, {
    command: "node",
    args: ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
  });
  await page.goto("/servers");
  const card = page.getByTestId(`status-${id}`);
  // Saving started it: no Start, no reload.
  await expect(card.getByTestId("server-state")).toHaveText("connected", { timeout: 30_000 });
  const status = await (await page.request.get(`/api/servers/${id}/status`)).json();
  expect(status.pid).toBeGreaterThan(0);
  process.kill(status.pid, "SIGKILL");
  await expect(card.getByTestId("server-state")).toHaveText(/reconnecting|connecting/, { timeout: 15_000 });
  await expect(card.getByTestId("server-state")).toHaveText("connected", { timeout: 30_000 });
  const after = await (await page.request.get(`/api/servers/${id}/status`)).json();
  expect(after.pid).not.toBe(status.pid);
  await page.request.delete(`/api/servers/${id}`);
});

test("Test connection on the form connects for real, and names SWITCHBOARD_ALLOWED_HOSTS for a private address", async ({
  page,
  everything,
}) => {
  await new AuthPages(page).register(newAccount("bench-test"));
  await page.goto("/servers");
  await page.getByRole("button", { name: "Add server" }).click();
  await expect(page.getByTestId("server-form-heading")).toHaveText("Add a remote server");
  await page.getByLabel(/^Name/).fill("tried");
  await page.getByLabel("URL").fill("http://10.20.30.40/mcp");
  await page.getByTestId("test-connection").click();
  await expect(page.getByTestId("test-connection-result")).toContainText("SWITCHBOARD_ALLOWED_HOSTS");
  await page.getByLabel("URL").fill(everything.url);
  await page.getByTestId("test-connection").click();
  await expect(page.getByTestId("test-connection-result")).toContainText("Connected over streamable_http", { timeout: 30_000 });
  // Nothing was saved by testing.
  expect((await (await page.request.get("/api/servers")).json()).servers).toHaveLength(0);
});
