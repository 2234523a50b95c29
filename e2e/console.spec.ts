/**
 * The console's shell and shared components end to end (issue 8): sign-in kept out of the
 * history and the app loaded once per page load, the sign-in page in the browser's
 * language, sign-out that asks first, pages that do not load the form code, pickers that
 * search without flooding the service, strict dates, the code rule, custom fields that can
 * be undone, calendars styled and in French, lists filling the window with tooltips on cut
 * cells, unique landmarks, the palette over every resource, and lost updates between two
 * tabs. One signed-in page is shared by the tests that do not need a fresh session.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page, Request, Response } from '@playwright/test';
import {
  expect,
  expectAccessible,
  expectHomeAreas,
  fillLoginForm,
  networkSettled,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';

const RUN = Date.now().toString(36).toUpperCase();
const LONG = `C8L${RUN}`;
const DATES = `C8D${RUN}`;
const LOST = `C8U${RUN}`;
const LONG_NAME = `A customer whose name is far too long to fit in its column ${'and then some '.repeat(4)}end`;
const API = '/eTech/rest/ws/referentials/v1';

test.describe.configure({ mode: 'serial', timeout: 90_000 });

async function shot(page: Page, name: string) {
  const dir = join(process.cwd(), 'e2e/artifacts');
  mkdirSync(dir, { recursive: true });
  const body = await page.screenshot({ path: join(dir, `console-${name}.png`) });
  await test.info().attach(`console-${name}`, { body, contentType: 'image/png' });
}

/** A full page load: the console signs in again silently, then shows the page. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForURL((u) => `${u.pathname}${u.search}` === path);
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await networkSettled(page);
}

/** A new signed-in tab (own context) and the bearer token its console uses. */
async function session(browser: Browser, path = '/') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const firstCall = page.waitForRequest(
    (r) => r.url().includes('/eTech/rest/ws/') && !!r.headers().authorization,
  );
  await signIn(page, USERS.admin.login, USERS.admin.password, path);
  const authorization = (await firstCall).headers().authorization;
  return { page, authorization };
}

/** The scripts a page downloads, with their text. */
function recordScripts(page: Page) {
  const scripts: Response[] = [];
  const onResponse = (r: Response) => {
    if (r.request().resourceType() === 'script') scripts.push(r);
  };
  page.on('response', onResponse);
  return {
    scripts,
    stop: () => page.off('response', onResponse),
    /** True when one of them holds react-hook-form or @mantine/dates code. */
    async formCode() {
      for (const r of scripts) {
        const text = await r.text().catch(() => '');
        // Property names the minifier keeps: react-hook-form's options, @mantine/dates' attribute.
        if (text.includes('shouldUnregister') || text.includes('data-dates-input')) return true;
      }
      return false;
    },
  };
}

let shared: Page;
let authorization: string;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  ({ page: shared, authorization } = await session(browser));
  const put = async (code: string, body: unknown) => {
    const r = await shared.request.put(`${API}/customers/code:${code}`, {
      headers: { authorization },
      data: body,
    });
    expect(r.status(), `PUT ${code}`).toBe(201);
  };
  await put(LONG, { name: LONG_NAME, addressDetails: { city: 'Lille' } });
  await put(DATES, {
    name: 'Dates and clear buttons',
    addressDetails: { city: 'Lille' },
    customFields: { SINCE: { dateValue: '2020-05-17' }, NEXT_VISIT: { dateTimeValue: '2030-01-15T09:30' } },
  });
  await put(LOST, { name: 'Lost updates', addressDetails: { city: 'Lille' } });
});
test.afterAll(() => shared?.context().close());

