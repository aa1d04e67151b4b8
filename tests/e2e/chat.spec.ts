/**
 * The agent chat in the browser: a scripted OpenAI-compatible model (tests/fixtures/llm) drives the
 * real provider path against a real server-everything over Streamable HTTP.
 */
import { expect, test } from "./helpers/fixtures";
import type { Page } from "@playwright/test";
import { newAccount } from "./pages/app";
import { LLM_BASE, SettingsPage, signUpByApi, userWithEverything } from "./pages/chat";

test.describe.configure({ timeout: 120_000 });

async function askForEcho(page: Page) {
  const settings = new SettingsPage(page);
  await settings.open("Workspace");
  // echo is annotated read-only and the helper marks server-everything trusted, so it defaults to "always": make it ask.
  await settings.setToolPolicy("everything", "echo", "ask");
}

test("approve a tool call with edited arguments; the result and answer stream in and survive reload", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "approve");
  await askForEcho(page);
  await chat.open();
  await chat.newChat();
  await chat.send('Please echo [[call:echo {"message":"hello browser"}]]');

  const card = chat.toolCards().first();
  await expect(card).toHaveAttribute("data-state", "waiting for approval", { timeout: 45_000 });
  await expect(card.getByTestId("tool-card-name")).toHaveText("Echo Tool"); // the tool's title
  await card.getByTestId("tool-args-mode").click(); // the raw-JSON view of the arguments form
  const editor = card.getByTestId("tool-args-editor");
  await expect(editor).toHaveValue(/hello browser/);
  await editor.fill('{"message":"edited in browser"}');
  await card.getByTestId("tool-approve").click();

  await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await expect(card.getByTestId("tool-result")).toContainText("Echo: edited in browser");
  await expect(card.getByTestId("tool-duration")).toContainText("ms");
  await expect(card.getByTestId("tool-args")).toContainText("edited in browser");
  await expect(chat.lastAssistant().getByTestId("assistant-text")).toContainText('"result":"Echo: edited in browser"}');
  await chat.waitIdle();

  await page.reload();
  const reloaded = chat.toolCards().first();
  await expect(reloaded).toHaveAttribute("data-state", "done");
  await expect(reloaded.getByTestId("tool-result")).toContainText("Echo: edited in browser");
  await expect(reloaded.getByTestId("tool-args")).toContainText("edited in browser");
  await expect(chat.lastAssistant()).toContainText("Tool results:");
  await expect(page.getByTestId("chat-title")).toContainText("Please echo");
});

test("deny a tool call: the model is told the user denied it", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "deny");
  await askForEcho(page);
  await chat.open();
  await chat.newChat();
  await chat.send('[[call:echo {"message":"nope"}]]');
  const card = chat.toolCards().first();
  await expect(card).toHaveAttribute("data-state", "waiting for approval", { timeout: 45_000 });
  await card.getByTestId("tool-deny").click();
  await expect(card).toHaveAttribute("data-state", "denied", { timeout: 45_000 });
  await expect(card.getByTestId("tool-denied")).toContainText("denied by the user");
  await expect(chat.lastAssistant().getByTestId("assistant-text")).toContainText("denied by the user");
});

test("a pending approval survives reload; moving on without answering denies it", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "pending");
  await askForEcho(page);
  await chat.open();
  await chat.newChat();
  await chat.send('[[call:echo {"message":"after reload"}]]');
  await expect(chat.toolCards().first()).toHaveAttribute("data-state", "waiting for approval", { timeout: 45_000 });
  await page.reload();
  const card = chat.toolCards().first();
  await expect(card).toHaveAttribute("data-state", "waiting for approval");
  await card.getByTestId("tool-approve").click();
  await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await expect(chat.lastAssistant()).toContainText("Echo: after reload");
  await chat.waitIdle();

  await chat.send('[[call:echo {"message":"ignored"}]]');
  await expect(chat.toolCards().nth(1)).toHaveAttribute("data-state", "waiting for approval", { timeout: 45_000 });
  await chat.send("never mind");
  // No longer waiting: "not approved" in the page's own copy of the message, or already "denied" once
  // the page has the stored copy (the server saves the skipped approval before the new turn starts).
  await expect(chat.toolCards().nth(1)).toHaveAttribute("data-state", /^(not approved|denied)$/);
  await expect(chat.lastAssistant()).toContainText("You said: never mind", { timeout: 45_000 });
  await chat.waitIdle();
  await page.reload();
  await expect(chat.toolCards().nth(1)).toHaveAttribute("data-state", "denied");
});

