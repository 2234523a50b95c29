/**
 * The Work orders pages end to end, on the e2e dataset and the bulk rows of
 * e2e/support/bulk.mjs (WO-E2E-BULK: 5,000 activities and 300 used items; TECH-N1: 661
 * positions on 2025-06-02): scroll the activities grid to its end (row count and the totals
 * of the aggregate extension), change a filter (the URL, the totals and the rows follow),
 * export every page to CSV (line count), the used items' totals, a work order of another
 * office is not found, the technician's trace and slider. Signed in as north (office NORTH).
 * Every page is checked with axe and saved as a 1280x800 screenshot in e2e/artifacts.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { BULK_DAY, BULK_EXPECTED, BULK_TECHNICIAN, BULK_WORK_ORDER } from './support/bulk.mjs';
import {
  expect,
  expectAccessible,
  expectOneLine,
  expectTextWhole,
  networkSettled,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';

test.describe.configure({ timeout: 120_000 });

const en = new Intl.NumberFormat('en');
const hm = (s: number) =>
  `${Math.floor(Math.round(s / 60) / 60)}:${String(Math.round(s / 60) % 60).padStart(2, '0')}`;

async function settle(page: Page) {
  await networkSettled(page);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** What a 1280x800 window shows, in e2e/artifacts and the report. */
async function shot(page: Page, name: string) {
  await settle(page);
  await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition)));
  const dir = join(process.cwd(), 'e2e/artifacts');
  mkdirSync(dir, { recursive: true });
  const body = await page.screenshot({ path: join(dir, `workorders-${name}.png`) });
  await test.info().attach(`workorders-${name}`, { body, contentType: 'image/png' });
}

/** At the default widths of a 1280 px window, every header of the grid reads whole. */
async function expectHeadersWhole(page: Page, grid: string) {
  const labels = page.getByTestId(`${grid}-grid`).locator('thead th > span');
  expect(await labels.count()).toBeGreaterThanOrEqual(8);
  await expectTextWhole(labels);
}

/** The screenshot, then axe. */
async function checkPage(page: Page, name: string) {
  await shot(page, name);
  await expectAccessible(page, name);
}