test('a reload loads the app once, and Back after a sign-in, a reload or a deep link leaves the console', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // A page outside the console in the history (the service's API docs), then the console.
  await page.goto('/docs');
  await page.goto('/referentials/customers');
  await fillLoginForm(page, USERS.admin.login, USERS.admin.password);
  await expect(page.getByTestId('account-menu')).toBeVisible();
  // The sign-in form's page left the history with the rest of the round trip.
  await page.goBack();
  await expect(page).toHaveURL(/\/docs$/);
  await page.goForward();
  await expect(page).toHaveURL(/\/referentials\/customers$/);
  await expect(page.getByTestId('account-menu')).toBeVisible();

  // Deep link (signed in through the provider session): the sign-in round trip replaced
  // the entry, so Back goes to the page before the console.
  await page.goto('/referentials/sites');
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/referentials\/customers$/);
  await expect(page.getByTestId('account-menu')).toBeVisible();

  // Reload: the app (main-*.js) is fetched and run once; the boot entry starts the
  // sign-in before it, and runs again on the way back.
  const requested: Request[] = [];
  page.on('request', (r) => requested.push(r));
  await page.reload();
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await expect(page).toHaveURL(/\/referentials\/customers$/);
  const urls = requested.map((r) => new URL(r.url()).pathname);
  expect(urls.filter((u) => /^\/assets\/main-[\w-]+\.js$/.test(u))).toHaveLength(1);
  expect(urls.filter((u) => u === '/oauth/auth')).toHaveLength(1);
  const documents = requested.filter((r) => r.isNavigationRequest()).map((r) => new URL(r.url()).pathname);
  // The page (boot only), the authorization server's redirects, the callback (the app).
  expect(documents[0]).toBe('/referentials/customers');
  expect(documents.at(-1)).toBe('/auth/callback');
  expect(documents.slice(1, -1).every((d) => d.startsWith('/oauth/'))).toBe(true);

  await page.goBack();
  await expect(page).toHaveURL(/\/docs$/);
  await context.close();
});

test('the sign-in page follows the browser language, and so does the console', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Connexion' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByLabel('Mot de passe')).toBeVisible();
  await expectAccessible(page, 'sign-in form in French');
  await shot(page, 'sign-in-fr');
  await page.getByLabel('Identifiant').fill(USERS.admin.login);
  await page.getByLabel('Mot de passe').fill('wrong');
  await page.getByRole('button', { name: 'Connexion' }).click();
  await expect(page.getByRole('alert')).toHaveText('Identifiant ou mot de passe incorrect.');
  await page.getByLabel('Mot de passe').fill(USERS.admin.password);
  await page.getByRole('button', { name: 'Connexion' }).click();
  await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Clients' })).toBeVisible();
  await context.close();
});

test('sign-out with unsaved edits asks first; Stay keeps the page and the edits', async ({ browser }) => {
  const { page } = await session(browser, `/referentials/customers/${LOST}/edit`);
  await page.locator('input[name="name"]').fill('Not saved yet');
  const revokes: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/oauth/revoke')) revokes.push(r.url());
  });
  await page.getByTestId('account-menu').click();
  await page.getByTestId('sign-out').click();
  const dialog = page.getByRole('dialog', { name: 'Sign out without saving?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'sign-out dialog');
  await shot(page, 'sign-out-dialog');
  expect(revokes).toEqual([]);
  await dialog.getByRole('button', { name: 'Stay on the page' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${LOST}/edit$`));
  await expect(page.locator('input[name="name"]')).toHaveValue('Not saved yet');
  // The session still works: the change can be saved.
  await page.locator('input[name="name"]').fill('Lost updates');
  await page.getByTestId('save').click();
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${LOST}$`));

  // Leaving on purpose: tokens revoked, signed out, no second question from the browser.
  await page.getByTestId('edit').click();
  await page.locator('input[name="name"]').fill('Dropped');
  await page.getByTestId('account-menu').click();
  await page.getByTestId('sign-out').click();
  const revoked = page.waitForResponse((r) => r.url().endsWith('/oauth/revoke'));
  await page.getByRole('button', { name: 'Sign out and lose changes' }).click();
  expect((await revoked).status()).toBe(200);
  await expect(page.getByTestId('signed-out')).toBeVisible();
  await page.context().close();
});