test("an image result renders as an image; markdown is rendered safely", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "image");
  await chat.open();
  await chat.newChat();
  await chat.send("[[call:get-tiny-image]]");
  const card = chat.toolCards().first();
  await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  const image = card.getByTestId("tool-image");
  await card.locator("summary").click(); // cards start collapsed to one line
  await expect(image).toBeVisible();
  expect(await image.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
  await chat.waitIdle();

  await chat.send("[[markdown]]");
  const answer = chat.lastAssistant();
  await expect(answer.locator("pre code")).toContainText("const answer = 42;");
  await expect(answer.locator("table")).toBeVisible();
  await expect(answer.getByRole("link", { name: "safe link" })).toHaveAttribute("href", "https://example.com/docs");
  await expect(answer.getByTestId("unsafe-link")).toHaveText("bad link");
  await expect(answer.locator("a[href^='javascript']")).toHaveCount(0);
  await expect(answer.locator("b")).toHaveCount(0);
});

test("attach a resource: its content reaches the model and a chip shows on the message", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "resource");
  await chat.open();
  await chat.newChat();
  await page.getByTestId("open-resource-picker").click();
  const picker = page.getByTestId("resource-picker");
  const first = picker.getByTestId("attach-resource").first();
  await expect(first).toBeVisible({ timeout: 30_000 });
  const uri = (await first.getAttribute("data-uri"))!;
  await first.click();
  await expect(page.getByTestId("pending-attachment")).toHaveCount(1);
  // A resource template: its variable is filled in a small form.
  await picker.getByLabel("Dynamic Text Resource resourceId").fill("3");
  await picker.getByTestId("template-form").first().getByRole("button", { name: "Attach" }).click();
  await expect(page.getByTestId("pending-attachment")).toHaveCount(2);
  await chat.send("what is in them?");
  await expect(page.getByTestId("message-user").last().getByTestId("resource-chip")).toHaveCount(2);
  await expect(chat.lastAssistant()).toContainText(`Attached resource ${uri}`, { timeout: 45_000 });
  await expect(chat.lastAssistant()).toContainText("Attached resource demo://resource/dynamic/text/3");
  await chat.waitIdle();
  await page.reload();
  await expect(page.getByTestId("message-user").last().getByTestId("resource-chip")).toHaveCount(2);
});

test("run a prompt through /: its messages go into the chat", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "prompt");
  await chat.open();
  await chat.newChat();
  await chat.input().fill("/args");
  const option = page.getByTestId("prompt-option").filter({ hasText: "everything: args-prompt" });
  await expect(option).toBeVisible({ timeout: 30_000 });
  await option.click();
  const form = page.getByTestId("prompt-form");
  await form.getByLabel("city").fill("Lisbon");
  await form.getByTestId("prompt-run-button").click(); // preview
  await expect(form.getByTestId("prompt-preview")).toBeVisible();
  await form.getByTestId("prompt-run-button").click(); // send
  await expect(page.getByTestId("message-user").last().getByTestId("prompt-run")).toContainText("args-prompt");
  await expect(chat.lastAssistant()).toContainText("Lisbon", { timeout: 45_000 });
});

test("stop mid-stream keeps what was produced", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "stop");
  await chat.open();
  await chat.newChat();
  await chat.send("[[slow]]");
  await expect(chat.lastAssistant()).toContainText("word3", { timeout: 45_000 });
  await page.getByTestId("chat-stop").click();
  await chat.waitIdle();
  const text = await chat.lastAssistant().innerText();
  expect(text).not.toContain("word200");
  // Stop reached the server: the model request was cancelled, not left running.
  await expect
    .poll(
      async () => {
        const requests = (await (await page.request.get(`${LLM_BASE}/requests`)).json()) as {
          closedEarly: boolean;
          body: { messages: { content: unknown }[] };
        }[];
        return requests.filter((r) => JSON.stringify(r.body.messages).includes("[[slow]]")).at(-1)?.closedEarly;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  // Give the server a moment to persist the interrupted answer, then reload.
  await expect
    .poll(
      async () => {
        await page.reload();
        return chat.assistantMessages().count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  await expect(chat.lastAssistant()).toContainText("word1");
  await expect(chat.lastAssistant()).not.toContainText("word200");
});

test("another user cannot open the chat by URL or API", async ({ page, browser, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "owner");
  await chat.open();
  const chatId = await chat.newChat();
  await chat.send("private hello");
  await expect(chat.lastAssistant()).toContainText("You said: private hello", { timeout: 45_000 });

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signUpByApi(otherPage, newAccount("intruder"));
  const response = await otherPage.goto(`/chat/${chatId}`);
  expect(response?.status()).toBe(404);
  await expect(otherPage.getByText("private hello")).toHaveCount(0);
  expect((await otherPage.request.get(`/api/chats/${chatId}`)).status()).toBe(404);
  expect((await otherPage.request.patch(`/api/chats/${chatId}`, { data: { title: "mine" } })).status()).toBe(404);
  expect((await otherPage.request.delete(`/api/chats/${chatId}`)).status()).toBe(404);
  expect((await otherPage.request.post("/api/chat", { data: { chatId, message: { text: "hi" } } })).status()).toBe(404);
  await other.close();
});
