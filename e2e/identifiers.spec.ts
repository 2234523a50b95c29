/**
 * Identifiers are never cut (issue 27, 5): the technicians list's codes and the crews
 * timeline's crew and member codes are as wide as their longest value, at 1280x800. The e2e
 * dataset holds long ones in SOUTH (TECH-SOUTH-APPRENTICE-000001, CREW-SOUTH-NIGHT-SHIFT-LYON-01),
 * seen by admin@ROOT. A cell cut by its column has a scrollWidth over its clientWidth.
 */
import type { Locator, Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  expectTextWhole,
  networkSettled,
  screenshot,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';

const ADMIN = USERS.admin;
const LONG_TECH = 'TECH-SOUTH-APPRENTICE-000001';
const LONG_CREW = 'CREW-SOUTH-NIGHT-SHIFT-LYON-01';

/** The texts of the elements cut by their box (scrollWidth over clientWidth). */
function cutTexts(elements: Locator) {
  return elements.evaluateAll((nodes) =>
    nodes.filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.textContent ?? ''),
  );
}

async function settle(page: Page) {
  await networkSettled(page);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

test('technicians list: every code whole, the longest too', async ({ page }) => {
  await signIn(page, ADMIN.login, ADMIN.password, '/technicians?q=TECH-S');
  const row = page.getByTestId('list-row').filter({ hasText: LONG_TECH });
  await expect(row).toBeVisible();
  await settle(page);
  const codes = page.getByTestId('list-row').locator('td:first-child');
  expect(await cutTexts(codes)).toEqual([]);
  await expectTextWhole(codes.locator('a'));
  await expect(row.getByRole('link', { name: LONG_TECH })).toBeVisible();
  await screenshot(page, 'identifiers-technicians');
  await expectAccessible(page, 'technicians list');
});

test('crews timeline: crew and member codes whole', async ({ page }) => {
  await signIn(page, ADMIN.login, ADMIN.password, '/rostering/crews?from=2030-01-14&to=2030-01-27');
  const crew = page.getByTestId('crew-row').filter({ hasText: LONG_CREW });
  await expect(crew).toBeVisible();
  await expect(page.getByTestId('crew-member-row').filter({ hasText: LONG_TECH })).toBeVisible();
  await settle(page);
  const labels = page.locator('.pl-label');
  expect(await cutTexts(labels)).toEqual([]);
  expect(await cutTexts(labels.locator('p, a'))).toEqual([]);
  await expectTextWhole(page.getByTestId('crew-member-link'));
  await screenshot(page, 'identifiers-crews');
  await expectAccessible(page, 'crews, long codes');
});
