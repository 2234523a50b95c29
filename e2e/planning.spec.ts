/**
 * Planning pages end to end, against the e2e dataset (technicians TECH-N1/N2 of NORTH working
 * every day 08:00-17:00 Paris time, the work order WO-E2E-PLAN in Lille, the crew CREW-NORTH):
 * the planner searches the slots of a work order (the URL holds the search), a slot is picked
 * and scheduled, and the work order then shows on its technician's row; a period in the past
 * shows the 2003 sentence on the period field, from a shared link too; the crews timeline
 * shows CREW-NORTH with its members (the secondary of another office hidden). Each page is
 * checked with axe and screenshotted at 1280x800, in the Paris time zone.
 */
import { SLOT_ERRORS } from '../src/contract/slots.ts';
import {
  expect,
  expectAccessible,
  expectTextWhole,
  screenshot,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';

const NORTH = USERS.north;
const WO = 'WO-E2E-PLAN';

test.use({ timezoneId: 'Europe/Paris' });
test.describe.configure({ mode: 'serial', timeout: 90_000 });

test('planner: search the slots of a work order, schedule one, see it on the timeline', async ({ page }) => {
  await signIn(page, NORTH.login, NORTH.password, '/rostering/planner');
  await expect(page.getByRole('heading', { level: 1, name: 'Planner' })).toBeVisible();
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await expectAccessible(page, 'planner (new search)');

  // The work order, picked among the suggestions; its needs show, and only its own: no
  // work order is read for the half-typed code (issue 27, 11).
  const read: string[] = [];
  page.on('request', (r) => {
    const code = /\/code:(WO-[^/?]*)/.exec(decodeURIComponent(r.url()))?.[1];
    if (code) read.push(code);
  });
  const wo = page.getByTestId('wo-input');
  await wo.click();
  await wo.fill('wo-e2e-pl');
  await page.getByRole('option', { name: new RegExp(WO) }).click();
  await expect(page.getByTestId('needs-type')).toContainText('Repair (REPAIR) · 60 min');
  await expect(page.getByTestId('needs-card')).toContainText('ELEC');
  expect(read.length).toBeGreaterThan(0);
  expect(read.filter((code) => code !== WO)).toEqual([]);

  // Two days of January 2030, Paris time.
  await page.getByTestId('range-start').first().fill('2030-01-14T08:00');
  await page.getByTestId('range-end').first().fill('2030-01-15T18:00');
  await page.getByTestId('search-slots').click();
  // The bounds read in the console's language, 24-hour, with their zone (issue 27, 11).
  await expect(page.getByTestId('range-start').first()).toHaveValue('Jan 14, 2030 08:00');
  await expect(page.getByTestId('range-end').first()).toHaveValue('Jan 15, 2030 18:00');
  await expect(page.getByTestId('field-ranges').getByTestId('input-zone').first()).toHaveText('GMT+1');

  // The URL holds the search (UTC), the slots show on the timeline.
  await expect(page).toHaveURL(/wo=WO-E2E-PLAN/);
  await expect(page).toHaveURL(/period=ranges/);
  await expect(page).toHaveURL(/2030-01-14T07%3A00%2F2030-01-15T17%3A00|2030-01-14T07:00\/2030-01-15T17:00/);
  await expect(page.getByTestId('results-summary')).toContainText('slots');
  const slots = page.getByTestId('timeline-slot');
  await expect(slots.first()).toBeVisible();
  await expect(page.getByTestId('timeline-technician').first()).toContainText('TECH-N');
  // The offers spread across the technicians (issue 27, 11): at most 5 each, both offered.
  const perTechnician = await page.getByTestId('timeline-technician').allInnerTexts();
  expect(perTechnician).toHaveLength(2);
  for (const row of perTechnician) expect(Number(/(\d+) slots?/.exec(row)?.[1])).toBeLessThanOrEqual(5);
  await expect(page.getByTestId('timeline-day')).toHaveCount(2);
  // The work orders already booked on the technicians: WO-E2E-P3 on TECH-N1 on the 14th, 10:00 Paris.
  await expect(
    page.getByRole('img', { name: /WO-E2E-P3 booked on TECH-N1, Mon, Jan 14, 10:00 – 11:00/ }),
  ).toBeVisible();
  await expectAccessible(page, 'planner timeline');
  await screenshot(page, 'planning-timeline');

  // Pick the best slot: why it scored so; schedule it after confirming.
  await slots.first().click();
  const details = page.getByTestId('slot-details');
  await expect(details).toBeVisible();
  await expect(details.getByTestId('score-travel')).toContainText('Travel');
  await expect(details.getByTestId('score-workload')).toContainText('working minutes');
  const title = await details.locator('h3').innerText();
  const technician = title.split(' · ')[0];
  await details.getByTestId('schedule-slot').click();
  const dialog = page.getByRole('dialog', { name: 'Schedule the work order' });
  await expect(dialog.getByTestId('schedule-summary')).toContainText(WO);
  await expect(dialog.getByTestId('schedule-summary')).toContainText(technician);
  await expectAccessible(page, 'schedule confirmation');
  await dialog.getByTestId('schedule-confirm').click();
  await expect(dialog).toBeHidden();

  // Scheduled: the alert, the needs card, and the work order on its technician's row.
  await expect(page.getByTestId('scheduled-alert')).toContainText(`${WO} is now on ${technician}`);
  // Announced once: the alert, no notification saying it again (issue 27, 10).
  await expect(page.getByText(`${WO} is scheduled`)).toHaveCount(1);
  await expect(page.getByTestId('needs-schedule')).toContainText(technician);
  const picked = page.getByTestId('timeline-picked');
  await expect(picked).toBeVisible();
  await expect(picked).toHaveAccessibleName(new RegExp(`${WO} scheduled on ${technician}`));
  await screenshot(page, 'planning-scheduled');

  // The same slots as a list, each with its travel and why.
  await page.getByTestId('tab-list').click();
  await expect(page).toHaveURL(/view=list/);
  // Travel before and after (minutes, kilometres, from where), the score and its parts.
  await expect(page.getByTestId('list-row').first()).toContainText(/\d+ min · [\d.]+ km · (home|WO-)/);
  await expect(page.getByTestId('list-row').first()).toContainText(/[\d.]+\/50 · [\d.]+\/30 · [\d.]+\/20/);
  await expectAccessible(page, 'planner list');
  await screenshot(page, 'planning-list');
});

test('planner: a period in the past shows the 2003 sentence on the period field, from a link too', async ({
  page,
}) => {
  await signIn(page, NORTH.login, NORTH.password, `/rostering/planner?wo=${WO}`);
  await page.getByTestId('range-start').first().fill('2020-01-06T08:00');
  await page.getByTestId('range-end').first().fill('2020-01-07T18:00');
  await page.getByTestId('search-slots').click();
  await expect(page.getByTestId('search-refused')).toBeVisible();
  const periodError = page.getByTestId('field-ranges').getByTestId('error-ranges');
  await expect(periodError).toHaveText(SLOT_ERRORS['2003'].message);
  await expectAccessible(page, 'planner refused');
  await screenshot(page, 'planning-past');

  // The link reproduces the search, and its answer.
  await page.reload();
  await expect(page.getByTestId('field-ranges').getByTestId('error-ranges')).toHaveText(
    SLOT_ERRORS['2003'].message,
  );

  // A type of work and a place instead of a work order: the type's needs, the place inputs.
  await page.getByText('A type of work and a place').click();
  await page.getByTestId('field-type').getByLabel('Work order type').click();
  await page.getByRole('option', { name: /GAS-SERVICE/ }).click();
  await expect(page.getByTestId('field-type')).toContainText('90 min · skills: GAS');
  await expect(page.getByTestId('field-place').getByRole('textbox', { name: 'City' })).toBeVisible();
  await expectAccessible(page, 'planner, type and place');
});

test('crews: the timeline shows CREW-NORTH and its members over the period', async ({ page }) => {
  await signIn(page, NORTH.login, NORTH.password, '/rostering/crews?from=2030-01-14&to=2030-01-27');
  await expect(page.getByRole('heading', { level: 1, name: 'Crews' })).toBeVisible();
  // The period's days read in the console's language, their zone named (issue 27, 11).
  await expect(page.getByTestId('crews-from')).toHaveValue('Jan 14, 2030');
  await expect(page.getByTestId('crews-to')).toHaveValue('Jan 27, 2030');
  await expect(page.getByTestId('input-zone').first()).toHaveText('GMT+1');
  const crew = page.getByTestId('crew-row').filter({ hasText: 'CREW-NORTH' });
  await expect(crew).toBeVisible();
  const members = page.getByTestId('crew-member-row');
  await expect(members.filter({ hasText: 'TECH-N1' })).toContainText('main');
  // A member's name opens the technician (issue 27, 11).
  await expect(members.filter({ hasText: 'TECH-N1' }).getByRole('link', { name: 'TECH-N1' })).toHaveAttribute(
    'href',
    '/technicians/TECH-N1',
  );
  await expect(members.filter({ hasText: 'TECH-N2' })).toBeVisible();
  // TECH-S1 belongs to SOUTH: hidden from a NORTH user.
  await expect(members.filter({ hasText: 'TECH-S1' })).toHaveCount(0);
  // Open-ended intervals run over the whole period: one bar across the 14 days.
  await expect(page.getByTestId('timeline-day')).toHaveCount(14);
  // At 1280 px the two weeks fit: no scrolling sideways, no day label cut short.
  const timeline = page.getByTestId('crews-timeline');
  expect(await timeline.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
  await expectTextWhole(page.getByTestId('timeline-day'));
  await expect(members.filter({ hasText: 'TECH-N2' }).getByTestId('crew-interval')).toHaveAccessibleName(
    /TECH-N2, member of CREW-NORTH, Monday, January 14, 2030 to Sunday, January 27, 2030/,
  );
  await expectAccessible(page, 'crews');
  await screenshot(page, 'planning-crews');

  // The next period, by the arrow: the URL follows.
  await page.getByRole('button', { name: 'Next 14 days' }).click();
  await expect(page).toHaveURL(/from=2030-01-28&to=2030-02-10/);
  await expect(page.getByTestId('crew-row').filter({ hasText: 'CREW-NORTH' })).toBeVisible();
});