test('activities: scroll the 5,000 rows to the end, row count and totals', async ({ page }) => {
  // Under a loaded machine 25 pages and their renders take a while; alone, about 20 s.
  test.setTimeout(180_000);
  await signIn(page, USERS.north.login, USERS.north.password, '/workorders?q=WO-E2E');
  await expect(page.getByRole('heading', { level: 1, name: 'Work orders' })).toBeVisible();
  await expect(page.getByRole('link', { name: BULK_WORK_ORDER, exact: true })).toBeVisible();
  // North's tree only: the SOUTH work order is not listed.
  await expect(page.getByRole('link', { name: 'WO-E2E-S', exact: true })).toHaveCount(0);
  await checkPage(page, 'list');
  // The Code filter's placeholder reads whole (issue 27, 5).
  await page.getByTestId('wo-search').fill('');
  expect(await placeholderCut(page.getByTestId('wo-search'))).toBe(false);

  await page.getByRole('link', { name: BULK_WORK_ORDER, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/workorders/${BULK_WORK_ORDER}$`));
  await expect(page.getByTestId('wo-title')).toHaveText(BULK_WORK_ORDER);
  const a = BULK_EXPECTED.activities;
  await expect(page.getByTestId('total-count')).toHaveText(en.format(a.count));
  await expect(page.getByTestId('total-duration')).toHaveText(hm(a.durationSeconds));
  await expect(page.getByTestId('total-validated')).toHaveText(
    `${en.format(a.validatedCount)} / ${en.format(a.count)}`,
  );
  await checkPage(page, 'workorder');
  await expectHeadersWhole(page, 'activities');
  // Columns as wide as their content: no identifier, code or date cut (issue 27, 5).
  await expectTextWhole(page.getByTestId('activities-row').locator('td'));

  // Scroll to the end: pages of 200 arrive ahead of the reader until the last one.
  const grid = page.getByTestId('activities-grid');
  // In the page (no round trip a step): scroll to the bottom until every row is loaded.
  await page.waitForFunction(
    (count) => {
      const el = document.querySelector('[data-testid="activities-scroll"]');
      const table = document.querySelector('[data-testid="activities-grid"]');
      if (!el || !table) return false;
      el.scrollTop = el.scrollHeight;
      return (
        table.getAttribute('data-rows') === String(count) &&
        !!document.querySelector('[data-testid="activities-end"]')
      );
    },
    a.count,
    { polling: 100, timeout: 60_000 },
  );
  await expect(grid).toHaveAttribute('data-rows', String(a.count));
  await expect(page.getByTestId('activities-end')).toHaveText(`End of the list: ${en.format(a.count)} rows`);
  await expect(page.locator(`[data-testid="activities-row"][data-index="${a.count - 1}"]`)).toBeVisible();
  await expect(page.getByTestId('activities-loaded')).toHaveText(
    `${en.format(a.count)} of ${en.format(a.count)} loaded`,
  );
  // Virtualized: a few dozen rows in the DOM, not 5,000.
  expect(await page.getByTestId('activities-row').count()).toBeLessThan(80);
  await shot(page, 'activities-end');

  // Every row loaded: the CSV is written from them, without a request (issue 27, 6).
  const reads = listReads(page);
  const download = page.waitForEvent('download');
  await page.getByTestId('export-activities').click();
  const lines = csvLines(await (await download).path());
  expect(lines.length).toBe(a.count + 1);
  expect(reads).toEqual([]);
});

/** Whether an input's placeholder is wider than the room for its text. */
function placeholderCut(input: Locator) {
  return input.evaluate((el: HTMLInputElement) => {
    const style = getComputedStyle(el);
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return true;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room =
      el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    return context.measureText(el.placeholder).width > room;
  });
}

/** The activity pages the page asks for from now on (their continuation tokens, '' for the first). */
function listReads(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.endsWith('/activities')) asked.push(url.searchParams.get('continuationToken') ?? '');
  });
  return asked;
}

function csvLines(file: string) {
  return readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
}

test('activities: a filter in the URL, CSV of every page; used items totals', async ({ page }) => {
  const a = BULK_EXPECTED.activities;
  await signIn(page, USERS.north.login, USERS.north.password, `/workorders/${BULK_WORK_ORDER}`);
  await expect(page.getByTestId('total-count')).toHaveText(en.format(a.count));

  // The palette opens a work order by code prefix, and by uuid typed whole.
  const uuid = /uuid ([0-9a-f-]{36})/.exec(
    (await page.getByTestId('record-subtitle').textContent()) ?? '',
  )?.[1];
  expect(uuid).toBeTruthy();
  await page.keyboard.press('Control+k');
  const box = page.getByRole('textbox', { name: 'Search records' });
  await box.fill('WO-E2E-B');
  await expect(page.getByTestId('palette-hit').filter({ hasText: BULK_WORK_ORDER })).toBeVisible();
  await box.fill(uuid ?? '');
  await page.getByTestId('palette-direct').click();
  await expect(page).toHaveURL(new RegExp(`/workorders/uuid/${uuid}$`));
  await expect(page.getByTestId('wo-title')).toHaveText(BULK_WORK_ORDER);
  await expect(page.getByTestId('total-count')).toHaveText(en.format(a.count));

  // A filter: the URL, the totals and the rows change.
  await page.getByTestId('filter-invoicing').getByText('Not billable').click();
  await expect(page).toHaveURL(/invoicing=notBillable/);
  await expect(page.getByTestId('total-count')).toHaveText(en.format(a.notBillable.count));
  await expect(page.getByTestId('activities-loaded')).toHaveText(
    new RegExp(` of ${en.format(a.notBillable.count)} loaded`),
  );
  await expect(page.locator('[data-testid="activities-row"]').first()).toContainText('No');

  // A column's menu, from the keyboard: its header takes the focus and opens it (issue 27, 3:
  // the header is the menu's trigger, no button hidden over it), and moves the column.
  const columns = () =>
    page
      .getByTestId('activities-grid')
      .locator('thead th')
      .evaluateAll((ths) => ths.map((th) => th.dataset.column));
  const menu = page.getByRole('button', { name: 'Column Duration' });
  await menu.focus();
  await expect(menu).toBeFocused();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Move left' }).click();
  await expect.poll(async () => (await columns()).slice(3, 6)).toEqual(['start', 'duration', 'end']);
  await page.getByRole('button', { name: 'Reset columns' }).click();
  await expect.poll(async () => (await columns()).slice(3, 6)).toEqual(['start', 'end', 'duration']);

  // CSV of every page of the filtered list (not only the rows loaded): the pages after the
  // rows loaded are read, not those again; the rate limit met on the way is waited out as
  // long as its Retry-After says, the wait shown (issue 27, 6).
  const reads = listReads(page);
  let refused = false;
  await page.route(/\/activities\?.*continuationToken=/, async (route) => {
    if (refused) return route.continue();
    refused = true;
    await route.fulfill({
      status: 429,
      headers: { 'retry-after': '3', 'content-type': 'application/json' },
      body: JSON.stringify({
        errors: [{ code: 'rate.limit', message: 'Rate limit of the high range reached; retry in 3 s' }],
        errorReference: 'e2e',
      }),
    });
  });
  const download = page.waitForEvent('download');
  await page.getByTestId('export-activities').click();
  await expect(page.getByTestId('export-wait')).toContainText(
    /The list's rate limit is reached: reading goes on in [1-3] seconds?\./,
  );
  await shot(page, 'export-wait');
  const lines = csvLines(await (await download).path());
  expect(reads.length).toBeGreaterThan(1);
  expect(reads.every((token) => token !== '')).toBe(true);
  expect(lines[0]).toBe(
    'activityId,activityTypeCode,agentCode,startTime,endTime,duration,billable,validatedAt,lastUpdate',
  );
  expect(lines.length).toBe(a.notBillable.count + 1);
  expect(lines.slice(1).every((l) => l.split(',')[6] === 'false')).toBe(true);
  await expect(page.getByTestId('export-done')).toBeVisible();

  // Used items: the totals by invoice mode come from the aggregate.
  await page.getByTestId('tab-items').click();
  await expect(page).toHaveURL(/tab=items/);
  const u = BULK_EXPECTED.usedItems;
  const money = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  await expect(page.getByTestId('total-items')).toHaveText(en.format(u.all.count));
  await expect(page.getByTestId('total-amount')).toHaveText(money.format(u.all.amount));
  await page.getByTestId('filter-invoice-mode').getByText('Internal').click();
  await expect(page).toHaveURL(/invoiceMode=internal/);
  await expect(page.getByTestId('total-items')).toHaveText(en.format(u.internal.count));
  // The export's notification is gone (axe on a fading one measures its half-transparent text).
  await expect(page.getByTestId('export-done')).toBeHidden({ timeout: 15_000 });
  await checkPage(page, 'used-items');
  await expectHeadersWhole(page, 'items');
  await expectTextWhole(page.getByTestId('items-row').locator('td'));
  // In French too: "Facturation" is wider than its column, and breaks at its soft hyphen.
  await page.getByTestId('language-menu').click();
  await page.getByTestId('language-fr').click();
  await expect(page.getByTestId('items-grid').locator('thead')).toContainText('Technicien');
  await expectHeadersWhole(page, 'items');
  // The French values too ("Main-d'œuvre").
  await expectTextWhole(page.getByTestId('items-row').locator('td'));
  // The long breadcrumb (a uuid) gives way to the header's controls, in the longer French.
  await expectOneLine(page.getByRole('banner').getByRole('button'));
  await shot(page, 'used-items-fr');
});

test('a work order of another office is not found', async ({ page }) => {
  await signIn(page, USERS.north.login, USERS.north.password, '/workorders/WO-E2E-S');
  await expect(
    page.getByRole('heading', { name: 'Work order not found' }).or(page.getByText('Work order not found')),
  ).toBeVisible();
  await expect(page.getByTestId('empty-state')).toContainText('WO-E2E-S');
  await checkPage(page, 'not-found');
});

test('the technician page draws the day as a trace with a time slider', async ({ page }) => {
  await signIn(
    page,
    USERS.north.login,
    USERS.north.password,
    `/technicians/${BULK_TECHNICIAN}?day=${BULK_DAY}`,
  );
  const trace = page.getByTestId('trace');
  const n = BULK_EXPECTED.positions.count;
  await expect(trace).toHaveAttribute('data-points', String(n));
  await expect(trace).toHaveAttribute('data-shown', String(n));
  const d = (await page.getByTestId('trace-path').getAttribute('d')) ?? '';
  expect(d.startsWith('M')).toBe(true);
  expect(d.split('L').length).toBe(n);
  await expect(page.getByTestId('trace-current')).toBeVisible();
  await expect(page.getByTestId('positions-count')).toHaveText(`${n} positions`);
  // The slider to the start of the day: one point shown, the URL holds the minute.
  const thumb = page.getByRole('slider', { name: 'Time of the day' });
  await thumb.focus();
  await page.keyboard.press('Home');
  await expect(trace).toHaveAttribute('data-shown', '1');
  await expect(page).toHaveURL(/at=420/);
  await page.keyboard.press('ArrowRight');
  await expect(trace).toHaveAttribute('data-shown', '2');
  await expect(page.getByTestId('trace-time')).toHaveText('At 07:01 UTC');
  // The positions' time, latitude and longitude whole (issue 27, 5).
  await expectTextWhole(page.getByTestId('list-row').locator('td'));
  // Every column of the positions in view, none behind a horizontal scroll.
  expect(await page.getByTestId('list-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await checkPage(page, 'technician');

  // The days step with a button each way (issue 27, 11); the day reads in the console's
  // language, its zone named in the field.
  const dayField = page.getByTestId('technician-day');
  await expect(dayField).toHaveValue('Jun 2, 2025');
  await expect(page.getByTestId('input-zone')).toHaveText('UTC');
  await expect(page.getByTestId('technician-last-day')).toBeDisabled();
  await page.getByRole('button', { name: 'Next day' }).click();
  const next = new Date(Date.parse(`${BULK_DAY}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  await expect(page).toHaveURL(new RegExp(`day=${next}`));
  await expect(dayField).toHaveValue('Jun 3, 2025');
  await expect(page.getByTestId('empty-state')).toContainText(
    'The last positions were recorded on Jun 2, 2025.',
  );
  await page.getByRole('button', { name: 'Previous day' }).click();
  await expect(dayField).toHaveValue('Jun 2, 2025');
  await expect(trace).toHaveAttribute('data-points', String(n));
  // A day typed as YYYY-MM-DD is taken.
  await dayField.fill('2025-06-05');
  await dayField.press('Enter');
  await expect(page).toHaveURL(/day=2025-06-05/);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  // From a day without positions, one click to the last day that has some.
  await page.getByTestId('technician-last-day').click();
  await expect(page).toHaveURL(new RegExp(`day=${BULK_DAY}`));
  await expect(trace).toHaveAttribute('data-points', String(n));
});

test('the technician page opens on the last day with positions when today has none (issue 27, 11)', async ({
  page,
}) => {
  const spans: number[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/positions/span')) spans.push(r.status());
  });
  await signIn(page, USERS.north.login, USERS.north.password, `/technicians/${BULK_TECHNICIAN}`);
  await expect(page).toHaveURL(new RegExp(`day=${BULK_DAY}`));
  await expect(page.getByTestId('trace')).toHaveAttribute(
    'data-points',
    String(BULK_EXPECTED.positions.count),
  );
  await expect(page.getByTestId('technician-day')).toHaveValue('Jun 2, 2025');
  expect(spans).toEqual([200]);
  // In French, the day reads in French whatever the browser's locale.
  await page.getByTestId('language-menu').click();
  await page.getByTestId('language-fr').click();
  await expect(page.getByTestId('technician-day')).toHaveValue('2 juin 2025');
  await page.getByTestId('technician-day').click();
  await expect(page.locator('[data-dates-dropdown]')).toContainText('juin 2025');
  await page.keyboard.press('Escape');
  await checkPage(page, 'technician-last-day-fr');
  await page.getByTestId('language-menu').click();
  await page.getByTestId('language-en').click();
  // A technician without any position: today, and no last day to go to.
  await page.goto('/technicians/TECH-N2');
  await expect(page.getByTestId('empty-state')).toContainText(
    'No position was ever recorded for this technician.',
  );
  await expect(page.getByTestId('technician-last-day')).toBeDisabled();
  await expect(page).not.toHaveURL(/day=/);
});

test('schedule, flags and notes from the work order page', async ({ page }) => {
  await signIn(page, USERS.north.login, USERS.north.password, '/workorders/WO-E2E-2?tab=planning');
  const panel = page.getByTestId('workorder-planning');
  await expect(panel.getByTestId('schedule-current')).toHaveText('Not scheduled yet.');

  // A technician without the type's skill (GAS-SERVICE needs GAS): the sentence on its input.
  await panel.getByTestId('schedule-resource').fill('TECH-N2');
  await panel.getByTestId('schedule-start').fill('2031-03-04T09:00');
  await panel.getByTestId('schedule-submit').click();
  await expect(panel.getByText('This technician lacks a skill the work needs.')).toBeVisible();
  await expect(panel.getByTestId('schedule-resource')).toHaveAttribute('aria-invalid', 'true');
  // One who has it: scheduled, and the header shows the technician.
  await panel.getByTestId('schedule-resource').fill('tech-n1');
  await panel.getByTestId('schedule-submit').click();
  await expect(panel.getByTestId('schedule-done')).toBeVisible();
  await expect(panel.getByTestId('schedule-current')).toContainText('TECH-N1');
  await expect(panel.getByTestId('schedule-current')).toContainText('SCHEDULED');
  await expect(page.getByTestId('wo-technician')).toHaveText('TECH-N1');

  // Flags: pick one, save, and it is there after a reload.
  await panel.getByTestId('flags-input').click();
  await page.getByRole('option', { name: 'Urgent' }).click();
  await page.keyboard.press('Escape');
  await panel.getByTestId('flags-save').click();
  await expect(panel.getByTestId('flags-save')).toBeDisabled();
  // A note.
  await panel.getByTestId('note-code').fill('visit');
  await panel.getByTestId('note-content').fill('Gate code 1234');
  await panel.getByTestId('note-save').click();
  await expect(panel.getByTestId('notes-table')).toContainText('VISIT');
  await expect(panel.getByTestId('notes-table')).toContainText('Gate code 1234');
  await checkPage(page, 'planning-panel');

  await page.reload();
  await expect(page.getByTestId('flags-panel').getByText('Urgent')).toBeVisible();
  await expect(page.getByTestId('notes-table')).toContainText('Gate code 1234');
});

test('validate and delete from the work order page, each after a confirmation', async ({ page }) => {
  await signIn(page, USERS.north.login, USERS.north.password, '/workorders/WO-E2E-VAL');
  await expect(page.getByTestId('wo-title')).toHaveText('WO-E2E-VAL');
  // Cancel first: nothing changes.
  await page.getByTestId('wo-validate').click();
  const validate = page.getByRole('dialog', { name: 'Validate WO-E2E-VAL?' });
  await expect(validate).toBeVisible();
  await validate.getByRole('button', { name: 'Cancel' }).click();
  await expect(validate).toBeHidden();
  const status = page.getByTestId('wo-status').first();
  await expect(status).toHaveAttribute('data-status', 'COMPLETED');
  // Confirmed: VALIDATED, and the button says why it cannot be pressed again.
  await page.getByTestId('wo-validate').click();
  await page.getByTestId('confirm-validate-confirm').click();
  await expect(page.getByText('WO-E2E-VAL is validated.')).toBeVisible();
  await expect(status).toHaveAttribute('data-status', 'VALIDATED');
  await expect(page.getByTestId('wo-validate')).toBeDisabled();
  await expect(page.getByTestId('wo-validate')).toHaveAttribute(
    'title',
    'This work order is validated already.',
  );
  // The page as it stays (the notification's dimmed text is closed first, as in the other specs).
  await page.getByRole('button', { name: 'Close the notification' }).click();
  await checkPage(page, 'validated');

  await page.goto('/workorders/WO-E2E-DEL');
  await expect(page.getByTestId('wo-title')).toHaveText('WO-E2E-DEL');
  await page.getByTestId('wo-delete').click();
  await expect(page.getByRole('dialog', { name: 'Delete WO-E2E-DEL?' })).toBeVisible();
  await page.getByTestId('confirm-delete-confirm').click();
  // Back on the list, with the notification; the work order is gone.
  await expect(page).toHaveURL(/\/workorders(\?.*)?$/);
  await expect(page.getByText('WO-E2E-DEL was deleted.')).toBeVisible();
  await page.goto('/workorders/WO-E2E-DEL');
  await expect(page.getByText('Work order not found')).toBeVisible();
});