test('lists do not load the form code, fill the window, are sorted by code and show cut cells whole', async () => {
  const page = shared;
  const rec = recordScripts(page);
  await open(page, '/referentials/customers');
  await expect(page.getByRole('link', { name: 'ACME', exact: true })).toBeVisible();
  await open(page, `/referentials/customers/${LONG}`);
  await expect(page.getByTestId('record-code')).toHaveText(LONG);
  expect(await rec.formCode(), 'the list and the record page load the form code').toBe(false);
  // The form does load it (the check above would see it).
  await page.getByTestId('edit').click();
  await expect(page.locator('input[name="name"]')).toHaveValue(LONG_NAME);
  await networkSettled(page);
  expect(await rec.formCode()).toBe(true);
  rec.stop();

  // A list says its order and offers no sort of the loaded rows only.
  await open(page, `/referentials/customers?q=${LONG}`);
  await expect(page.getByTestId('list-order')).toHaveText('Sorted by code');
  await expect(page.getByRole('textbox', { name: 'Sort' })).toHaveCount(0);
  // A cell cut by its column shows its whole text on hover.
  const cell = page.getByTestId('list-row').getByRole('cell', { name: /far too long/ });
  await cell.hover();
  await expect(cell).toHaveAttribute('title', LONG_NAME);

  // The items list (two pages) takes the window's height and scrolls inside.
  await open(page, '/catalog/items');
  const box = await page.getByTestId('list-scroll').boundingBox();
  expect(box, 'the list is shown').not.toBeNull();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeGreaterThan(800 - 40);
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(800);
  const pageScrolls = await page.evaluate(
    () => document.documentElement.scrollHeight > window.innerHeight + 1,
  );
  expect(pageScrolls).toBe(false);
  await shot(page, 'items-list-height');
});

