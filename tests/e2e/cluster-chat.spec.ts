/**
 * Chat turns and questions across two replicas (tests/e2e/helpers/cluster-fixtures.ts), the proxy
 * pinned to one replica or the other at each step: an approval answered on the other replica
 * finishes the turn; a page opened on the other replica resumes a running answer; Stop sent to the
 * other replica stops it; an elicitation raised on one replica is answered from a tab on the other;
 * `kill -9` of the replica running an answer shows it interrupted within 5 s and Retry succeeds on
 * the survivor; an approval pending before a kill still continues the turn. Postgres runs only.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/cluster-fixtures";
import type { Cluster } from "../helpers/cluster";
import { newAccount } from "./pages/app";
import { addHttpServerByApi, ChatPage, LLM_BASE, signUpByApi } from "./pages/chat";

test.describe.configure({ timeout: 120_000 });

/** Send everything to replica `name` from now on (null: round robin again). */
function pin(cluster: Cluster, name: string | null) {
  cluster.proxy.pin(name ? () => name : null);
}

/** A new user with server-everything, trusted or not; the chat page open on a new chat. */
async function userWithServer(
  page: Page,
  url: string,
  prefix: string,
  trusted: boolean,
): Promise<{ chat: ChatPage; chatId: string; serverId: string }> {
  await signUpByApi(page, newAccount(prefix));
  const serverId = await addHttpServerByApi(page, "everything", url);
  if (trusted) expect((await page.context().request.put(`/api/servers/${serverId}/trust`, { data: { trusted: true } })).ok()).toBe(true);
  const chat = new ChatPage(page);
  await chat.open();
  const chatId = await chat.newChat();
  return { chat, chatId, serverId };
}

async function closedEarly(page: Page, marker: string): Promise<boolean | undefined> {
  const all = (await (await page.request.get(`${LLM_BASE}/requests`)).json()) as { closedEarly?: boolean; body: { messages: unknown[] } }[];
  return all.filter((r) => JSON.stringify(r.body.messages).includes(marker)).at(-1)?.closedEarly;
}

test.afterEach(({ world }) => pin(world.cluster, null));

test("a turn waiting for an approval on one replica finishes when the approval reaches the other", async ({ page, world }) => {
  const { cluster } = world;
  pin(cluster, "a");
  const { chat } = await userWithServer(page, world.everything.url, "cluster-approve", false);
  await chat.send('[[call:echo {"message":"approved elsewhere"}]]');
  const card = chat.toolCards().first();
  await expect(card).toHaveAttribute("data-state", "waiting for approval", { timeout: 45_000 });
  await chat.waitIdle();
  pin(cluster, "b");
  const before = cluster.proxy.hits.get("b") ?? 0;
  await card.getByTestId("tool-approve").click();
  await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await expect(card.getByTestId("tool-result")).toContainText("Echo: approved elsewhere");
  await expect(chat.lastAssistant()).toContainText("Tool results:", { timeout: 45_000 });
  expect(cluster.proxy.hits.get("b") ?? 0).toBeGreaterThan(before);
});

test("leave a running answer on one replica and come back through the other: it resumes to the end", async ({ page, world }) => {
  const { cluster } = world;
  pin(cluster, "a");
  const { chat, chatId } = await userWithServer(page, world.everything.url, "cluster-resume", true);
  await chat.send(`[[slow]] cluster-resume-${Date.now()}`);
  await expect(chat.lastAssistant()).toContainText("word3", { timeout: 45_000 });
  pin(cluster, "b");
  await page.goto("/servers");
  await page.goto(`/chat/${chatId}`);
  await expect(chat.lastAssistant()).toContainText("word60", { timeout: 20_000 });
  await expect(chat.lastAssistant()).toContainText("word200", { timeout: 45_000 });
  await chat.waitIdle();
  await page.reload();
  await expect(chat.lastAssistant()).toContainText("word200");
});

