/**
 * The console in its interactive states (issue 27, 3 and 8): axe on the open palette (its
 * dialog named), on a grid's column menu opened by a mouse click on its header (its items as
 * a menu's children), nothing drawn over a right-aligned header.
 */
import { BULK_WORK_ORDER } from './support/bulk.mjs';
import { expect, expectAccessible, screenshot, signIn, test, USERS } from './support/fixtures.ts';

test('the palette is a named dialog', async ({ page }) => {
  await signIn(page, USERS.admin.login, USERS.admin.password);
  await page.keyboard.press('Control+k');
  await page.getByRole('textbox', { name: 'Search records' }).fill('ACME');
  await expect(page.getByTestId('palette-hit').first()).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Search records' })).toBeVisible();
  await expectAccessible(page, 'palette open', ['aria-dialog-name']);
});

test("a grid's column menu opens on a mouse click, is a valid menu, and leaves its header readable", async ({
  page,
}) => {
  await signIn(page, USERS.north.login, USERS.north.password, `/workorders/${BULK_WORK_ORDER}?tab=items`);
  const grid = page.getByTestId('items-grid');
  await expect(page.getByTestId('items-row').first()).toBeVisible();
  const header = grid.locator('th[data-column="amount"]');
  const button = header.getByRole('button', { name: 'Column Amount' });
  await header.hover();
  // Nothing is drawn over the right-aligned label: what the pointer finds at the label's
  // text is the label itself.
  const covered = await header.locator('.wo-th-label').evaluate((el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    return [...r.getClientRects()].some((b) => {
      const at = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      return !(at && el.contains(at));
    });
  });
  expect(covered).toBe(false);
  // A real click (press and release on the label) opens the menu.
  await button.click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Move left' })).toBeVisible();
  await expectAccessible(page, 'column menu open');
  await screenshot(page, 'a11y-column-menu');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
});
