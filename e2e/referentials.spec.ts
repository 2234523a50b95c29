/**
 * Referentials pages end to end, against a real service with the e2e dataset (offices
 * ROOT > NORTH, ROOT > SOUTH; users `admin`@ROOT and `north`@NORTH; the customer, site
 * and asset custom-field definitions of the demo: Note, Active, Tier...). Every page is
 * checked with axe (no serious or critical violation) and saved as a 1280x800 screenshot.
 *
 * The tests build on each other (one customer tree per run, codes suffixed with the run
 * id), so they run in order.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  networkSettled,
  signIn as signInAs,
  test,
  USERS,
} from './support/fixtures.ts';

const RUN = Date.now().toString(36).toUpperCase();
const code = (s: string) => `E2E${s}${RUN}`;
const PARENT = code('P');
const CHILD = code('C');
const SOUTH_CUSTOMER = code('S');
const SITE = code('ST');
const SITE2 = code('SU');
const ASSET = code('A');
const SUB = code('B');

// Each test signs in and walks several pages; the machine may be busy with other suites.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

/* ---------------- helpers ---------------- */

async function signIn(page: Page, who: keyof typeof USERS, path = '/referentials/customers') {
  await signInAs(page, USERS[who].login, USERS[who].password, path);
  await page.waitForURL((u) => `${u.pathname}${u.search}` === path);
  await networkSettled(page);
}

/**
 * A full page load: the console signs in again silently (tokens live in memory) and
 * then shows the page; wait for that before touching the form.
 */
async function open(page: Page, path: string) {
  await page.goto(path);
  // Through /oauth and /auth/callback, then back on the page asked for.
  await page.waitForURL((u) => `${u.pathname}${u.search}` === path);
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await networkSettled(page);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

async function newSession(browser: Browser, who: keyof typeof USERS, path?: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, who, path);
  return page;
}

/**
 * Once the page has settled: a screenshot of what a 1280x800 window shows, kept in
 * e2e/artifacts and attached to the report, then axe (no serious or critical violation).
 */
async function checkPage(page: Page, name: string) {
  await networkSettled(page);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const dir = join(process.cwd(), 'e2e/artifacts');
  mkdirSync(dir, { recursive: true });
  const body = await page.screenshot({ path: join(dir, `referentials-${name}.png`) });
  await test.info().attach(`referentials-${name}`, { body, contentType: 'image/png' });
  await expectAccessible(page, name);
}

/** An input by its label; a required field's label ends with the asterisk. */
const field = (scope: Page | Locator, label: string) =>
  scope
    .getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`))
    .and(scope.locator('input, textarea'));

/** A Mantine Select or Autocomplete: type, then pick the option. */
async function pick(page: Page, label: string, typed: string, option: string | RegExp) {
  const input = field(page, label);
  await input.click();
  if (typed) await input.fill(typed);
  await page.getByRole('option', { name: option }).first().click();
}

/** The parent/customer/site pickers accept a typed code. */
async function typeCode(page: Page, label: string, value: string) {
  const input = field(page, label);
  await input.fill(value);
  await input.press('Escape');
  await input.blur();
}

async function save(page: Page) {
  await page.getByTestId('save').click();
}

const notification = (page: Page, title: string | RegExp) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title });

/* ---------------- tests ---------------- */

test('create a customer with contact, address, office and custom fields', async ({ page }) => {
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  await checkPage(page, 'customers-list');

  await page.getByTestId('new-record').click();
  await expect(page.getByRole('heading', { level: 1, name: 'New customer' })).toBeVisible();
  await checkPage(page, 'customer-new');
  // The code's hint says what a code is made of, not "up to 10000 characters" (issue 27, 11).
  await expect(field(page, 'Code')).toHaveAccessibleDescription(/^Letters A to Z, digits.*capitals\./);
  await expect(page.getByText(/10000 characters/)).toHaveCount(0);

  // Required fields are checked before anything is sent.
  await save(page);
  await expect(page.getByText('Some fields need your attention.')).toBeVisible();

  await field(page, 'Code').fill(PARENT.toLowerCase());
  await field(page, 'Name').fill('Acme Parent');
  await page.locator('textarea[name="description"]').fill('Created by the e2e run');
  await field(page, 'City').fill('Lyon');
  await field(page, 'Zip code').fill('69001');
  await pick(page, 'Country', 'Fran', 'France (FR)');
  await field(page, 'Contact name').fill('Ann Smith');
  await page.getByRole('button', { name: 'Add a detail' }).click();
  const detail = page.getByTestId('contact-detail').first();
  await field(detail, 'Type').click();
  await page.getByRole('option', { name: 'Email' }).click();
  await field(detail, 'Value').fill('ann@example.com');
  // Custom fields of the instance: text, yes/no, list value.
  await field(page, 'Note').fill('Key account');
  await pick(page, 'Tier', '', 'GOLD');
  // A decimal in a Minutes field is refused on the field, not cut to 15 (issue 27, 11).
  await field(page, 'Visit minutes').fill('1.5');
  await save(page);
  await expect(field(page, 'Visit minutes')).toHaveValue(/^1\.5/);
  await expect(page.getByText('Enter a whole number')).toBeVisible();
  await expect(page).toHaveURL(/\/referentials\/customers\/new$/);
  await field(page, 'Visit minutes').fill('90');
  await save(page);

  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${PARENT}$`));
  await expect(notification(page, `Customer ${PARENT} created`)).toBeVisible();
  await expect(page.getByTestId('record-code')).toHaveText(PARENT);
  const custom = page.getByTestId('section-custom-fields');
  await expect(custom).toContainText('Key account');
  await expect(custom).toContainText('GOLD');
  await expect(page.getByTestId('section-address')).toContainText('France (FR)');
  await expect(page.getByTestId('section-contact')).toContainText('ann@example.com');
  await checkPage(page, 'customer-detail');
});

