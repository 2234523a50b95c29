/**
 * A work order's grids take the window (issue 27, 4): scrolled, the grid brings itself under
 * the shell's header and shows at least 15 rows at 1280x800 (and more at 1440x900), where the
 * record's header, tabs, filters and totals left it 7.
 */
import type { Page } from '@playwright/test';
import { BULK_WORK_ORDER } from './support/bulk.mjs';
import { expect, signIn, test, USERS } from './support/fixtures.ts';

/** Rows of the grid wholly inside the window (not under the shell's header). */
async function rowsInView(page: Page, grid: string) {
  return page.getByTestId(`${grid}-row`).evaluateAll((rows) => {
    const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    const thead = rows[0]?.closest('table')?.querySelector('thead')?.getBoundingClientRect().bottom ?? 0;
    const top = Math.max(header, thead);
    return rows.filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= top - 1 && b.bottom <= window.innerHeight + 1;
    }).length;
  });
}

for (const [width, height, least] of [
  [1280, 800, 15],
  [1440, 900, 18],
] as const) {
  test(`the activities grid shows ${least}+ rows at ${width}x${height} once scrolled`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await signIn(page, USERS.north.login, USERS.north.password, `/workorders/${BULK_WORK_ORDER}`);
    const scroller = page.getByTestId('activities-scroll');
    await expect(page.getByTestId('activities-row').first()).toBeVisible();
    // Three rows down, with the wheel over the grid.
    await scroller.hover();
    await page.mouse.wheel(0, 100);
    await expect.poll(() => rowsInView(page, 'activities')).toBeGreaterThanOrEqual(least);
    // The grid's header stays in view, under the shell's header.
    const thead = await page.getByTestId('activities-grid').locator('thead').boundingBox();
    expect(thead?.y ?? 0).toBeGreaterThanOrEqual(60);
    // What the reader sees (the window, scrolled), not the page from its top.
    const body = await page.screenshot({ path: `e2e/artifacts/grid-rows-${width}x${height}.png` });
    await test.info().attach(`grid-rows-${width}x${height}`, { body, contentType: 'image/png' });
  });
}
