/**
 * The console offers each role what it may do (issue 24, 1; app/permissions.ts), one demo
 * user per role of the e2e dataset: viewer@NORTH, backoffice@NORTH, north@NORTH (planner),
 * admin@ROOT. A control outside the user's rights is disabled with the reason (on hover and
 * on focus, and as its description) or not shown; the navigation leaves out what a role
 * cannot use; the user menu lists the roles. Every test listens to the responses: nothing
 * offered ends in a 403.
 */
import type { Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  networkSettled,
  screenshot,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const RUN = Date.now().toString(36).toUpperCase();
const CUSTOMER_REASON = 'Your role cannot edit customers, sites or assets';

/** Every 403 the page receives, from sign-in on. */
function forbiddenOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 403) seen.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return seen;
}

async function settle(page: Page) {
  await networkSettled(page);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** Opens `path` in the signed-in console (a full load signs in again, silently). */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForURL((u) => `${u.pathname}${u.search}` === path);
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await settle(page);
}

/** The user menu lists exactly these roles (as shown in English). */
async function expectRoles(page: Page, roles: string[], shot?: string) {
  await page.getByTestId('account-menu').click();
  const shown = page.getByTestId('user-roles');
  await expect(shown).toBeVisible();
  await expect(shown.locator('[data-role]')).toHaveText(roles);
  if (shot) {
    await screenshot(page, shot);
    await expectAccessible(page, `${shot} (menu open)`);
  }
  await page.keyboard.press('Escape');
  await expect(shown).toBeHidden();
}