test('a sub-customer (parent preset by the link) and a customer of the SOUTH office', async ({ page }) => {
  await signIn(page, 'admin', `/referentials/customers/new?parent=${PARENT}`);
  await field(page, 'Code').fill(CHILD);
  await field(page, 'Name').fill('Acme Child');
  await field(page, 'City').fill('Lyon');
  await expect(field(page, 'Parent customer')).toHaveValue(PARENT);
  await save(page);
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${CHILD}$`));
  await expect(page.getByTestId('section-hierarchy')).toContainText(PARENT);

  await open(page, '/referentials/customers/new');
  await field(page, 'Code').fill(SOUTH_CUSTOMER);
  await field(page, 'Name').fill('South only');
  await field(page, 'City').fill('Marseille');
  await pick(page, 'Office', 'SOUTH', /^SOUTH/);
  await save(page);
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${SOUTH_CUSTOMER}$`));
  await expect(page.getByTestId('section-general')).toContainText('SOUTH');
});

test('hierarchy rules show inline: itself as parent, and a cycle refused by the service', async ({
  page,
}) => {
  await signIn(page, 'admin', `/referentials/customers/${PARENT}/edit`);
  await expect(page.getByRole('heading', { level: 1, name: `Edit customer ${PARENT}` })).toBeVisible();

  // Itself: refused on the field before sending.
  await typeCode(page, 'Parent customer', PARENT);
  await save(page);
  await expect(page.getByText('A record cannot be its own parent')).toBeVisible();

  // Its own child: the service answers referentials.customer.office.hierarchy.error, shown on the field.
  await typeCode(page, 'Parent customer', CHILD);
  await save(page);
  const picker = field(page, 'Parent customer');
  await expect(picker).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/below this customer|cycle/).first()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${PARENT}/edit$`));
  await expect(page.getByTestId('service-error')).toBeVisible();
  await checkPage(page, 'customer-edit-error');

  // A later save refused by the form's own check: the service's earlier refusal is gone (issue 27, 10).
  await typeCode(page, 'Parent customer', PARENT);
  await save(page);
  await expect(page.getByText('A record cannot be its own parent')).toBeVisible();
  await expect(page.getByTestId('service-error')).toHaveCount(0);
});

test('edit, see the change after reload, and Undo restores the previous version', async ({ page }) => {
  await signIn(page, 'admin', `/referentials/customers/${PARENT}/edit`);
  await field(page, 'Name').fill('Acme Renamed');
  await save(page);
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${PARENT}$`));
  await expect(notification(page, `Customer ${PARENT} saved`)).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Acme Renamed');

  await page.getByTestId('edit').click();
  await field(page, 'Name').fill('Acme Mistake');
  await field(page, 'City').fill('Paris');
  await save(page);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Acme Mistake');
  await notification(page, `Customer ${PARENT} saved`).getByRole('button', { name: 'Undo' }).click();
  await expect(notification(page, 'Change undone')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Acme Renamed');
  await expect(page.getByTestId('section-address')).toContainText('Lyon');
  // The custom fields came back too (the previous version is written whole).
  await expect(page.getByTestId('section-custom-fields')).toContainText('Key account');
});

