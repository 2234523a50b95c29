/**
 * What the console costs the service (issue 27, 1): API calls to reach Home after sign-in,
 * per palette keystroke, and ten palette queries in a row without a 429 (the palette spends
 * only its own `interactive` range, at its default limits here: e2e/support/server.mjs raises
 * the spec's ranges only). The figures are printed for docs/console.md ("What it costs").
 */
import type { Page, Request } from '@playwright/test';
import {
  expect,
  expectAccessible,
  networkSettled,
  screenshot,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';

const SEARCH = '/eTech/rest/ws/console/v1/search';

const STREAM = '/eTech/rest/ws/changes/v1/stream';

/**
 * The API calls the page makes from now on (not the sign-in's OAuth exchanges); the change
 * stream (one connection the console keeps open, issue 29) is counted apart.
 */
function recordCalls(page: Page) {
  const calls: string[] = [];
  const streams: string[] = [];
  const statuses: number[] = [];
  const onRequest = (r: Request) => {
    const { pathname, search } = new URL(r.url());
    if (pathname === STREAM) streams.push(pathname);
    else if (pathname.startsWith('/eTech/rest/ws/') || pathname.startsWith('/rest/ws/'))
      calls.push(`${r.method()} ${pathname}${search}`);
  };
  page.on('request', onRequest);
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/eTech/rest/ws/')) statuses.push(r.status());
  });
  return {
    calls,
    streams,
    statuses,
    reset: () => calls.splice(0),
    stop: () => page.off('request', onRequest),
  };
}

test('Home costs two calls; the palette one call per pause, only its own range, no 429 in ten queries', async ({
  page,
}) => {
  // Sixteen palette queries typed key by key: past the default 45 s on a loaded machine.
  test.setTimeout(90_000);
  const rec = recordCalls(page);
  await signIn(page, USERS.admin.login, USERS.admin.password);
  await expect(page.getByTestId('home-area').first()).toBeVisible();
  await expect(page.getByTestId('home-area').locator('.mantine-Skeleton-root')).toHaveCount(0);
  await networkSettled(page);
  const home = [...rec.calls];
  console.log(`Home after sign-in: ${home.length} API calls (${home.join(', ')})`);
  expect(home.map((c) => c.replace(/\?.*/, '')).sort()).toEqual([
    'GET /eTech/rest/ws/console/v1/home',
    'GET /eTech/rest/ws/console/v1/me',
  ]);
  // Beside them, one change stream for the whole console.
  expect(rec.streams).toHaveLength(1);

  // Typed with pauses longer than the debounce: at most one call per keystroke.
  rec.reset();
  await page.keyboard.press('Control+k');
  const box = page.getByRole('textbox', { name: 'Search records' });
  await expect(box).toBeFocused();
  await box.pressSequentially('GLOBEX', { delay: 400 });
  await expect(page.getByTestId('palette-hit').filter({ hasText: 'GLOBEX' })).toBeVisible();
  const slow = rec.calls.length;
  console.log(`palette, 6 keys typed 400 ms apart: ${slow} calls`);
  expect(slow).toBeGreaterThan(0);
  expect(slow).toBeLessThanOrEqual(6);
  // Typed at a normal pace: one call for the whole query (two when a loaded machine lets a
  // pause between two keys pass the debounce).
  rec.reset();
  await box.fill('');
  await box.pressSequentially('ACME-BOILER', { delay: 40 });
  await expect(page.getByTestId('palette-hit').filter({ hasText: 'ACME-BOILER-1' })).toBeVisible();
  console.log(`palette, 11 keys typed 40 ms apart: ${rec.calls.length} calls`);
  expect(rec.calls.length).toBeGreaterThanOrEqual(1);
  expect(rec.calls.length).toBeLessThanOrEqual(2);
  expect(rec.calls.every((c) => c.startsWith(`GET ${SEARCH}?`))).toBe(true);
  await expectAccessible(page, 'palette with hits');
  await screenshot(page, 'budget-palette');

  // Ten short queries in a row: no refusal, and each says what it found.
  rec.reset();
  for (const q of ['acme', 'glob', 'bulk', 'wo-e2e', 'tech', 'heat', 'prj', 'so-', 'zzz-none', 'north']) {
    await box.fill('');
    const answered = page.waitForResponse(
      (r) => r.url().includes(SEARCH) && new URL(r.url()).searchParams.get('q') === q,
    );
    await box.pressSequentially(q, { delay: 30 });
    expect((await answered).status()).toBe(200);
    await expect(page.getByTestId('palette-hit').first().or(page.getByText('Nothing found'))).toBeVisible();
    await expect(page.getByTestId('palette-failure')).toHaveCount(0);
  }
  console.log(
    `ten palette queries: ${rec.calls.length} calls, statuses ${[...new Set(rec.statuses)].join(',')}`,
  );
  expect(rec.statuses.filter((s) => s === 429)).toEqual([]);
  expect(rec.calls.every((c) => c.startsWith(`GET ${SEARCH}?`))).toBe(true);
  // One call a query (two when a loaded machine stretches a pause between keys past the debounce).
  expect(rec.calls.length).toBeGreaterThanOrEqual(10);
  expect(rec.calls.length).toBeLessThanOrEqual(20);
  rec.stop();
});

test('a throttled search is said in the palette, never as "Nothing found"', async ({ page }) => {
  await signIn(page, USERS.admin.login, USERS.admin.password);
  await page.route(`**${SEARCH}?*`, (route) =>
    route.fulfill({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '17' },
      body: JSON.stringify({
        errors: [
          { code: 'ratelimiter.toomanyrequest', message: 'Rate limit of the interactive range reached' },
        ],
        errorReference: 'e2e',
      }),
    }),
  );
  await page.keyboard.press('Control+k');
  await page.getByRole('textbox', { name: 'Search records' }).fill('ACME');
  const failure = page.getByTestId('palette-failure');
  await expect(failure).toHaveText('Too many searches for now: try again in 17 s.');
  await expect(page.getByText('Nothing found')).toHaveCount(0);
});
