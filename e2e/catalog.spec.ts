/**
 * Catalog pages end to end, against a real service: items (create with custom fields,
 * edit + reload, Undo, duplicate, a service refusal shown on its field, CSV import with a
 * bad row refused in the preview, CSV export, filters in the URL, infinite scroll), skills
 * (create, edit) and characteristics (read-only list). Every page is checked with axe and
 * screenshotted at 1280x800.
 *
 * Characteristics and item custom-field definitions have no write in the API and PGlite
 * lets one process open a data directory, so this file runs its own service (same build,
 * same command as e2e/support/server.mjs) on a data directory loaded with CATALOG_DATASET.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test, USERS } from './support/fixtures.ts';

const ARTIFACTS = join(process.cwd(), 'e2e/artifacts');

const ADMIN = USERS.admin;
const RUN = Date.now().toString(36).toUpperCase();
const CODE = `E2E-${RUN}`;
const COPY = `E2E-${RUN}-B`;

const CATALOG_DATASET = {
  offices: [{ code: 'ROOT', name: 'Head office', parentCode: null }],
  users: [{ login: ADMIN.login, password: ADMIN.password, officeCode: 'ROOT', roles: ['admin'] }],
  customFieldDefinitions: [
    { entity: 'item', code: 'ITEM_NOTE', label: 'Handling note', type: 'textValue', mandatory: false },
    {
      entity: 'item',
      code: 'ITEM_TIER',
      label: 'Tier',
      type: 'dropDownValue',
      mandatory: false,
      values: ['Bronze', 'Silver', 'Gold'],
    },
    { entity: 'item', code: 'ITEM_SINCE', label: 'Catalogued since', type: 'dateValue', mandatory: false },
  ],
  skills: [
    { skillCode: 'ELEC', name: 'Electricity', description: 'Low-voltage installations' },
    { skillCode: 'HVAC', name: 'Heating and cooling', description: null },
  ],
  characteristics: [
    { characteristicCode: 'DRIVING_C', name: 'Truck licence', description: 'Holds a category C licence' },
    { characteristicCode: 'HEIGHT_WORK', name: 'Work at height', description: 'Certified above 2 m' },
    { characteristicCode: 'NIGHT', name: 'Night shifts', description: null },
  ],
  // More than one page of the list (200 a page): the grid loads the next one on scroll.
  items: Array.from({ length: 230 }, (_, i) => ({
    itemCode: `BULK-${String(i + 1).padStart(4, '0')}`,
    name: `Bulk part ${i + 1}`,
    category: ['Cables', 'Filters', 'Pumps', 'Valves'][i % 4],
    unit: 'piece',
    unitPrice: Math.round((i + 1) * 137) / 100,
    vatRates: [20],
    active: i % 9 !== 0,
  })),
};

let base = '';
let service: ChildProcess | undefined;
let dataDir = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const root = process.cwd();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(join(tmpdir(), 'fieldwork-e2e-catalog-'));
  const file = join(dataDir, 'catalog-dataset.json');
  writeFileSync(file, JSON.stringify(CATALOG_DATASET));
  const env = {
    ...process.env,
    DATA_DIR: join(dataDir, 'db'),
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: base,
    FIELDWORK_NO_DEMO: '1',
    // A build of its own: dist/console is rebuilt by every run of the webServer.
    FIELDWORK_CONSOLE_DIR: join(dataDir, 'console'),
    FIELDWORK_RATE_LIMITS: JSON.stringify({
      high: { perMinute: 100000, perHour: 1000000 },
      standard: { perMinute: 100000, perHour: 1000000 },
      low: { perMinute: 100000, perHour: 1000000 },
    }),
    LOG_LEVEL: 'warn',
  };
  const built = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--logLevel',
      'warn',
      '--outDir',
      join(dataDir, 'console'),
    ],
    { cwd: root, env, encoding: 'utf8' },
  );
  expect(built.status, built.stderr + built.stdout).toBe(0);
  const imported = spawnSync(process.execPath, [join(root, 'bin/fieldwork.mjs'), 'import', file], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  expect(imported.status, imported.stderr + imported.stdout).toBe(0);
  service = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/server/main.ts')], {
    cwd: root,
    env,
    stdio: 'ignore',
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ok = await fetch(`${base}/oauth/.well-known/openid-configuration`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error('the catalog e2e service did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  if (service && service.exitCode === null) {
    const exited = new Promise((r) => service?.once('exit', r));
    service.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Signs in as the admin on the catalog service and opens `path`. */
