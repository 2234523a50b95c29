/**
 * The dispatch board end to end (issue 28, 3), on the office FLEET of e2e/support/bulk.mjs:
 * 2,000 technicians (20 pages of the board's read), WO-E2E-BDB booked on FLEET-0001 at 09:00
 * UTC on BOARD_DAY, WO-E2E-BD1..3 to schedule. The browser runs in UTC, so the day view
 * draws 06:00 to 21:00 UTC across each lane.
 */
import type { Locator, Page } from '@playwright/test';
import { BOARD_PATH, BOARD_READ } from './support/bulk.mjs';
import {
  expect,
  expectAccessible,
  recordCalls,
  screenshot,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';

test.use({ timezoneId: 'UTC' });

const FIRST_HOUR = 6;
const HOURS = 15;
const CHECK = '/rest/v3/slots/check';

/** The point of a lane at an hour (UTC) of BOARD_DAY. */
async function pointAt(lane: Locator, hour: number) {
  const box = await lane.boundingBox();
  if (!box) throw new Error('lane not shown');
  return { x: box.x + ((hour - FIRST_HOUR + 0.05) / HOURS) * box.width, y: box.y + box.height / 2 };
}

/** Starts dragging `source` and holds it over the lane at `hour` (the button stays down). */
async function dragOver(page: Page, source: Locator, lane: Locator, hour: number) {
  const from = await source.boundingBox();
  if (!from) throw new Error('source not shown');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  const to = await pointAt(lane, hour);
  await page.mouse.move(to.x, to.y, { steps: 6 });
}

test('drag from the queue: refused over a busy time before the drop, scheduled on a free one', async ({
  page,
}) => {
  await signIn(page, USERS.admin.login, USERS.admin.password, `${BOARD_PATH}&wo=WO-E2E-BD1`);
  const card = page.getByTestId('queue-card').filter({ hasText: 'WO-E2E-BD1' });
  await expect(card).toBeVisible();
  const lane = page.locator('[data-lane="FLEET-0001"]');
  await expect(lane.getByTestId('board-bar').filter({ hasText: 'WO-E2E-BDB' })).toBeVisible();

  // Over the busy time: the target says why it does not fit while the button is still down.
  const calls = recordCalls(page);
  await dragOver(page, card, lane, 9.25);
  const verdict = lane.getByTestId('board-verdict');
  await expect(verdict).toHaveAttribute('data-fits', 'false');
  await expect(verdict).toContainText('overlaps WO-E2E-BDB');
  await expectAccessible(page, 'board, dragging over a busy time');
  await screenshot(page, 'board-drag-refused-1280');
  await page.mouse.up();
  await expect(card.getByTestId('queue-refusal')).toContainText('Not scheduled: overlaps WO-E2E-BDB');
  await expect(page.getByTestId('board-announcer')).toContainText('WO-E2E-BD1 not scheduled');
  // One check per target held, not one per mouse move; nothing scheduled.
  expect(calls.filter((c) => c === `POST ${CHECK}`).length).toBeLessThanOrEqual(2);
  expect(calls.some((c) => c.startsWith('PUT '))).toBe(false);

  // A free time: it fits (the travel shown), the drop schedules it, the bar shows, the queue empties.
  await dragOver(page, card, lane, 13);
  await expect(verdict).toHaveAttribute('data-fits', 'true');
  await expect(verdict).toContainText('Fits');
  await page.mouse.up();
  const bar = lane.getByTestId('board-bar').filter({ hasText: 'WO-E2E-BD1' });
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAccessibleName(
    /WO-E2E-BD1, Repair, no customer, Scheduled, FLEET-0001, .*13:00 – 14:00/,
  );
  await expect(page.getByTestId('board-announcer')).toContainText('WO-E2E-BD1 scheduled on FLEET-0001');
  await expect(card).toHaveCount(0);

  // The week of the day: the same bars, in the URL; the next week has none of them.
  await page.getByText('Week', { exact: true }).click();
  await expect(page).toHaveURL(/view=week/);
  await expect(bar).toBeVisible();
  await page.getByRole('button', { name: 'Next week' }).click();
  await expect(page).toHaveURL(/date=2030-02-11/);
  await expect(lane.getByTestId('board-bar')).toHaveCount(0);
});

test('a keyboard pick made before the rows arrive lands on the first row once they do', async ({ page }) => {
  // The board's read held until the work order is picked.
  let answerRows = () => {};
  const held = new Promise<void>((resolve) => {
    answerRows = resolve;
  });
  await page.route(
    (url) => url.pathname === BOARD_READ,
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await signIn(page, USERS.admin.login, USERS.admin.password, `${BOARD_PATH}&wo=WO-E2E-BD2`);
  const card = page.getByTestId('queue-card').filter({ hasText: 'WO-E2E-BD2' });
  await expect(card).toBeVisible();
  await expect(page.getByTestId('board-row')).toHaveCount(0);
  await card.focus();
  await page.keyboard.press('Enter');
  const announcer = page.getByTestId('board-announcer');
  answerRows();
  await expect(announcer).toContainText('WO-E2E-BD2 picked, at FLEET-0001');
  await page.keyboard.press('Escape');
  await expect(announcer).toContainText('WO-E2E-BD2 put back');
});

test('keyboard move: pick, arrows, Enter; announced', async ({ page }) => {
  await signIn(page, USERS.admin.login, USERS.admin.password, `${BOARD_PATH}&wo=WO-E2E-BD2`);
  // The rows first, as a reader sees them (a pick before them: the test above).
  await expect(page.getByTestId('board-row').first()).toContainText('FLEET-0001');
  const card = page.getByTestId('queue-card').filter({ hasText: 'WO-E2E-BD2' });
  await card.focus();
  await page.keyboard.press('Enter');
  const announcer = page.getByTestId('board-announcer');
  await expect(announcer).toContainText('WO-E2E-BD2 picked, at FLEET-0001');
  // FLEET-0001 at 08:00, then 09:00 (busy: said), then down to FLEET-0002 at 09:00.
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await expect(announcer).toContainText(/FLEET-0001, .*09:00: Does not fit: overlaps WO-E2E-BDB/);
  await page.keyboard.press('ArrowDown');
  await expect(announcer).toContainText(/FLEET-0002, .*09:00: Fits/);
  await expectAccessible(page, 'board, a work order picked with the keyboard');
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, 'board-keyboard-1440');
  await page.keyboard.press('Enter');
  await expect(announcer).toContainText('WO-E2E-BD2 scheduled on FLEET-0002');
  const bar = page
    .locator('[data-lane="FLEET-0002"]')
    .getByTestId('board-bar')
    .filter({ hasText: 'WO-E2E-BD2' });
  await expect(bar).toBeVisible();

  // The bar's menu: move it with the keyboard (Escape puts it back), then unschedule it.
  await bar.focus();
  await page.keyboard.press('Enter');
  const move = page.getByRole('menuitem', { name: 'Move with the arrow keys' });
  await expect(move).toBeVisible();
  await expectAccessible(page, "board, a bar's menu open");
  await move.focus();
  await page.keyboard.press('Enter');
  await expect(announcer).toContainText('WO-E2E-BD2 picked, at FLEET-0002');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  await expect(announcer).toContainText('WO-E2E-BD2 put back');
  await bar.focus();
  await page.keyboard.press('Enter');
  const unschedule = page.getByRole('menuitem', { name: 'Unschedule (back to the queue)' });
  await unschedule.focus();
  await page.keyboard.press('Enter');
  await expect(announcer).toContainText('WO-E2E-BD2 unscheduled');
  await expect(bar).toHaveCount(0);
  await expect(card).toContainText('Qualified');
});

test('planner, "Why not…?": the technician left out, said why, their day drawn with the reason', async ({
  page,
}) => {
  // One slot asked for: of NORTH's two technicians, one has it, the other is outranked.
  const ranges = encodeURIComponent('2030-01-21T07:00/2030-01-21T16:00');
  await signIn(
    page,
    USERS.north.login,
    USERS.north.password,
    `/rostering/planner?wo=WO-E2E-1&type=REPAIR&period=ranges&ranges=${ranges}&max=1`,
  );
  await expect(page.getByTestId('timeline-slot')).toHaveCount(1);
  const whyNot = page.getByTestId('why-not');
  await expect(whyNot).toContainText('Why not…?');
  const row = whyNot.getByTestId('why-not-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Outranked');
  await expect(row).toContainText(
    /Best slot Mon, Jan 21, \d\d:\d\d – \d\d:\d\d, score \d+\.\d: below the last one shown/,
  );
  await row.click();
  await expect(row).toHaveAttribute('aria-pressed', 'true');
  const day = whyNot.getByTestId('why-not-day');
  await expect(day).toContainText(/TECH-N[12], Monday, January 21, 2030/);
  await expect(day.getByTestId('why-not-mark')).toBeVisible();
  await expect(day.getByRole('img')).toHaveAccessibleName(/Outranked, Best slot/);
  await expectAccessible(page, 'planner, why not');
  await screenshot(page, 'planner-why-not-1280');
});

test('a refusal of the schedule PUT stays on the card, and the row it touched is read again', async ({
  page,
}) => {
  await signIn(page, USERS.admin.login, USERS.admin.password, `${BOARD_PATH}&wo=WO-E2E-BD3`);
  // The service refuses what the check let through (someone else changed the technician).
  await page.route('**/scheduling/v1/workOrders/code:WO-E2E-BD3/schedule', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({
        errors: [
          { code: 'scheduling.technician.absent', message: 'Technician FLEET-0003 is absent at that time' },
        ],
        errorReference: null,
      }),
    }),
  );
  await expect(page.getByTestId('board-row').first()).toContainText('FLEET-0001');
  const calls = recordCalls(page);
  const rowRead = page.waitForRequest(
    (r) => r.url().includes(BOARD_READ) && new URL(r.url()).searchParams.get('q') === 'FLEET-0003',
  );
  const card = page.getByTestId('queue-card').filter({ hasText: 'WO-E2E-BD3' });
  await card.focus();
  await page.keyboard.press('Enter');
  const announcer = page.getByTestId('board-announcer');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(announcer).toContainText(/FLEET-0003, .*08:00: Fits/);
  await page.keyboard.press('Enter');
  await expect(card.getByTestId('queue-refusal')).toContainText(
    'Not scheduled: Technician FLEET-0003 is absent at that time',
  );
  await expect(announcer).toContainText('WO-E2E-BD3 not scheduled: Technician FLEET-0003 is absent');
  await rowRead;
  // Only that row: not the whole board again.
  expect(calls.filter((c) => c === `GET ${BOARD_READ}`)).toHaveLength(1);

  // The technicians' search, in the URL.
  await page.getByTestId('board-search').fill('fleet-0007');
  await expect(page).toHaveURL(/q=fleet-0007/);
  await expect(page.getByTestId('board-row')).toHaveCount(1);
  await expect(page.getByTestId('board-row')).toContainText('FLEET-0007');
});