test('a site with its geolocation', async ({ page }) => {
  await signIn(page, 'admin', `/referentials/customers/${PARENT}`);
  await page.getByRole('link', { name: 'Add a site' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New site' })).toBeVisible();
  await expect(field(page, 'Customer')).toHaveValue(PARENT);
  await field(page, 'Code').fill(SITE);
  await field(page, 'Name').fill('Lyon depot');
  await field(page, 'Street address').fill('1 quai Perrache');
  await field(page, 'City').fill('Lyon');
  // Half a pair is refused on the missing coordinate.
  await page.getByTestId('geo-lat').fill('45.7485');
  await save(page);
  await expect(page.getByTestId('geo-lng')).toHaveAttribute('aria-invalid', 'true');
  await page.getByTestId('geo-lng').fill('4.8467');
  // One control for coordinates (issue 27, 11): latitude, longitude and a pasted pair, the
  // numbers without spin buttons, as a GPS custom field reads.
  const geo = page.getByRole('group', { name: 'Geolocation' });
  await expect(geo.getByRole('textbox')).toHaveCount(3);
  await expect(geo.locator('.mantine-NumberInput-controls')).toHaveCount(0);
  await checkPage(page, 'site-new');
  await save(page);
  await expect(page).toHaveURL(new RegExp(`/referentials/sites/${SITE}$`));
  await expect(page.getByTestId('section-address')).toContainText('45.7485, 4.8467');
  await checkPage(page, 'site-detail');

  // A second site for the transfer test; paste "lat, lng" fills both coordinates.
  await open(page, `/referentials/sites/new?customer=${PARENT}`);
  await field(page, 'Code').fill(SITE2);
  await field(page, 'Name').fill('Second site');
  await field(page, 'Street address').fill('2 rue B');
  await field(page, 'City').fill('Lyon');
  await page.getByTestId('geo-paste').fill('45.76, 4.83');
  await page.getByTestId('geo-paste').press('Enter');
  await expect(page.getByTestId('geo-lat')).toHaveValue('45.76');
  await save(page);
  await expect(page).toHaveURL(new RegExp(`/referentials/sites/${SITE2}$`));

  await open(page, '/referentials/sites');
  await expect(page.getByRole('link', { name: SITE, exact: true })).toBeVisible();
  await checkPage(page, 'sites-list');
});

test('asset hierarchy: a sub-asset, and the transfer of an asset with sub-assets refused', async ({
  page,
}) => {
  await signIn(page, 'admin', `/referentials/sites/${SITE}`);
  await page.getByRole('link', { name: 'Add an asset' }).click();
  await expect(field(page, 'Site')).toHaveValue(SITE);
  await field(page, 'Code').fill(ASSET);
  await field(page, 'Name').fill('Chiller');
  await field(page, 'Serial number').fill('SN-001');
  await checkPage(page, 'asset-new');
  await save(page);
  await expect(page).toHaveURL(new RegExp(`/referentials/assets/${ASSET}$`));
  await expect(page.getByTestId('section-general')).toContainText('SN-001');

  await open(page, `/referentials/assets/new?site=${SITE}&parent=${ASSET}`);
  await field(page, 'Code').fill(SUB);
  await field(page, 'Name').fill('Compressor');
  await save(page);
  await expect(page).toHaveURL(new RegExp(`/referentials/assets/${SUB}$`));
  await expect(page.getByTestId('section-hierarchy')).toContainText(ASSET);

  await open(page, `/referentials/assets/${ASSET}`);
  await expect(page.getByTestId('section-hierarchy').getByRole('link', { name: SUB })).toBeVisible();
  await checkPage(page, 'asset-detail');

  await page.getByTestId('edit').click();
  await expect(
    page.getByText('This asset has 1 sub-asset, so its site and office cannot change.'),
  ).toBeVisible();
  await typeCode(page, 'Site', SITE2);
  await save(page);
  await expect(field(page, 'Site')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/cannot move to another site/).first()).toBeVisible();
  await checkPage(page, 'asset-transfer-refused');

  await open(page, '/referentials/assets');
  await expect(page.getByRole('link', { name: ASSET, exact: true }).first()).toBeVisible();
  await checkPage(page, 'assets-list');
});

test('a user of NORTH does not see a SOUTH customer, in the list or by its URL', async ({ browser }) => {
  const page = await newSession(browser, 'north');
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  // The dataset's ACME is in NORTH, GLOBEX in SOUTH.
  await expect(page.getByRole('link', { name: 'ACME', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'GLOBEX', exact: true })).toHaveCount(0);
  await checkPage(page, 'customers-list-north');
  await page.getByTestId('list-search').fill(SOUTH_CUSTOMER);
  await expect(page.getByText('No match')).toBeVisible();
  await expect(page.getByRole('link', { name: SOUTH_CUSTOMER })).toHaveCount(0);

  // The office picker offers NORTH only (the user's tree).
  await page.getByTestId('list-office').click();
  await expect(page.getByRole('option', { name: /^NORTH/ })).toBeVisible();
  await expect(page.getByRole('option', { name: /^SOUTH/ })).toHaveCount(0);
  await page.keyboard.press('Escape');

  for (const other of [SOUTH_CUSTOMER, 'GLOBEX']) {
    await open(page, `/referentials/customers/${other}`);
    await expect(page.getByText(`No customer with code ${other} in your offices.`)).toBeVisible();
  }
  await checkPage(page, 'customer-not-found');
  await page.context().close();
});

test('unsaved changes: in-app navigation asks, closing the tab asks', async ({ page }) => {
  await signIn(page, 'admin', `/referentials/customers/${PARENT}/edit`);
  await page.locator('textarea[name="description"]').fill('Not saved yet');

  // In-app navigation: the router's blocker opens the dialog.
  await page.getByRole('link', { name: 'Sites', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Stay on the page' }).click();
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${PARENT}/edit$`));
  await expect(page.locator('textarea[name="description"]')).toHaveValue('Not saved yet');

  // Closing the tab: the browser's beforeunload prompt.
  const prompt = new Promise<string>((resolve) => {
    page.once('dialog', async (d) => {
      resolve(d.type());
      await d.dismiss();
    });
  });
  await page.close({ runBeforeUnload: true });
  expect(await prompt).toBe('beforeunload');
});

test('unsaved changes: leaving on purpose drops the change', async ({ page }) => {
  await signIn(page, 'admin', `/referentials/customers/${PARENT}/edit`);
  await page.locator('textarea[name="description"]').fill('Dropped');
  await page.getByRole('link', { name: 'Sites', exact: true }).click();
  await page.getByRole('button', { name: 'Leave and lose changes' }).click();
  await expect(page).toHaveURL(/\/referentials\/sites$/);
  await open(page, `/referentials/customers/${PARENT}`);
  await expect(page.getByTestId('section-general')).not.toContainText('Dropped');
});

test('list: search and office filter live in the URL; keyboard reaches the rows', async ({ page }) => {
  await signIn(page, 'admin');
  await page.getByTestId('list-search').fill(RUN.toLowerCase());
  await expect(page).toHaveURL(new RegExp(`q=${RUN.toLowerCase()}`));
  await expect(page.getByTestId('list-row')).toHaveCount(3);
  await pick(page, 'Office', 'SOUTH', /^SOUTH/);
  await expect(page).toHaveURL(/office=SOUTH/);
  await expect(page.getByTestId('list-row')).toHaveCount(1);
  // The view is reproduced by its URL.
  await page.reload();
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await expect(page.getByTestId('list-search')).toHaveValue(RUN.toLowerCase());
  await expect(page.getByTestId('list-row')).toHaveCount(1);
  await checkPage(page, 'customers-list-filtered');

  // Keyboard: the row's link is reachable and opens the record.
  const link = page.getByTestId('list-row').getByRole('link', { name: SOUTH_CUSTOMER });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${SOUTH_CUSTOMER}$`));
});

test('a contact holds at most 15 details', async ({ page }) => {
  await signIn(page, 'admin', '/referentials/customers/new');
  const add = page.getByRole('button', { name: 'Add a detail' });
  for (let i = 0; i < 15; i++) await add.click();
  await expect(page.getByTestId('contact-detail')).toHaveCount(15);
  await expect(add).toBeDisabled();
  await expect(page.getByTestId('contact-count')).toHaveText(
    'A contact holds at most 15 details; remove one to add another.',
  );
  await page.getByRole('button', { name: 'Remove detail 15' }).click();
  await expect(add).toBeEnabled();
});
