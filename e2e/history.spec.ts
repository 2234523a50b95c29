/**
 * A record's History tab (issue 29 §2) against the real service: a customer created then
 * edited in the console shows who changed what, before -> after (a custom field included),
 * filtered by actor; a work order scheduled from its page shows the schedule in its history.
 */
import type { Locator, Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  networkSettled,
  screenshot,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';

const RUN = Date.now().toString(36).toUpperCase();
const CUSTOMER = `E2EH${RUN}`;
/** A work order no other spec touches. */
const WORK_ORDER = 'WO-E2E-P7';

test.describe.configure({ timeout: 90_000 });

const field = (scope: Page | Locator, label: string) =>
  scope
    .getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`))
    .and(scope.locator('input, textarea'));

test('a customer edited in the console: its History tab says who changed which field, before -> after', async ({
  page,
}) => {
  await signIn(page, USERS.admin.login, USERS.admin.password, '/referentials/customers/new');
  await field(page, 'Code').fill(CUSTOMER);
  await field(page, 'Name').fill('History before');
  await field(page, 'City').fill('Lille');
  await page.getByTestId('save').click();
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${CUSTOMER}$`));

  await page.getByTestId('edit').click();
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${CUSTOMER}/edit$`));
  await field(page, 'Name').fill('History after');
  await field(page, 'Note').fill('Call before coming');
  await page.getByTestId('save').click();
  await expect(page).toHaveURL(new RegExp(`/referentials/customers/${CUSTOMER}$`));

  await page.getByTestId('tab-history').click();
  const entries = page.getByTestId('history-entry');
  await expect(entries).toHaveCount(2);
  // Newest first: the edit, by the signed-in user, each field before -> after.
  const edit = entries.first();
  await expect(edit).toContainText('Updated');
  await expect(edit.getByTestId('history-actor-name')).toHaveText(`user ${USERS.admin.login}`);
  const name = edit.locator('tr[data-field="name"]');
  // The field's label, and under it its API name for integrators.
  await expect(name.getByTestId('history-field-label')).toHaveText('Name');
  await expect(name.getByTestId('history-field-name')).toHaveText('name');
  await expect(name.locator('.history-before')).toHaveText('History before');
  await expect(name.locator('.history-after')).toHaveText('History after');
  const note = edit.locator('tr[data-field="customFields.NOTE"]');
  await expect(note.getByTestId('history-field-label')).toHaveText('Custom field NOTE');
  await expect(note.getByTestId('history-field-name')).toHaveText('customFields.NOTE');
  await expect(note.locator('.history-before')).toHaveText('not set');
  await expect(note.locator('.history-after')).toHaveText('Call before coming');
  await expect(entries.last()).toContainText('Created');
  await networkSettled(page);
  await screenshot(page, 'history-customer');
  await expectAccessible(page, 'customer history');

  // By actor: another login has nothing here; the signed-in one has both.
  await page.getByTestId('history-actor').fill(USERS.north.login);
  await expect(page.getByText(`No change by ${USERS.north.login}`)).toBeVisible();
  await expectAccessible(page, 'history filtered to nothing');
  await page.getByTestId('history-actor').fill(USERS.admin.login);
  await expect(entries).toHaveCount(2);
});

test("a work order's history shows its scheduling", async ({ page }) => {
  await signIn(page, USERS.north.login, USERS.north.password, `/workorders/${WORK_ORDER}?tab=planning`);
  const panel = page.getByTestId('workorder-planning');
  await panel.getByTestId('schedule-resource').fill('TECH-N1');
  await panel.getByTestId('schedule-start').fill('2031-03-06T09:00');
  await panel.getByTestId('schedule-submit').click();
  await expect(panel.getByTestId('schedule-done')).toBeVisible();

  await page.getByTestId('tab-history').click();
  const scheduled = page.getByTestId('history-entry').filter({ hasText: 'Scheduled' }).first();
  await expect(scheduled).toBeVisible();
  await expect(scheduled.getByTestId('history-actor-name')).toHaveText(`user ${USERS.north.login}`);
  await expect(scheduled.getByTestId('history-fields')).toContainText('TECH-N1');
  const technician = scheduled.locator('tr[data-field="technicianCode"]');
  await expect(technician.getByTestId('history-field-label')).toHaveText('Technician');
  await expect(technician.getByTestId('history-field-name')).toHaveText('technicianCode');
  await expect(technician.locator('.history-after')).toHaveText('TECH-N1');
  const start = scheduled.locator('tr[data-field="scheduledStart"]');
  await expect(start.getByTestId('history-field-label')).toHaveText('Scheduled start');
  await expect(start.getByTestId('history-field-name')).toHaveText('scheduledStart');
  await networkSettled(page);
  await screenshot(page, 'history-workorder');
  await expectAccessible(page, 'work order history');
});

test('a page that fills the window (a project linker) opens its history in a dialog', async ({ page }) => {
  // A project no other spec changes (its history starts with its import).
  await signIn(page, USERS.admin.login, USERS.admin.password, '/projects/PRJ-E2E-ROOT');
  await page.getByTestId('tab-history').click();
  const dialog = page.getByRole('dialog', { name: 'History' });
  // Imported with the e2e data: created by the import process.
  const created = dialog.getByTestId('history-entry').filter({ hasText: 'Created' });
  await expect(created.first()).toBeVisible();
  await expect(created.first().getByTestId('history-actor-name')).toHaveText(/^process /);
  await expectAccessible(page, 'project history dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
