/**
 * Runs that survive navigation and reload: a slow answer keeps going on the server while the user
 * looks at another page and the chat resumes it live without asking the model again; a reload
 * during a pending approval still lets the user approve and the turn completes.
 */
import { expect, test } from "./helpers/fixtures";
import { newAccount } from "./pages/app";
import { addHttpServerByApi, ChatPage, LLM_BASE, signUpByApi, userWithEverything } from "./pages/chat";

interface LoggedRequest {
  closedEarly?: boolean;
  body: { messages: unknown[] };
}

async function requestsMentioning(page: import("@playwright/test").Page, marker: string): Promise<LoggedRequest[]> {
  const all = (await (await page.request.get(`${LLM_BASE}/requests`)).json()) as LoggedRequest[];
  return all.filter((r) => JSON.stringify(r.body.messages).includes(marker));
}

test("leave a slow answer for Servers and come back: it continues to the end without a new model request", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "resume");
  await chat.open();
  const chatId = await chat.newChat();
  const marker = `resume-${Date.now()}`;
  await chat.send(`[[slow]] ${marker}`);
  await expect(chat.lastAssistant()).toContainText("word3", { timeout: 45_000 });

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Servers" }).click();
  await expect(page.getByRole("heading", { name: "MCP servers" })).toBeVisible();
  await page.waitForTimeout(2_000);
  await page.goto(`/chat/${chatId}`);
  // The replay shows what was produced meanwhile, then follows live to the end.
  await expect(chat.lastAssistant()).toContainText("word60", { timeout: 15_000 });
  await expect(chat.lastAssistant()).toContainText("word200", { timeout: 40_000 });
  await chat.waitIdle();

  const requests = await requestsMentioning(page, marker);
  expect(requests).toHaveLength(1);
  expect(requests[0].closedEarly).toBeFalsy();
  await page.reload();
  await expect(chat.lastAssistant()).toContainText("word200");
  await expect(chat.lastAssistant().getByTestId("message-stopped")).toHaveCount(0);
});

test("reload during a pending approval, then approve: the turn completes", async ({ page, everything }) => {
  // An untrusted server (the default): every tool call asks first.
  await signUpByApi(page, newAccount("resume-approval"));
  await addHttpServerByApi(page, "everything", everything.url);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newChat();
  await chat.send('[[call:echo {"message":"after the reload"}]]');
  const card = chat.toolCards().first();
  await expect(card).toHaveAttribute("data-state", "waiting for approval", { timeout: 45_000 });
  await chat.waitIdle();

  await page.reload();
  const again = chat.toolCards().first();
  await expect(again).toHaveAttribute("data-state", "waiting for approval");
  // Waiting for approval opens the card by itself.
  await expect(again.getByTestId("tool-approve")).toBeVisible();
  await again.getByTestId("tool-approve").click();
  await expect(again).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await expect(again.getByTestId("tool-result")).toContainText("Echo: after the reload");
  await expect(chat.lastAssistant()).toContainText("Tool results:", { timeout: 45_000 });
});

test("Stop from the chat stops the answer on the server and marks it stopped", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "resume-stop");
  await chat.open();
  await chat.newChat();
  const marker = `stop-${Date.now()}`;
  await chat.send(`[[slow]] ${marker}`);
  await expect(chat.lastAssistant()).toContainText("word3", { timeout: 45_000 });
  await page.getByTestId("chat-stop").click();
  await chat.waitIdle();
  await expect(chat.lastAssistant().getByTestId("message-stopped")).toBeVisible();
  await expect.poll(async () => (await requestsMentioning(page, marker)).at(-1)?.closedEarly, { timeout: 20_000 }).toBe(true);
  await page.reload();
  await expect(chat.lastAssistant().getByTestId("message-stopped")).toBeVisible();
  await expect(chat.lastAssistant()).not.toContainText("word200");
});

test("leave while an approved call runs and come back: the continued answer resumes and completes", async ({ page, everything }) => {
  await signUpByApi(page, newAccount("resume-continue"));
  await addHttpServerByApi(page, "everything", everything.url);
  const chat = new ChatPage(page);
  await chat.open();
  const chatId = await chat.newChat();
  await chat.send('[[call:trigger-long-running-operation {"duration":6,"steps":6}]]');
  const card = chat.toolCards().first();
  await expect(card).toHaveAttribute("data-state", "waiting for approval", { timeout: 45_000 });
  await card.getByTestId("tool-approve").click();
  await expect(card.getByTestId("tool-progress")).toBeVisible({ timeout: 45_000 });

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Servers" }).click();
  await expect(page.getByRole("heading", { name: "MCP servers" })).toBeVisible();
  await page.goto(`/chat/${chatId}`);
  const again = chat.toolCards().first();
  await expect(again).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await expect(chat.lastAssistant()).toContainText("Tool results:", { timeout: 45_000 });
  await expect(page.getByTestId("chat-error")).toHaveCount(0);
  await expect(chat.toolCards()).toHaveCount(1);
});
