/**
 * Tool results that read like answers: cards collapsed to one line with a disclosure, an array of
 * records as a table (shown once), the server's claims as badges, resource links to the inspector,
 * images in a lightbox; and message actions (copy with a toast, retry, edit and resend, the model
 * named on each answer).
 */
import { expect, test } from "./helpers/fixtures";
import { startRecordsHttp } from "./helpers/everything-server";
import { expectNoSeriousA11yViolations } from "./pages/a11y";
import { newAccount } from "./pages/app";
import { addHttpServerByApi, ChatPage, LLM_BASE, signUpByApi, userWithEverything } from "./pages/chat";

test("an array of records renders as a table, once, in a collapsed card with the server's claims", async ({ page }) => {
  const records = await startRecordsHttp();
  try {
    await signUpByApi(page, newAccount("records"));
    const id = await addHttpServerByApi(page, "records", records.url);
    expect((await page.context().request.put(`/api/servers/${id}/trust`, { data: { trusted: true } })).ok()).toBe(true);
    const chat = new ChatPage(page);
    await chat.open();
    await chat.newChat();
    await chat.send("[[call:list_people]]");
    const card = chat.toolCards().first();
    await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });
    // Collapsed to one line: server, title, state, duration; the details hidden behind the disclosure.
    await expect(card.locator("summary")).toContainText("records");
    await expect(card.getByTestId("tool-card-name")).toHaveText("List people");
    await expect(card.getByTestId("tool-duration")).toBeVisible();
    await expect(card.getByTestId("tool-result")).toBeHidden();
    await card.locator("summary").click();
    const table = card.getByTestId("structured-table");
    await expect(table).toBeVisible();
    await expect(table.locator("thead th")).toHaveText(["name", "role", "since"]);
    await expect(table.locator("tbody tr")).toHaveCount(3);
    await expect(table.locator("tbody tr").nth(1)).toContainText("Grace");
    // The text block only repeated the structured content: it is not shown a second time.
    await expect(card.getByTestId("tool-text")).toHaveCount(0);
    await expect(card.getByTestId("tool-hint")).toHaveText(["read-only"]);
    const open = card.getByTestId("resource-link-open");
    await expect(open).toHaveAttribute("href", new RegExp(`/servers/${id}\\?tab=resources&uri=records%3A%2F%2Fpeople%2Fada$`));
    await card.getByTestId("resource-link-attach").click();
    await expect(page.getByTestId("pending-attachment")).toContainText("Ada's record");
    await expectNoSeriousA11yViolations(page, "tool card");
  } finally {
    await records.stop();
  }
});

test("an image result opens in a lightbox; the answer names its model; copy, retry and edit work", async ({
  page,
  everything,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { chat } = await userWithEverything(page, everything.url, "actions");
  await chat.open();
  await chat.newChat();
  await chat.send("[[call:get-tiny-image]]");
  const card = chat.toolCards().first();
  await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await chat.waitIdle();
  await card.locator("summary").click();
  await card.getByRole("button", { name: "Enlarge image" }).click();
  const lightbox = page.getByTestId("image-lightbox");
  await expect(lightbox.getByRole("img")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(lightbox).toBeHidden();

  await expect(chat.lastAssistant().getByTestId("message-model")).toHaveText("scripted");
  await chat.lastAssistant().getByTestId("message-copy").click();
  await expect(page.getByText("Copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("Tool results:");

  // Retry answers the same question again: one answer stays.
  const before = ((await (await page.request.get(`${LLM_BASE}/requests`)).json()) as unknown[]).length;
  await chat.lastAssistant().getByTestId("message-retry").click();
  // The model must have been asked again before "idle" means anything: right after the click, Send is
  // still on screen, and editing while the retry streams would race it.
  await expect
    .poll(async () => ((await (await page.request.get(`${LLM_BASE}/requests`)).json()) as unknown[]).length, { timeout: 45_000 })
    .toBeGreaterThan(before);
  await chat.waitIdle();
  await expect(chat.assistantMessages()).toHaveCount(1);
  await expect(chat.lastAssistant().getByTestId("message-retry")).toBeVisible();

  // Edit and resend replaces the last question and its answer.
  await page.getByTestId("message-edit").click();
  // The composer still has the focus from sending; Edit puts the question's text in it a render
  // later, so text typed before that would be overwritten and the old question sent again.
  await expect(page.getByTestId("editing-banner")).toBeVisible();
  await expect(chat.input()).toHaveValue("[[call:get-tiny-image]]");
  await expect(chat.input()).toBeFocused();
  await chat.input().fill("a different question");
  await expect(chat.input()).toHaveValue("a different question");
  // A server's status arriving while the person edits re-renders the chat: what they typed stays
  // (the edit used to put the old question back then, and Send sent the old one).
  const { servers } = (await (await page.request.get("/api/servers")).json()) as { servers: { id: string; name: string }[] };
  const everythingId = servers.find((s) => s.name === "everything")?.id;
  expect((await page.request.post(`/api/servers/${everythingId}/reconnect`)).ok()).toBe(true);
  // The reconnect's status events reach the page over its live event stream.
  await page.waitForTimeout(1_500);
  await expect(chat.input()).toHaveValue("a different question");
  await page.getByTestId("chat-send").click();
  await expect(chat.lastAssistant()).toContainText("You said: a different question", { timeout: 45_000 });
  await chat.waitIdle();
  await expect(page.getByTestId("message-user")).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId("message-user")).toHaveCount(1);
  await expect(page.getByTestId("message-user")).toHaveText("a different question");
});