test('the parent picker searches as the user pauses, never the whole list, without 404s', async () => {
  const page = shared;
  const lists: string[] = [];
  const failures: string[] = [];
  const onRequest = (r: Request) => {
    const u = new URL(r.url());
    if (u.pathname === `${API}/customers`) lists.push(u.search);
  };
  const onResponse = (r: Response) => {
    if (r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
  };
  const onConsole = (m: { type(): string; text(): string }) => {
    if (m.type() === 'error') failures.push(m.text());
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  page.on('console', onConsole);
  await open(page, `/referentials/customers/${LOST}/edit`);
  // Opening the form asks for no list (the parent is empty).
  expect(lists).toEqual([]);
  const picker = page.getByTestId('picker-parentCustomerCode');
  await picker.pressSequentially('INITE', { delay: 30 });
  await expect(page.getByRole('option', { name: /^INITECH/ })).toBeVisible();
  // Not a request per keystroke: the text filter is sent once typing pauses.
  expect(lists.length, lists.join(' ')).toBeLessThanOrEqual(2);
  expect(lists.at(-1)).toBe('?q=INITE');
  // A code that does not exist is said on the field, without a 404 in the browser.
  await picker.fill('NOPE-X');
  await picker.blur();
  await expect(page.getByText('No record with code NOPE-X in your offices.')).toBeVisible();
  await shot(page, 'picker-unknown');
  expect(failures).toEqual([]);
  page.off('request', onRequest);
  page.off('response', onResponse);
  page.off('console', onConsole);
  // Leave the form as it was.
  await picker.fill('');
  await picker.blur();
});

test('codes, dates and custom fields on a form', async () => {
  const page = shared;
  await open(page, '/referentials/customers/new');
  // The code shows its rule, and refuses spaces and punctuation.
  await expect(page.getByText(/Letters A to Z, digits, “-”, “_” and “\.” \(no space\)/)).toBeVisible();
  const code = page.locator('input[name="code"]');
  await code.fill('BAD CODE!');
  await code.blur();
  await expect(
    page.getByText('Only letters A to Z, digits, “-”, “_” and “.”: no space or other sign'),
  ).toBeVisible();
  await code.fill(`C8N${RUN}`);
  await page.locator('input[name="name"]').fill('New with custom fields');
  await page.locator('input[name="addressDetails.city"]').fill('Lille');

  // A yes/no can return to "not set".
  const vip = page.getByRole('radiogroup', { name: 'VIP' });
  await vip.getByRole('radio', { name: 'Yes' }).check();
  await expect(vip.getByRole('radio', { name: 'Yes' })).toBeChecked();
  await vip.getByRole('radio', { name: 'Not set' }).check();
  await expect(vip.getByRole('radio', { name: 'Not set' })).toBeChecked();

  // Clicking the chosen list value again keeps it.
  const tier = page.getByTestId('cf-TIER');
  await tier.click();
  await page.getByRole('option', { name: 'GOLD' }).click();
  await tier.click();
  await page.getByRole('option', { name: 'GOLD' }).click();
  await expect(tier).toHaveValue('GOLD');

  // GPS: the range is checked as typed, before leaving the field.
  // The same control as a site's geolocation (issue 27, 11): no spin buttons, a pasted pair.
  const gate = page.getByTestId('cf-GATE');
  await expect(gate.getByRole('textbox')).toHaveCount(3);
  await expect(gate.locator('.mantine-NumberInput-controls')).toHaveCount(0);
  await page.getByTestId('cf-GATE-lat').fill('95');
  await expect(page.getByText('Latitude must be between -90 and 90')).toBeVisible();
  await page.getByTestId('cf-GATE-lat').fill('50.63');
  await expect(page.getByText('Latitude must be between -90 and 90')).toHaveCount(0);
  await page.getByTestId('cf-GATE-lng').fill('3.06');

  // An impossible date is refused, not moved to March.
  const since = page.getByTestId('cf-SINCE');
  await since.fill('2019-02-30');
  await since.press('Tab');
  await expect(page.getByText('This date does not exist')).toBeVisible();
  await expect(since).toHaveValue('2019-02-30');
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT') puts.push(r.url());
  });
  await page.getByTestId('save').click();
  await expect(page.getByText('Some fields need your attention.')).toBeVisible();
  expect(puts).toEqual([]);
  await shot(page, 'form-field-errors');
  await since.fill('2019-02-28');
  await since.press('Tab');
  await expect(page.getByText('This date does not exist')).toHaveCount(0);
  await page.getByTestId('save').click();
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/C8N${RUN}$`));
  const custom = page.getByTestId('section-custom-fields');
  await expect(custom).toContainText('2019-02-28');
  await expect(custom).toContainText('GOLD');
  await expect(custom).toContainText('50.63, 3.06');
  await expect(custom).not.toContainText('VIP');
});

test('calendars: styled, in French, on screen in the dark scheme; date clear buttons named', async () => {
  const page = shared;
  await open(page, `/referentials/customers/${DATES}/edit`);
  // Clear buttons of the date and date-time inputs have a name; placeholders and errors pass AA.
  await expect(page.getByRole('button', { name: 'Clear the date' })).toHaveCount(2);
  // The date-time reads in the console's language, its zone named (issue 27, 11).
  const nextVisit = page.getByTestId('cf-NEXT_VISIT');
  await expect(nextVisit).toContainText('Jan 15, 2030 09:30');
  await expect(nextVisit.locator('..').getByTestId('input-zone')).toHaveText('UTC');
  await expectAccessible(page, 'form with dates');
  await page
    .getByTestId('cf-NEXT_VISIT')
    .locator('..')
    .getByRole('button', { name: 'Clear the date' })
    .click();
  await expect(nextVisit).toContainText('Pick a date and time');
  await expect(nextVisit).not.toContainText('YYYY');
  await expectAccessible(page, 'date-time placeholder');

  await page.getByTestId('language-menu').click();
  await page.getByTestId('language-fr').click();
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByTestId('cf-NEXT_VISIT')).toContainText('Choisir une date et une heure');
  const since = page.getByTestId('cf-SINCE');
  await since.scrollIntoViewIfNeeded();
  await since.click();
  const dropdown = page.locator('[data-dates-dropdown]');
  await expect(dropdown).toBeVisible();
  await expect(dropdown).toContainText('mai 2020');
  await expect(dropdown).toContainText('lu');
  // Styled: a day is a 36 px cell (unstyled, it is as wide as its number).
  const day = dropdown.locator('table button').filter({ hasText: /^17$/ }).first();
  const dayBox = await day.boundingBox();
  expect(Math.round(dayBox?.width ?? 0)).toBeGreaterThanOrEqual(30);
  // On screen.
  const box = (await dropdown.boundingBox()) ?? { x: -1, y: -1, width: 0, height: 0 };
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  expect(box.y + box.height).toBeLessThanOrEqual(800);
  await expectAccessible(page, 'date picker open, French, dark');
  await shot(page, 'date-picker-fr-dark');
  await page.keyboard.press('Escape');
  // Back to English and light for the next tests.
  await page.getByTestId('theme-toggle').click();
  await page.getByTestId('language-menu').click();
  await page.getByTestId('language-en').click();
  await page
    .getByRole('button', { name: 'Annuler' })
    .or(page.getByRole('button', { name: 'Cancel' }))
    .click();
  const leave = page.getByTestId('unsaved-leave');
  if (await leave.isVisible()) await leave.click();
});

test('Home: unique landmarks; the palette searches items and skills too', async () => {
  const page = shared;
  await open(page, '/');
  await expectHomeAreas(page);
  const landmarks = await new AxeBuilder({ page }).withRules(['landmark-unique', 'region']).analyze();
  expect(landmarks.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);

  const search = page.getByRole('textbox', { name: 'Search records' });
  await page.keyboard.press('Control+k');
  await expect(search).toBeFocused();
  await search.fill('BULK-0007');
  const item = page.getByTestId('palette-hit').filter({ hasText: 'BULK-0007' });
  await expect(item).toHaveAttribute('data-resource', 'item');
  await shot(page, 'palette-item');
  await item.click();
  await expect(page).toHaveURL(/\/catalog\/items\/BULK-0007$/);
  await expect(page.getByTestId('record-code')).toHaveText('BULK-0007');

  // The palette has finished closing (a Ctrl+K during its transition would be lost).
  await expect(search).toBeHidden();
  await page.keyboard.press('Control+k');
  await expect(search).toBeFocused();
  await search.fill('heating');
  const skill = page.getByTestId('palette-hit').filter({ hasText: 'HVAC' });
  await expect(skill).toHaveAttribute('data-resource', 'skill');
  // The only hit: chosen from the keyboard (the list re-renders as the other resources answer).
  await expect(page.getByTestId('palette-hit')).toHaveCount(1);
  await search.press('ArrowDown');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/staff\/skills\?q=HVAC$/);
  await expect(page.getByTestId('list-row')).toHaveCount(1);
  await expect(page.getByTestId('list-row')).toContainText('Heating and cooling');
});

test('lost updates: a stale tab is told, and chooses to overwrite or to reload', async ({ browser }) => {
  const a = (await session(browser, `/referentials/customers/${LOST}/edit`)).page;
  const b = (await session(browser, `/referentials/customers/${LOST}/edit`)).page;
  // B saves first.
  await b.locator('input[name="name"]').fill('Saved in B');
  await b.getByTestId('save').click();
  await expect(b.getByRole('heading', { level: 1, name: 'Saved in B' })).toBeVisible();
  // A, opened before, is refused and asked.
  await a.locator('input[name="name"]').fill('Saved in A');
  await a.getByTestId('save').click();
  const dialog = a.getByRole('dialog', { name: 'Changed since you opened it' });
  await expect(dialog).toBeVisible();
  await expectAccessible(a, 'conflict dialog');
  await shot(a, 'conflict-dialog');
  await dialog.getByRole('button', { name: 'Overwrite' }).click();
  await expect(a.getByRole('heading', { level: 1, name: 'Saved in A' })).toBeVisible();

  // Now A is stale: it opens the form, B saves again, A reloads (its edits dropped).
  await a.getByTestId('edit').click();
  await b.reload();
  await expect(b.getByRole('heading', { level: 1, name: 'Saved in A' })).toBeVisible();
  await b.getByTestId('edit').click();
  await b.locator('input[name="name"]').fill('Saved in B again');
  await b.getByTestId('save').click();
  await expect(b.getByRole('heading', { level: 1, name: 'Saved in B again' })).toBeVisible();
  await a.locator('input[name="name"]').fill('Lost in A');
  await a.getByTestId('save').click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Reload' }).click();
  await expect(dialog).toBeHidden();
  await expect(a.locator('input[name="name"]')).toHaveValue('Saved in B again');
  await a.context().close();
  await b.context().close();
});