test("Stop sent to the other replica stops the answer where it runs", async ({ page, world }) => {
  const { cluster } = world;
  pin(cluster, "a");
  const { chat } = await userWithServer(page, world.everything.url, "cluster-stop", true);
  const marker = `cluster-stop-${Date.now()}`;
  await chat.send(`[[slow]] ${marker}`);
  await expect(chat.lastAssistant()).toContainText("word3", { timeout: 45_000 });
  pin(cluster, "b");
  await page.getByTestId("chat-stop").click();
  await chat.waitIdle();
  await expect(chat.lastAssistant().getByTestId("message-stopped")).toBeVisible();
  await expect.poll(() => closedEarly(page, marker), { timeout: 20_000 }).toBe(true);
});

test("an elicitation raised on one replica is answered from a tab on the other", async ({ browser, page, world }) => {
  const { cluster } = world;
  pin(cluster, "a");
  const { serverId } = await userWithServer(page, world.everything.url, "cluster-elicit", true);
  const call = page.request.post(`/api/servers/${serverId}/tools/call`, {
    data: { name: "trigger-elicitation-request", arguments: {} },
    timeout: 60_000,
  });
  // The same person in a second tab, every request of which reaches the other replica.
  // Raised on A: listed there before the other tab opens.
  await expect
    .poll(async () => ((await (await page.request.get("/api/pending")).json()) as { elicitations: unknown[] }).elicitations.length, {
      timeout: 15_000,
    })
    .toBe(1);
  const other = await browser.newContext({ storageState: await page.context().storageState() });
  const tab = await other.newPage();
  pin(cluster, "b");
  await tab.goto("/servers");
  const dialog = tab.getByTestId("elicitation-dialog");
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await dialog.locator('input[name="name"]').fill("Grace Hopper");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog).toBeHidden();
  const result = JSON.stringify(await (await call).json());
  expect(result).toContain("Grace Hopper");
  await other.close();
});

test("kill -9 of the replica running an answer: shown interrupted within 5 s, Retry succeeds on the survivor", async ({ page, world }) => {
  const { cluster } = world;
  pin(cluster, "a");
  const { chat } = await userWithServer(page, world.everything.url, "cluster-crash", true);
  await chat.send(`[[slow]] cluster-crash-${Date.now()}`);
  await expect(chat.lastAssistant()).toContainText("word3", { timeout: 45_000 });
  pin(cluster, "b");
  const [a] = cluster.replicas;
  const killedAt = Date.now();
  await a.kill("SIGKILL");
  await expect(chat.lastAssistant().getByTestId("message-interrupted")).toBeVisible({ timeout: 5_000 });
  expect(Date.now() - killedAt).toBeLessThan(5_000);
  await expect(chat.lastAssistant()).toContainText("word3");
  await chat.lastAssistant().getByTestId("message-retry").click();
  await expect(chat.lastAssistant()).toContainText("word200", { timeout: 60_000 });
  await chat.waitIdle();
  await expect(chat.lastAssistant().getByTestId("message-interrupted")).toHaveCount(0);
  await a.restart();
  await cluster.proxy.check();
});

test("an approval pending before a replica is killed still continues the turn after it", async ({ page, world }) => {
  const { cluster } = world;
  pin(cluster, "b");
  const { chat } = await userWithServer(page, world.everything.url, "cluster-crash-approve", false);
  await chat.send('[[call:echo {"message":"after the crash"}]]');
  const card = chat.toolCards().first();
  await expect(card).toHaveAttribute("data-state", "waiting for approval", { timeout: 45_000 });
  await chat.waitIdle();
  const b = cluster.replicas[1];
  // Pinned to the survivor first: a request pinned to a dead replica gets the proxy's 502, which a
  // real load balancer would have sent to the next one (the page's refresh after the turn may still
  // be on its way, and Next answers its failure with a full navigation).
  pin(cluster, "a");
  await b.kill("SIGKILL");
  await card.getByTestId("tool-approve").click();
  await expect(card).toHaveAttribute("data-state", "done", { timeout: 45_000 });
  await expect(card.getByTestId("tool-result")).toContainText("Echo: after the crash");
  await b.restart();
  await cluster.proxy.check();
});