/** The palette, opened without a query, lists the pages of the navigation the role may use. */
async function expectPalettePages(page: Page, { shown, hidden }: { shown: string; hidden: string[] }) {
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Search records' });
  await expect(palette.getByText(shown, { exact: true })).toBeVisible();
  for (const name of hidden) await expect(palette.getByText(name, { exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
}

const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link');

/** A control refused by the user's role: disabled yet focusable, the reason as its description and tooltip. */
async function expectRefused(page: Page, testId: string, reason: string) {
  const control = page.getByTestId(testId);
  await expect(control).toHaveAttribute('aria-disabled', 'true');
  await expect(control).toHaveAccessibleDescription(reason);
  await control.focus();
  await expect(control).toBeFocused();
  await expect(page.getByRole('tooltip', { name: reason })).toBeVisible();
  // Clicked anyway: nothing happens (no page, no call).
  const url = page.url();
  await control.click({ force: true });
  expect(page.url()).toBe(url);
  await page.keyboard.press('Tab');
}

test('a viewer is offered no write: disabled with the reason, no Webhooks nor Planner in the menu', async ({
  page,
}) => {
  const forbidden = forbiddenOf(page);
  await signIn(page, USERS.viewer.login, USERS.viewer.password, '/referentials/customers/ACME');
  await settle(page);
  await expect(page.getByTestId('record-code')).toHaveText('ACME');

  await expectRefused(page, 'edit', CUSTOMER_REASON);
  await expectRefused(page, 'add-attached', CUSTOMER_REASON);
  // Hovered: the same reason.
  await page.getByTestId('edit').hover();
  await expect(page.getByRole('tooltip', { name: CUSTOMER_REASON })).toBeVisible();
  await screenshot(page, 'roles-viewer-customer');
  await expectAccessible(page, 'viewer customer page, a disabled control and its tooltip');

  await expect(navLinks(page).filter({ hasText: 'Customers' })).toHaveCount(1);
  await expect(navLinks(page).filter({ hasText: 'Subscriptions' })).toHaveCount(0);
  await expect(navLinks(page).filter({ hasText: 'Planner' })).toHaveCount(0);
  await expectRoles(page, ['Viewer']);

  // The list's "New" and a form's address typed by hand.
  await open(page, '/referentials/customers');
  await expect(page.getByTestId('new-record').first()).toHaveAttribute('aria-disabled', 'true');
  await open(page, '/referentials/customers/ACME/edit');
  await expect(page.getByTestId('permission-denied')).toHaveText(CUSTOMER_REASON);
  await expect(page.getByTestId('save')).toHaveCount(0);

  // The catalog: no new item nor skill; the webhooks by their address: the reason, no form.
  await open(page, '/catalog/items');
  await expect(page.getByTestId('new-item')).toHaveAccessibleDescription(
    "Your role cannot edit the catalog's items",
  );
  await open(page, '/staff/skills');
  await expect(page.getByTestId('new-skill')).toHaveAccessibleDescription('Your role cannot edit skills');
  await open(page, '/webhooks/new');
  await expect(page.getByTestId('permission-denied')).toHaveText(
    'Only an administrator can manage webhook subscriptions',
  );

  // A work order: no Validate nor Delete; its planning tab shows, and says why it cannot schedule.
  await open(page, '/workorders/WO-E2E-1?tab=planning');
  await expect(page.getByTestId('wo-validate')).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId('wo-delete')).toHaveAccessibleDescription(
    'Your role cannot validate or delete work orders',
  );
  const panel = page.getByTestId('workorder-planning');
  await expect(panel.getByTestId('permission-denied').first()).toHaveText(
    'Your role cannot schedule work orders',
  );
  await expect(panel.getByTestId('schedule-submit')).toHaveCount(0);
  await expect(panel.getByTestId('note-save')).toHaveCount(0);
  await expect(panel.getByTestId('flags-save')).toHaveCount(0);

  // A project: frozen for this role, with the reason.
  await open(page, '/projects/PRJ-E2E');
  await expect(page.getByTestId('permission-denied')).toHaveText(
    'Your role cannot link work orders into projects or service orders',
  );
  await expect(page.getByText('The order is frozen')).toBeVisible();

  // The palette offers the pages of the role only.
  await expectPalettePages(page, { shown: 'Customers', hidden: ['Subscriptions', 'Planner'] });

  expect(forbidden).toEqual([]);
});

test('back office edits a customer, but cannot schedule', async ({ page }) => {
  const forbidden = forbiddenOf(page);
  await signIn(page, USERS.backoffice.login, USERS.backoffice.password, '/referentials/customers');
  await settle(page);
  await expectRoles(page, ['Back office']);
  await expect(navLinks(page).filter({ hasText: 'Subscriptions' })).toHaveCount(0);
  await expect(navLinks(page).filter({ hasText: 'Planner' })).toHaveCount(0);

  // New customer, then its edit: both offered, both saved.
  const code = `E2EROLE${RUN}`;
  await page.getByTestId('new-record').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'New customer' })).toBeVisible();
  await page.getByLabel(/^Code/).fill(code);
  await page.getByLabel(/^Name/).fill('Made by back office');
  await page.getByLabel(/^City/).fill('Lille');
  await page.getByTestId('save').click();
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${code}$`));
  await expect(page.getByTestId('edit')).not.toHaveAttribute('aria-disabled', 'true');
  await page.getByTestId('edit').click();
  await page.getByLabel(/^Name/).fill('Edited by back office');
  await page.getByTestId('save').click();
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${code}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Edited by back office' })).toBeVisible();

  // A work order: the schedule is not offered, the reason is.
  await open(page, '/workorders/WO-E2E-ROLES?tab=planning');
  const panel = page.getByTestId('workorder-planning');
  await expect(panel.getByTestId('permission-denied').first()).toHaveText(
    'Your role cannot schedule work orders',
  );
  await expect(panel.getByTestId('schedule-submit')).toHaveCount(0);
  await expect(page.getByTestId('wo-validate')).toHaveAttribute('aria-disabled', 'true');
  // The planner by its address: it says why, and searches nothing.
  await open(page, '/rostering/planner');
  await expect(page.getByTestId('permission-denied')).toHaveText('Your role cannot search slots to schedule');
  await expect(page.getByTestId('search-slots')).toHaveAttribute('aria-disabled', 'true');

  expect(forbidden).toEqual([]);
});

test('a planner schedules, but cannot edit a customer', async ({ page }) => {
  const forbidden = forbiddenOf(page);
  await signIn(page, USERS.north.login, USERS.north.password, '/referentials/customers/ACME');
  await settle(page);
  await expectRefused(page, 'edit', CUSTOMER_REASON);
  await expectRoles(page, ['Planner']);
  await expect(navLinks(page).filter({ hasText: 'Planner' })).toHaveCount(1);
  await expect(navLinks(page).filter({ hasText: 'Subscriptions' })).toHaveCount(0);

  await open(page, '/workorders/WO-E2E-ROLES?tab=planning');
  const panel = page.getByTestId('workorder-planning');
  await expect(panel.getByTestId('permission-denied')).toHaveCount(0);
  await panel.getByTestId('schedule-resource').fill('TECH-N1');
  await panel.getByTestId('schedule-start').fill('2031-03-05T09:00');
  const answer = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/schedule'));
  await panel.getByTestId('schedule-submit').click();
  expect((await answer).status()).toBeLessThan(300);
  await expect(panel.getByTestId('schedule-done')).toBeVisible();

  // The project's linker is open to a planner: no reason shown, the drag hint instead.
  await open(page, '/projects/PRJ-E2E');
  await expect(page.getByTestId('permission-denied')).toHaveCount(0);
  await expect(page.getByText('Drag by the handle', { exact: false }).first()).toBeVisible();

  expect(forbidden).toEqual([]);
});

test('an admin sees the webhooks and may create a subscription', async ({ page }) => {
  const forbidden = forbiddenOf(page);
  await signIn(page, USERS.admin.login, USERS.admin.password, '/');
  await settle(page);
  await expectRoles(page, ['Administrator'], 'roles-user-menu-admin');
  await expectPalettePages(page, { shown: 'Subscriptions', hidden: [] });
  await navLinks(page).filter({ hasText: 'Subscriptions' }).click();
  await settle(page);
  const create = page.getByTestId('new-subscription').first();
  await expect(create).toBeVisible();
  await expect(create).not.toHaveAttribute('data-permission', 'denied');
  await open(page, '/referentials/customers/ACME');
  await expect(page.getByTestId('edit')).not.toHaveAttribute('aria-disabled', 'true');
  expect(forbidden).toEqual([]);
});

test('the user menu of a viewer, in French', async ({ page }) => {
  await signIn(page, USERS.viewer.login, USERS.viewer.password, '/');
  await settle(page);
  await page.getByRole('button', { name: /^Language/ }).click();
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await page.getByTestId('account-menu').click();
  await expect(page.getByTestId('user-roles').locator('[data-role]')).toHaveText(['Lecteur']);
  await screenshot(page, 'roles-user-menu-viewer-fr');
});
