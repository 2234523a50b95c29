/**
 * Catalog pages end to end, against the run's service (e2e/support/server.mjs; its dataset
 * holds the item custom-field definitions, the characteristics and 230 BULK items): items
 * (create with custom fields, the item page, edit + reload, Undo, duplicate, a service
 * refusal shown on its field, CSV import with a bad row refused in the preview, CSV export,
 * filters in the URL, infinite scroll), skills (create, edit) and characteristics
 * (read-only list). Every page is checked with axe and screenshotted at 1280x800.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test, USERS } from './support/fixtures.ts';

const ARTIFACTS = join(process.cwd(), 'e2e/artifacts');

const ADMIN = USERS.admin;
const RUN = Date.now().toString(36).toUpperCase();
const CODE = `E2E-${RUN}`;
const COPY = `E2E-${RUN}-B`;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

/** Signs in as the admin and opens `path`. */
async function open(page: Page, path: string) {
  await signIn(page, ADMIN.login, ADMIN.password, path);
}

/** axe on the page, then a 1280x800 screenshot of what the user sees (e2e/artifacts). */
async function checkPage(page: Page, name: string) {
  await expectAccessible(page, name);
  await view(page, name);
}

async function view(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const body = await page.screenshot({ path: join(ARTIFACTS, `catalog-${name}.png`) });
  await test.info().attach(`catalog-${name}`, { body, contentType: 'image/png' });
}

/** Picks an option of a Mantine Select by its visible label. */
async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('items: create an item with custom fields', async ({ page }) => {
  await open(page, '/catalog/items');
  await expect(page.getByRole('heading', { name: 'Items' })).toBeVisible();
  await checkPage(page, 'items');
  await page.getByTestId('new-item').click();
  await expect(page).toHaveURL(/\/catalog\/items\/new$/);
  await expect(page.getByRole('heading', { name: 'New item' })).toBeVisible();

  await page.getByTestId('item-code').fill(CODE.toLowerCase());
  await page.getByTestId('item-name').fill('E2E pump');
  await page.getByTestId('item-category').fill('E2E pumps');
  await page.getByTestId('item-unit').fill('piece');
  await page.getByTestId('item-unit-price').fill('42.5');
  const vat = page.getByTestId('item-vat-rates');
  await vat.fill('20');
  await vat.press('Enter');
  await vat.fill('5.5');
  await vat.press('Enter');
  // The serial-number pattern is checked as a RegExp while typing.
  await page.getByTestId('item-serial-pattern').fill('^SN-(\\d{4}');
  await expect(page.getByText('Not a valid regular expression')).toBeVisible();
  await page.getByTestId('item-serial-pattern').fill('^SN-\\d{4}$');
  await expect(page.getByText('Not a valid regular expression')).toHaveCount(0);
  await page.getByTestId('item-serial-sample').fill('SN-1234');
  await expect(page.getByText('Matches', { exact: true })).toBeVisible();
  // Custom fields of the item definitions.
  await page.getByTestId('cf-ITEM_NOTE').fill('Fragile');
  await pick(page, 'cf-ITEM_TIER', 'Gold');
  await checkPage(page, 'item-new');

  await page.getByTestId('save').click();
  await expect(page.getByText(`Item ${CODE} created`)).toBeVisible();
  // The item's page, like every record page: name, code badge, state, last update, sections.
  await expect(page).toHaveURL(new RegExp(`/catalog/items/${CODE}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'E2E pump' })).toBeVisible();
  await expect(page.getByTestId('record-code')).toHaveText(CODE);
  await expect(page.getByTestId('item-state')).toHaveText('Active');
  await expect(page.getByTestId('record-subtitle')).toHaveText(/^Last updated .+ UTC$/);
  await expect(page.getByTestId('section-billing')).toContainText('42.50');
  await expect(page.getByTestId('section-billing')).toContainText('20 %, 5.5 %');
  await expect(page.getByTestId('section-serials')).toContainText('^SN-\\d{4}$');
  const custom = page.getByTestId('section-custom-fields');
  await expect(custom).toContainText('Fragile');
  await expect(custom).toContainText('Gold');
  await checkPage(page, 'item-detail');
});

test('items: edit, see the change after reload, then Undo', async ({ page }) => {
  await open(page, `/catalog/items/${CODE}`);
  await page.getByTestId('edit').click();
  await expect(page).toHaveURL(new RegExp(`/catalog/items/${CODE}/edit$`));
  await expect(page.getByTestId('item-name')).toHaveValue('E2E pump');
  // The code is shown read-only, the same way as on every record form.
  await expect(page.getByTestId('item-code')).toHaveAttribute('readonly', '');
  await expect(page.getByText('The code of a record cannot change.')).toBeVisible();
  await checkPage(page, 'item-edit');
  await page.getByTestId('item-name').fill('E2E pump, large');
  await page.getByTestId('cf-ITEM_NOTE').fill('Very fragile');
  await page.getByTestId('save').click();
  await expect(page.getByText(`Item ${CODE} saved`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/catalog/items/${CODE}$`));

  await page.reload();
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'E2E pump, large' })).toBeVisible();
  await expect(page.getByTestId('section-custom-fields')).toContainText('Very fragile');

  // Leaving with unsaved changes asks first.
  await page.getByTestId('edit').click();
  await page.getByTestId('item-name').fill('Not saved');
  await page.getByRole('link', { name: 'Items', exact: true }).first().click();
  const dialog = page.getByTestId('unsaved-dialog');
  await expect(dialog).toContainText('Leave without saving?');
  await page.getByRole('button', { name: 'Stay on the page' }).click();
  await expect(page).toHaveURL(new RegExp(`/catalog/items/${CODE}/edit$`));
  await page.getByTestId('item-name').fill('E2E pump, large');

  // Undo writes the previous version back.
  await page.getByTestId('item-description').fill('temporary');
  await page.getByTestId('save').click();
  await expect(page.getByTestId('section-identification')).toContainText('temporary');
  await page.getByTestId('undo').click();
  await expect(page.getByText('Change undone')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await expect(page.getByTestId('section-identification')).not.toContainText('temporary');
  await expect(page.getByRole('heading', { level: 1, name: 'E2E pump, large' })).toBeVisible();
});

