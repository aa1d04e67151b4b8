/**
 * The inspector's generated forms look like forms at desktop and phone width: every input has a
 * visible border and background that differ from the page, a label naming it, a required mark,
 * and its error inline after a failed submit; selects and checkboxes use the app's primitives. A
 * screenshot of the form is compared against the committed baseline.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import { AuthPages, newAccount } from "./pages/app";
import { InspectorPage } from "./pages/inspector";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];

/** The control's border and background against the page's background, as the browser computed them. */
async function look(control: Locator) {
  return control.evaluate((el) => {
    const style = getComputedStyle(el);
    const page = getComputedStyle(document.body).backgroundColor;
    return {
      borderWidth: Number.parseFloat(style.borderTopWidth),
      borderColor: style.borderTopColor,
      background: style.backgroundColor,
      page,
      width: el.getBoundingClientRect().width,
    };
  });
}

async function expectVisibleField(control: Locator) {
  const seen = await look(control);
  expect(seen.borderWidth, "the field has a border").toBeGreaterThanOrEqual(1);
  expect(seen.borderColor === seen.page && seen.background === seen.page, `field invisible on the page: ${JSON.stringify(seen)}`).toBe(
    false,
  );
  expect(seen.borderColor).not.toBe("rgba(0, 0, 0, 0)");
}

async function openTool(page: Page, tool: string) {
  await page.getByTestId(`tool-${tool}`).click();
  await expect(page.locator("form.rjsf")).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test(`${viewport.name}: the inspector's generated form has visible, labelled fields with inline errors`, async ({ page, everything }) => {
    await page.setViewportSize(viewport);
    await new AuthPages(page).register(newAccount(`forms-${viewport.name}`));
    const created = await page.request.post("/api/servers", { data: { name: "everything", config: { url: everything.url } } });
    expect(created.status()).toBe(201);
    const inspector = new InspectorPage(page);
    await inspector.openFromServers("everything");
    await expect(inspector.state()).toHaveText("connected", { timeout: 30_000 });

    await openTool(page, "get-sum");
    const form = page.locator("form.rjsf");
    for (const name of ["a", "b"]) {
      const input = form.locator(`#root_${name}`);
      await expect(input).toBeVisible();
      // The label names the input (the "*" is for the eye only; the input itself is required).
      await expect(input).toHaveAccessibleName(name);
      await expect(input).toHaveAttribute("required", "");
      await expectVisibleField(input);
    }
    await expect(form.getByTestId("required-mark")).toHaveCount(2);
    await expect(form.getByText("First number")).toBeVisible();
    const width = (await look(form.locator("#root_a"))).width;
    expect(width, "the field spans the form, not a sliver").toBeGreaterThan(viewport.width < 768 ? 200 : 300);

    // No hover or focus state in the picture: the pointer off the form, nothing focused.
    await page.mouse.move(0, 0);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await expect(form).toHaveScreenshot(`get-sum-form-${viewport.name}.png`, {
      animations: "disabled",
      caret: "hide",
      maxDiffPixelRatio: 0.01,
    });

    // Submitting without a value shows the error under the field, tied to it.
    await form.locator("#root_a").fill("2");
    await page.getByTestId("call-tool").click();
    const error = form.getByTestId("field-error");
    await expect(error).toHaveCount(1);
    await expect(error).toContainText("required");
    await expect(form.locator("#root_b")).toHaveAttribute("aria-invalid", "true");
    await expect(form.locator("#root_b")).toHaveAttribute("aria-describedby", /root_b__error/);
    await expect(page.getByTestId("confirm-call")).toHaveCount(0);

    // An enum is the app's select, a boolean the app's checkbox, each labelled.
    await openTool(page, "get-annotated-message");
    const select = page.locator("form.rjsf select");
    await expect(select).toHaveAttribute("data-slot", "native-select");
    await expect(select).toHaveAccessibleName(/messageType/);
    await expectVisibleField(select);
    const checkbox = page.locator("form.rjsf").getByRole("checkbox");
    await expect(checkbox).toHaveAttribute("data-slot", "checkbox");
    await expect(checkbox).toHaveAccessibleName(/includeImage/);
    await checkbox.check();
    await expect(checkbox).toBeChecked();
  });
}
