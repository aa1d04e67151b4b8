/**
 * More of the agent chat in the browser: live progress, structured content, prompt argument
 * completions, the server status strip, the user's own model settings (masked key, SSRF guard,
 * missing model), and renaming/deleting chats.
 */
import { expect, test } from "./helpers/fixtures";
import { newAccount } from "./pages/app";
import { ChatPage, LLM_BASE, SettingsPage, addHttpServerByApi, signUpByApi, userWithEverything } from "./pages/chat";

test.describe.configure({ timeout: 120_000 });

test("a long tool call shows live progress; structured content shows as data", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "progress");
  await chat.open();
  await chat.newChat();
  await chat.send('[[call:trigger-long-running-operation {"duration":4,"steps":4}]]');
  const card = chat.toolCards().first();
  await expect(card.getByTestId("tool-progress")).toBeVisible({ timeout: 45_000 });
  await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await expect(card.getByTestId("tool-progress")).toHaveCount(0);
  await chat.waitIdle();

  await chat.send('[[call:get-structured-content {"location":"Chicago"}]]');
  const second = chat.toolCards().nth(1);
  await expect(second).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await expect(second.getByTestId("tool-structured")).toContainText("temperature");
});

test("prompt arguments offer completion/complete suggestions", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "complete");
  await chat.open();
  await chat.newChat();
  await chat.input().fill("/completable");
  await page.getByTestId("prompt-option").filter({ hasText: "everything: completable-prompt" }).click();
  const form = page.getByTestId("prompt-form");
  await form.getByLabel("department").fill("Eng");
  await form.getByTestId("completion-option").filter({ hasText: "Engineering" }).click();
  await expect(form.getByLabel("department")).toHaveValue("Engineering");
  await form.getByLabel("name").focus();
  await form.getByTestId("completion-option").filter({ hasText: "Alice" }).click();
  await form.getByTestId("prompt-run-button").click(); // preview
  await expect(form.getByTestId("prompt-preview")).toBeVisible();
  await form.getByTestId("prompt-run-button").click(); // send
  await expect(chat.lastAssistant()).toContainText("promote Alice to the head of the Engineering team", { timeout: 45_000 });
});

test("the status strip shows connected and failed servers with the reason", async ({ page, everything }) => {
  await userWithEverything(page, everything.url, "status");
  await addHttpServerByApi(page, "broken", "http://127.0.0.1:9/mcp", false);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newChat();
  await expect(page.getByTestId("server-status-everything")).toHaveAttribute("data-state", "connected", { timeout: 30_000 });
  const broken = page.getByTestId("server-status-broken");
  await expect(broken).toHaveAttribute("data-state", "failed", { timeout: 60_000 });
  await expect(broken).toContainText("—");
});

test("a user's own model: key stored masked, used for requests; blocked and missing models are explained", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "model");
  const settings = new SettingsPage(page);
  await settings.open("Model");
  const form = page.getByTestId("model-settings");
  await form.getByLabel("Provider").selectOption("openai-compatible");
  await form.getByLabel("Model").fill("scripted-own");
  await form.getByLabel("Base URL").fill(`${LLM_BASE}/v1`);
  await form.getByLabel("API key").fill("sk-own-secret-key-9876");
  await form.getByRole("button", { name: "Save model settings" }).click();
  await expect(form.getByTestId("api-key-masked")).toContainText("sk-…9876");
  await expect(form.getByTestId("model-effective")).toContainText("openai-compatible / scripted-own (your choice)");
  const view = await (await page.request.get("/api/settings/model")).text();
  expect(view).not.toContain("sk-own-secret-key-9876");

  await chat.open();
  await chat.newChat();
  await chat.send("who am I talking to");
  await expect(chat.lastAssistant()).toContainText("You said: who am I talking to", { timeout: 45_000 });
  const requests = (await (await page.request.get(`${LLM_BASE}/requests`)).json()) as {
    authorization: string | null;
    body: { model: string };
  }[];
  const mine = requests.filter((r) => r.body.model === "scripted-own");
  expect(mine.at(-1)?.authorization).toBe("Bearer sk-own-secret-key-9876");

  // A base URL on a blocked address never gets a request (SSRF guard); the chat says why.
  await settings.open("Model");
  await form.getByLabel("Base URL").fill("http://169.254.169.254/v1");
  await form.getByRole("button", { name: "Save model settings" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved.");
  await chat.open();
  await chat.newChat();
  await chat.send("try the metadata service");
  await expect(page.getByTestId("chat-error")).toBeVisible({ timeout: 45_000 });

  // OpenAI without any key: the chat says so and how to fix it.
  await settings.open("Model");
  await form.getByLabel("Provider").selectOption("openai");
  await form.getByLabel("Base URL").fill("");
  await form.getByRole("button", { name: "Remove stored key" }).click();
  await expect(form.getByTestId("model-effective")).toContainText("No API key for openai");
  await chat.open();
  await page.getByTestId("new-chat").click();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("model-missing")).toContainText("Settings");
  await expect(chat.input()).toBeDisabled();
});

test("rename and delete chats", async ({ page }) => {
  await signUpByApi(page, newAccount("chats"));
  const chat = new ChatPage(page);
  await chat.open();
  const id = await chat.newChat();
  await chat.send("first message names the chat");
  await expect(page.locator(`[data-chat-id="${id}"]`)).toContainText("first message names the chat", { timeout: 45_000 });
  await chat.waitIdle();
  const item = page.locator(`[data-chat-id="${id}"]`);
  await item.hover();
  await item.getByRole("button", { name: /^Rename/ }).click();
  await item.getByLabel("Chat title").fill("Renamed chat");
  await item.getByRole("button", { name: "Save" }).click();
  await expect(item).toContainText("Renamed chat");
  await expect(page.getByText("Renamed", { exact: true })).toBeVisible(); // the toast
  await item.hover();
  await item.getByRole("button", { name: /^Delete/ }).click();
  // Deleting asks first, in a dialog.
  await expect(page.getByRole("dialog")).toContainText("Delete this chat?");
  await page.getByTestId("confirm-delete-chat").click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.locator(`[data-chat-id="${id}"]`)).toHaveCount(0);
  expect((await page.request.get(`/api/chats/${id}`)).status()).toBe(404);
});