test('items: duplicate as new', async ({ page }) => {
  await open(page, `/catalog/items/${CODE}`);
  await page.getByTestId('duplicate').click();
  await expect(page).toHaveURL(new RegExp(`/catalog/items/new\\?duplicateOf=${CODE}`));
  await expect(page.getByRole('heading', { name: `New item (copy of ${CODE})` })).toBeVisible();
  await expect(page.getByTestId('item-code')).toHaveValue('');
  await expect(page.getByTestId('item-name')).toHaveValue('E2E pump, large');
  await expect(page.getByTestId('cf-ITEM_TIER')).toHaveValue('Gold');
  // An existing code is refused before anything is written.
  await page.getByTestId('item-code').fill(CODE);
  await page.getByTestId('save').click();
  await expect(page.getByText(`An item with code ${CODE} already exists`)).toBeVisible();
  await page.getByTestId('item-code').fill(COPY);
  await page.getByTestId('item-name').fill('E2E pump, copy');
  await page.getByTestId('save').click();
  await expect(page).toHaveURL(new RegExp(`/catalog/items/${COPY}$`));
  await expect(page.getByTestId('section-identification')).toContainText('E2E pumps');
  await expect(page.getByTestId('section-custom-fields')).toContainText('Gold');
  await expect(page.getByTestId('section-serials')).toContainText('^SN-\\d{4}$');
});

test('items: a refusal of the service shows on its field', async ({ page }) => {
  // The page holds definitions older than the service's (a dropdown value since removed):
  // the console accepts the value, the service refuses it with custom.field.invalid.
  await page.route('**/referentials/v1/customFieldDefinitions?entity=item', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    for (const d of body.data) if (d.code === 'ITEM_TIER') d.values = [...d.values, 'Platinum'];
    await route.fulfill({ response: res, json: body });
  });
  await open(page, `/catalog/items/${CODE}/edit`);
  await pick(page, 'cf-ITEM_TIER', 'Platinum');
  await page.getByTestId('save').click();
  const field = page.getByTestId('cf-ITEM_TIER');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/Custom field ITEM_TIER must hold/)).toBeVisible();
  await view(page, 'item-server-error');
  await page.reload();
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await expect(page.getByTestId('cf-ITEM_TIER')).toHaveValue('Gold');
});

