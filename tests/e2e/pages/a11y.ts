import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Run axe on the page as it is now and fail on any serious or critical violation (WCAG 2.x A/AA
 * rules plus axe's best practices), listing each with the elements it found. Any spec may call it
 * after the page settled.
 */
export async function expectNoSeriousA11yViolations(page: Page, label = page.url()) {
  // After a client-side navigation Next streams the page's metadata after its content: the title
  // arrives a moment after the heading does (axe once ran in between and reported no <title>).
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = serious.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`);
  expect(report, `axe on ${label}`).toEqual([]);
}

/** Whether the page scrolls sideways (the document is wider than the window). */
export async function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

/**
 * Fail unless the page stops scrolling sideways within a few seconds: content that resizes from a
 * ResizeObserver callback (the usage charts) lays out a frame or more after the viewport changes,
 * and on a loaded machine the first reading still saw the old width.
 */
export async function expectNoSidewaysScroll(page: Page, label: string) {
  await expect
    .poll(
      async () => {
        const { scrollWidth, innerWidth } = await horizontalOverflow(page);
        return scrollWidth - innerWidth;
      },
      { message: `${label}: no sideways scroll`, timeout: 10_000 },
    )
    .toBeLessThanOrEqual(0);
}
