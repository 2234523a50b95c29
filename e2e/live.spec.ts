/**
 * The live console (issue 29 §3) with two users (admin and backoffice, who may edit NORTH's
 * customers) in two browser contexts against the real
 * service: a change by one shows in the other's open record page and list without a reload,
 * an edit form whose record changes underneath says "changed by X just now" and offers to
 * reload (the user's typing stays otherwise), and the header says "Reconnecting" while the
 * stream is down, then "Live" again, with what was missed meanwhile.
 */
import type { Browser, Locator, Page } from '@playwright/test';
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
const CUSTOMER = `E2EL${RUN}`;
const DETAIL = `/referentials/customers/${CUSTOMER}`;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

const field = (scope: Page | Locator, label: string) =>
  scope
    .getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`))
    .and(scope.locator('input, textarea'));

async function session(browser: Browser, who: keyof typeof USERS, path: string) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  await signIn(page, USERS[who].login, USERS[who].password, path);
  await expect(page.getByTestId('live-state')).toHaveAttribute('data-state', 'live');
  return page;
}

/** The admin renames the customer through its edit form; the time the save was answered. */
async function rename(page: Page, name: string) {
  await page.goto(`${DETAIL}/edit`);
  await expect(field(page, 'Name')).toBeEditable();
  await field(page, 'Name').fill(name);
  await page.getByTestId('save').click();
  await expect(page).toHaveURL(new RegExp(`${DETAIL}$`));
  return Date.now();
}

let admin: Page;
let other: Page;

test.beforeAll(async ({ browser }) => {
  admin = await session(browser, 'admin', '/referentials/customers/new');
  await field(admin, 'Code').fill(CUSTOMER);
  await field(admin, 'Name').fill('Live one');
  await field(admin, 'City').fill('Lille');
  await field(admin, 'Office').click();
  await field(admin, 'Office').fill('NORTH');
  await admin
    .getByRole('option', { name: /^NORTH/ })
    .first()
    .click();
  await admin.getByTestId('save').click();
  await expect(admin).toHaveURL(new RegExp(`${DETAIL}$`));
  other = await session(browser, 'backoffice', DETAIL);
});

test.afterAll(async () => {
  await admin?.context().close();
  await other?.context().close();
});

test("another user's change shows on the open record page and list without a reload", async () => {
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Live one');
  const saved = await rename(admin, 'Live two');
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Live two');
  console.log(`record page: the change showed ${Date.now() - saved} ms after the save answered`);

  await other.goto(`/referentials/customers?q=${CUSTOMER}`);
  await expect(other.getByText('Live two')).toBeVisible();
  const again = await rename(admin, 'Live three');
  await expect(other.getByText('Live three')).toBeVisible();
  console.log(`list: the change showed ${Date.now() - again} ms after the save answered`);
  await expect(other.getByTestId('live-state')).toHaveText('Live');
  await screenshot(other, 'live-list');
});

test('an edit form whose record changes underneath says who changed it and offers to reload', async () => {
  await other.goto(`${DETAIL}/edit`);
  await expect(field(other, 'Name')).toHaveValue('Live three');
  await field(other, 'Name').fill('Typed by the back office');
  await rename(admin, 'Live four');

  const notice = other.getByTestId('record-changed');
  await expect(notice).toContainText(`Changed by ${USERS.admin.login} just now`);
  // The form keeps what was typed until the user chooses.
  await expect(field(other, 'Name')).toHaveValue('Typed by the back office');
  await networkSettled(other);
  await screenshot(other, 'live-changed-notice');
  await expectAccessible(other, 'changed by X notice');

  await other.getByTestId('record-changed-reload').click();
  await expect(field(other, 'Name')).toHaveValue('Live four');
  await expect(notice).toHaveCount(0);
});

test('the header says Reconnecting while the stream is down, then Live with what was missed', async () => {
  await other.goto(DETAIL);
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Live four');
  const state = other.getByTestId('live-state');
  await expect(state).toHaveAttribute('data-state', 'live');

  await other.context().setOffline(true);
  await expect(state).toHaveAttribute('data-state', 'reconnecting');
  await expect(state).toHaveText('Reconnecting…');
  await screenshot(other, 'live-reconnecting');
  await expectAccessible(other, 'reconnecting');
  // Changed while the other's stream is down: the resumed stream (Last-Event-ID) brings it.
  await rename(admin, 'Live five');

  await other.context().setOffline(false);
  await expect(state).toHaveAttribute('data-state', 'live', { timeout: 30_000 });
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Live five');
});
