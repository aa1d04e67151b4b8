/**
 * Tool search in the browser: an owner lowers the workspace's threshold in Settings, then the model
 * (scripted) searches, the found tool runs, and the answer says which tools were loaded and why.
 */
import { expect, test } from "./helpers/fixtures";
import { userWithEverything } from "./pages/chat";

test.describe.configure({ timeout: 120_000 });

test("threshold from Settings; search_tools loads the tool; the chat shows what was loaded and why", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "search");
  await page.goto("/settings");
  await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Workspace" }).click();
  const form = page.getByTestId("tool-search-settings");
  await expect(form.getByLabel("Tool search threshold")).toHaveValue("40");
  await form.getByLabel("Tool search threshold").fill("3");
  await form.getByRole("button", { name: "Save tool search" }).click();
  await expect(form).toContainText("Saved.");

  await chat.open();
  await chat.newChat();
  await chat.send('Echo please [[call:search_tools {"query":"echo message"}]] [[then:echo {"message":"found by search"}]]');
  const echo = page.locator('[data-testid="tool-card"][data-tool="mcp_everything_echo"]');
  await expect(echo).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await expect(echo.getByTestId("tool-result")).toContainText("found by search");
  await chat.waitIdle();

  const line = chat.lastAssistant().getByTestId("toolset-line");
  await expect(line).toContainText(/Tool search: \d+ of \d+ tools loaded/);
  await line.locator("summary").click();
  const loaded = line.locator('[data-testid="toolset-tool"][data-reason="search"]', { hasText: "everything/echo" });
  await expect(loaded).toContainText('found by search ("echo message")');

  // After a reload the line is still there (it is stored with the answer).
  await page.reload();
  await expect(chat.lastAssistant().getByTestId("toolset-line")).toBeVisible();
});