test('items: CSV import shows a bad row before writing and imports the good ones', async ({ page }) => {
  const csv = [
    'itemCode,name,category,unit,unitPrice,vatRates,active',
    `${CODE}-C1,CSV one,E2E csv,piece,1.50,20;5.5,true`,
    `${CODE}-C2,CSV two,E2E csv,hour,abc,20,true`,
    `${CODE}-C3,CSV three,E2E csv,piece,3,,false`,
  ].join('\n');
  await open(page, '/catalog/items');
  await page.getByTestId('import-csv').click();
  const dialog = page.getByRole('dialog', { name: 'Import items from a CSV file' });
  await dialog.locator('input[type=file]').setInputFiles({
    name: 'items.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(dialog.getByTestId('import-counts')).toContainText('3 rows');
  await expect(dialog.getByTestId('import-counts')).toContainText('2 valid');
  await expect(dialog.getByTestId('import-counts')).toContainText('1 with errors');
  await expect(dialog.getByText('unitPrice: “abc” is not a number')).toBeVisible();
  await checkPage(page, 'items-import-preview');
  await dialog.getByTestId('import-start').click();
  await expect(dialog.getByTestId('import-summary')).toContainText('2 created');
  await expect(dialog.getByTestId('import-summary')).toContainText('0 failed');
  await view(page, 'items-import-done');
  await dialog.getByTestId('import-close').click();

  await page.getByTestId('items-search').fill(`${CODE}-C`);
  await expect(page).toHaveURL(new RegExp(`q=${CODE}-C`));
  const rows = page.getByTestId('list-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('CSV one');
  await expect(rows.nth(1)).toContainText('Inactive');
});

test('items: CSV export downloads the filtered rows', async ({ page }) => {
  await open(page, `/catalog/items?q=${CODE}`);
  await expect(page.getByTestId('list-row')).toHaveCount(4);
  const download = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^items-.*\.csv$/);
  const text = readFileSync(String(await file.path()), 'utf8').replace(/^\uFEFF/, '');
  const lines = text.trim().split(/\r?\n/);
  expect(lines[0]).toBe(
    'itemCode,name,category,description,unit,unitPrice,vatRates,reference,barCode,manufacturer,fixedPrice,serialNumberPattern,active',
  );
  expect(lines).toHaveLength(5);
  expect(text).toContain(`${CODE},"E2E pump, large",E2E pumps,`);
  expect(text).toContain(`${CODE}-C1,CSV one,E2E csv,,piece,1.5,20;5.5`);
});

test('items: filters live in the URL', async ({ page }) => {
  await open(page, `/catalog/items?category=E2E%20csv&active=false`);
  await expect(page.getByTestId('list-row')).toHaveCount(1);
  await expect(page.getByTestId('list-row').first()).toContainText(`${CODE}-C3`);
  await page.getByTestId('items-active').getByText('All', { exact: true }).click();
  await expect(page).not.toHaveURL(/active=/);
  await expect(page.getByTestId('list-row')).toHaveCount(2);
});

test('items: the grid loads the next page on scroll', async ({ page }) => {
  await open(page, '/catalog/items?q=BULK');
  const rows = page.getByTestId('list-row');
  await expect(rows.first()).toContainText('BULK-0001');
  // Rows are virtualized: far fewer in the DOM than in the list.
  expect(await rows.count()).toBeLessThan(80);
  const scroller = page.getByTestId('list-scroll');
  await expect(async () => {
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(page.getByText('BULK-0230', { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText('230 rows, end of the list')).toBeVisible();
});

test('skills: create and edit', async ({ page }) => {
  const skill = `SK-${RUN}`;
  await open(page, '/staff/skills');
  await expect(page.getByRole('heading', { name: 'Skills' })).toBeVisible();
  await checkPage(page, 'skills');
  await page.getByTestId('new-skill').click();
  // Name is required.
  await page.getByTestId('skill-code').fill(skill);
  await page.getByTestId('skill-save').click();
  await expect(page.getByTestId('skill-form').getByText('Required')).toBeVisible();
  await page.getByTestId('skill-name').fill('Welding');
  await page.getByTestId('skill-description').fill('TIG and MIG');
  await checkPage(page, 'skill-new');
  await page.getByTestId('skill-save').click();
  await expect(page.getByText(`Skill ${skill} created`)).toBeVisible();

  await page.getByTestId('skills-search').fill(skill.toLowerCase());
  const row = page.getByTestId('list-row').filter({ hasText: skill });
  await expect(row).toContainText('Welding');
  await row.getByRole('button', { name: `Edit skill ${skill}` }).click();
  await expect(page.getByTestId('skill-code')).toHaveAttribute('readonly', '');
  await page.getByTestId('skill-name').fill('Welding (certified)');
  await page.getByTestId('skill-save').click();
  await expect(page.getByText(`Skill ${skill} saved`)).toBeVisible();
  await page.reload();
  await page.getByTestId('skills-search').fill(skill);
  await expect(page.getByTestId('list-row').filter({ hasText: skill })).toContainText('Welding (certified)');
});

test('characteristics: read-only list', async ({ page }) => {
  await open(page, '/staff/characteristics');
  await expect(page.getByRole('heading', { name: 'Characteristics' })).toBeVisible();
  // Said for back-office staff: no command line to run.
  await expect(page.getByTestId('characteristics-note')).toContainText('your administrator');
  await expect(page.getByTestId('characteristics-note')).not.toContainText(/npx|fieldwork import|command/);
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /new/i })).toHaveCount(0);
  await checkPage(page, 'characteristics');
});

test('catalog in French and in the dark scheme', async ({ page }) => {
  await open(page, '/catalog/items');
  await page.getByTestId('language-menu').click();
  await page.getByTestId('language-fr').click();
  await expect(page.getByRole('heading', { name: 'Articles', level: 1 })).toBeVisible();
  await expect(page.getByTestId('new-item')).toHaveText('Nouvel article');
  await checkPage(page, 'items-fr');
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await checkPage(page, 'items-fr-dark');
  await page.getByTestId('list-row').nth(1).click();
  await expect(page.getByTestId('record-code')).toHaveText('BULK-0002');
  await expect(page.getByTestId('record-subtitle')).toHaveText(/^Mis à jour le .+ UTC$/);
  await checkPage(page, 'item-fr-dark');
  await page.getByTestId('edit').click();
  await expect(page.getByRole('heading', { name: 'Modifier l’article BULK-0002', level: 1 })).toBeVisible();
  await checkPage(page, 'item-edit-fr-dark');
  await page
    .getByRole('navigation', { name: 'Navigation principale' })
    .getByRole('link', { name: 'Compétences' })
    .click();
  await expect(page.getByRole('heading', { name: 'Compétences', level: 1 })).toBeVisible();
  await checkPage(page, 'skills-fr-dark');
});
