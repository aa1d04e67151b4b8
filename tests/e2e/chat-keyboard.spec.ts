/**
 * Keyboard-only journeys: the `/` menu is a combobox (arrows, Enter; Tab picks and never sends the
 * text), a prompt is previewed and edited before sending, and a server's elicitation dialog traps
 * focus, is answered with the keyboard or dismissed with Escape, and hands focus back to the composer.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { expectNoSeriousA11yViolations } from "./pages/a11y";
import { LLM_BASE, userWithEverything } from "./pages/chat";

async function focusIsInDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'));
}

test("pick a prompt with arrows and Enter, edit its preview, send it; Tab never sends the slash text", async ({ page, everything }) => {
  const { chat } = await userWithEverything(page, everything.url, "kbd-prompt");
  await chat.open();
  await chat.newChat();
  const input = chat.input();
  await input.focus();

  // Tab on a highlighted prompt picks it: the text "/args" is never sent to the model.
  await page.keyboard.type("/args");
  await expect(page.getByTestId("prompt-option").first()).toBeVisible({ timeout: 30_000 });
  await expect(input).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("prompt-form")).toBeVisible();
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("prompt-form")).toBeHidden();
  await expect(input).toBeFocused();
  await expect(input).toHaveValue("");

  // Arrows move the highlight (announced through aria-activedescendant), Enter picks.
  await page.keyboard.type("/");
  const options = page.getByTestId("prompt-option");
  await expect(options.first()).toBeVisible();
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await expectNoSeriousA11yViolations(page, "prompt menu");
  const names = await options.allTextContents();
  const target = names.findIndex((n) => n.startsWith("everything: args-prompt"));
  expect(target).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < target; i++) await page.keyboard.press("ArrowDown");
  await expect(options.nth(target)).toHaveAttribute("aria-selected", "true");
  const activeId = await options.nth(target).getAttribute("id");
  await expect(input).toHaveAttribute("aria-activedescendant", activeId!);
  await page.keyboard.press("Enter");

  const form = page.getByTestId("prompt-form");
  await expect(form.getByLabel("city")).toBeFocused();
  await page.keyboard.type("Lisbon");
  await page.keyboard.press("Enter"); // Preview
  const message = form.getByTestId("prompt-preview-message").first();
  await expect(message).toBeFocused();
  await expect(message).toHaveValue(/Lisbon/);
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type(" (edited in the preview)");
  await page.keyboard.press("Tab");
  await expect(form.getByTestId("prompt-run-button")).toBeFocused();
  await page.keyboard.press("Enter");

  const run = page.getByTestId("message-user").last().getByTestId("prompt-run");
  await expect(run).toContainText("edited before sending", { timeout: 45_000 });
  await expect(run).toContainText("(edited in the preview)");
  await chat.waitIdle();
  const requests = (await (await page.request.get(`${LLM_BASE}/requests`)).json()) as { body: { messages: unknown[] } }[];
  expect(JSON.stringify(requests.at(-1)!.body.messages)).toContain("(edited in the preview)");
});

test("an elicitation dialog is answered with the keyboard, another dismissed with Escape; focus returns to the composer", async ({
  page,
  everything,
}) => {
  const { chat } = await userWithEverything(page, everything.url, "kbd-elicit");
  await chat.open();
  await chat.newChat();
  const { servers } = await (await page.request.get("/api/servers")).json();
  const trigger = () =>
    page.request.post(`/api/servers/${servers[0].id}/tools/call`, {
      data: { name: "trigger-elicitation-request", arguments: {} },
      timeout: 60_000,
    });
  await chat.input().focus();

  const first = trigger();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("everything asks", { timeout: 15_000 });
  await expect.poll(() => focusIsInDialog(page)).toBe(true);
  await expectNoSeriousA11yViolations(page, "elicitation dialog");
  // Tab cycles inside the dialog: the page behind it is out of reach.
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press("Tab");
    expect(await focusIsInDialog(page)).toBe(true);
  }
  await dialog.locator('input[name="name"]').focus();
  await page.keyboard.type("Ada Keyboard");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(chat.input()).toBeFocused();
  expect(JSON.stringify(await (await first).json())).toContain("Ada Keyboard");

  const second = trigger();
  await expect(dialog).toContainText("everything asks", { timeout: 15_000 });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(chat.input()).toBeFocused();
  expect(JSON.stringify(await (await second).json())).toMatch(/cancel/i);
});