async function open(page: Page, path: string) {
  await signIn(page, ADMIN.login, ADMIN.password, `${base}${path}`);
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
  await expect(page).toHaveURL(new RegExp(`/catalog/items/${CODE}$`));
  await expect(page.getByRole('heading', { name: `Item ${CODE}` })).toBeVisible();
  await expect(page.getByTestId('cf-ITEM_NOTE')).toHaveValue('Fragile');
  await expect(page.getByTestId('cf-ITEM_TIER')).toHaveValue('Gold');
  await expect(page.getByTestId('item-unit-price')).toHaveValue('42.50');
});

test('items: edit, see the change after reload, then Undo', async ({ page }) => {
  await open(page, `/catalog/items/${CODE}`);
  await expect(page.getByTestId('item-name')).toHaveValue('E2E pump');
  await checkPage(page, 'item-edit');
  await page.getByTestId('item-name').fill('E2E pump, large');
  await page.getByTestId('cf-ITEM_NOTE').fill('Very fragile');
  await page.getByTestId('save').click();
  await expect(page.getByText(`Item ${CODE} saved`)).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('item-name')).toHaveValue('E2E pump, large');
  await expect(page.getByTestId('cf-ITEM_NOTE')).toHaveValue('Very fragile');
  await expect(page.getByTestId('item-vat-rates').locator('..')).toContainText('5.5');

  // Leaving with unsaved changes asks first.
  await page.getByTestId('item-name').fill('Not saved');
  await page.getByRole('link', { name: 'Items', exact: true }).first().click();
  const dialog = page.getByTestId('unsaved-dialog');
  await expect(dialog).toContainText('Leave without saving?');
  await page.getByRole('button', { name: 'Stay on the page' }).click();
  await expect(page).toHaveURL(new RegExp(`/catalog/items/${CODE}$`));
  await page.getByTestId('item-name').fill('E2E pump, large');

  // Undo writes the previous version back.
  await page.getByTestId('item-description').fill('temporary');
  await page.getByTestId('save').click();
  await page.getByTestId('undo').click();
  await expect(page.getByText('Undone')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('item-description')).toHaveValue('');
  await expect(page.getByTestId('item-name')).toHaveValue('E2E pump, large');
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
  await expect(page.getByTestId('item-category')).toHaveValue('E2E pumps');
  await expect(page.getByTestId('cf-ITEM_TIER')).toHaveValue('Gold');
  await expect(page.getByTestId('item-serial-pattern')).toHaveValue('^SN-\\d{4}$');
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
  await open(page, `/catalog/items/${CODE}`);
  await pick(page, 'cf-ITEM_TIER', 'Platinum');
  await page.getByTestId('save').click();
  const field = page.getByTestId('cf-ITEM_TIER');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/Custom field ITEM_TIER must hold/)).toBeVisible();
  await view(page, 'item-server-error');
  await page.reload();
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
  await expect(page.getByTestId('characteristics-note')).toContainText('import file');
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
  await expect(page.getByRole('heading', { name: 'Article BULK-0002' })).toBeVisible();
  await checkPage(page, 'item-fr-dark');
  await page.goto(`${base}/staff/skills`);
  await expect(page.getByRole('heading', { name: 'Compétences', level: 1 })).toBeVisible();
  await checkPage(page, 'skills-fr-dark');
});
