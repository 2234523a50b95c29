/**
 * Helpers of the console's end-to-end tests:
 * - signIn(page, login, password, path?): opens `path` (default /), signs in on the
 *   service's form and waits for the console to show the page;
 * - expectAccessible(page, label): axe-core on the page, fails on serious or critical
 *   violations (listed in the failure message);
 * - screenshot(page, name): a full-page PNG in e2e/artifacts/, attached to the report;
 * - networkSettled(page): Playwright's `networkidle`, but the console's change stream (a
 *   fetch that stays open, issue 29) does not count as a request in flight.
 * Users of the e2e dataset (dataset.json), one per role: admin@ROOT (admin), north@NORTH
 * (planner), viewer@NORTH (viewer) and backoffice@NORTH (backOffice).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page, type Request } from '@playwright/test';

export const USERS = {
  admin: { login: 'admin', password: 'admin-pass', office: 'ROOT' },
  north: { login: 'north', password: 'north-pass', office: 'NORTH' },
  viewer: { login: 'viewer', password: 'viewer-pass', office: 'NORTH' },
  backoffice: { login: 'backoffice', password: 'backoffice-pass', office: 'NORTH' },
} as const;

const ARTIFACTS = join(process.cwd(), 'e2e/artifacts');

export async function fillLoginForm(page: Page, login: string, password: string) {
  await expect(page).toHaveURL(/\/oauth\/interaction\//);
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signIn(page: Page, login: string, password: string, path = '/') {
  track(page);
  await page.goto(path);
  await fillLoginForm(page, login, password);
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await expect(page.getByTestId('user-login')).toHaveText(login);
}

/**
 * `rules`: best-practice rules to run as well (e.g. `aria-dialog-name` on an open dialog),
 * in the same pass: a rule named in `rules` runs whatever its tags. Legacy mode: axe runs
 * in the page alone, without the blank page AxeBuilder otherwise opens to merge the
 * results of frames (the console has none), which cost a renderer and half of each check.
 */
export async function expectAccessible(page: Page, label: string, rules: string[] = []) {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      rules: Object.fromEntries(rules.map((rule) => [rule, { enabled: true }])),
    })
    .analyze();
  const ran = new Set(
    [...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable].map(
      (r) => r.id,
    ),
  );
  expect(
    rules.filter((rule) => !ran.has(rule)),
    `${label}: rules asked for but not run`,
  ).toEqual([]);
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad
    .map(
      (v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}`).join('\n')}`,
    )
    .join('\n');
  expect(bad, `${label}: accessibility violations\n${report}`).toEqual([]);
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  // A full-page capture of a scrolled page draws the fixed header where the scroll left
  // it, over the content: from the top, the image shows the page as laid out.
  await page.evaluate(() => window.scrollTo(0, 0));
  const body = await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { body, contentType: 'image/png' });
}

/**
 * Home shows one card per navigation entry (each feature's `nav`), so the count follows
 * the registered features instead of being written down in every spec. `navigation`: the
 * navbar's name in the console's language.
 */
export async function expectHomeAreas(page: Page, navigation = 'Main navigation') {
  const groups = page.getByRole('navigation', { name: navigation }).getByRole('group');
  await expect(groups.first()).toBeVisible();
  const entries = await groups.getByRole('link').count();
  expect(entries).toBeGreaterThanOrEqual(6);
  const areas = page.getByTestId('home-area');
  await expect(areas).toHaveCount(entries);
  // Once every count shows (a badge, wider than its placeholder), each title reads whole.
  await expect(areas.locator('.mantine-Skeleton-root')).toHaveCount(0);
  await expectTextWhole(areas.getByRole('heading'));
}

/**
 * The text of these elements reads whole: none is cut short by its box (clipped, or ended
 * with an ellipsis), and no word is split between two lines (a title squeezed by its
 * neighbours to a few letters a line). A word may still break after a hyphen, or at a soft
 * hyphen (U+00AD), where the browser then draws one.
 */
export async function expectTextWhole(elements: Locator) {
  const cut = await elements.evaluateAll((nodes) =>
    nodes.flatMap((node) => {
      // The text's own width against the box's, in fractions of a pixel: scrollWidth and
      // clientWidth are rounded, and an ellipsis shows for 42.3 px of text in a 42 px box.
      const style = getComputedStyle(node);
      const inner =
        node.getBoundingClientRect().width -
        Number.parseFloat(style.paddingLeft) -
        Number.parseFloat(style.paddingRight);
      const all = document.createRange();
      all.selectNodeContents(node);
      const found: string[] =
        all.getBoundingClientRect().width > inner + 0.01 ? [node.textContent ?? ''] : [];
      const texts = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      for (let text = texts.nextNode(); text; text = texts.nextNode()) {
        /** The line of the letter at `at`: the top of its last box (a letter after a soft
         * hyphen that broke also holds the hyphen drawn at the end of the line before). */
        const line = (at: number) => {
          const range = document.createRange();
          range.setStart(text, at);
          range.setEnd(text, at + 1);
          return Math.round([...range.getClientRects()].at(-1)?.top ?? 0);
        };
        for (const word of (text.textContent ?? '').matchAll(/[^\s\u00ad-]+/g))
          if (line(word.index) !== line(word.index + word[0].length - 1)) found.push(word[0]);
      }
      return found;
    }),
  );
  expect(cut, 'texts cut short or words split between two lines').toEqual([]);
}

/**
 * Each text of these elements stays on one line: a control squeezed by its neighbours
 * wraps its label ("Ctrl" over "K").
 */
export async function expectOneLine(elements: Locator) {
  const wrapped = await elements.evaluateAll((nodes) =>
    nodes.flatMap((node) => {
      const found: string[] = [];
      const texts = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      for (let text = texts.nextNode(); text; text = texts.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(text);
        const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
        if (new Set(boxes.map((r) => Math.round(r.top))).size > 1) found.push(text.textContent ?? '');
      }
      return found;
    }),
  );
  expect(wrapped, 'texts wrapped to a second line').toEqual([]);
}

/** The requests of each page still in flight, the change stream aside. */
const inFlight = new WeakMap<Page, Set<Request>>();
const STREAM = '/changes/v1/stream';

function track(page: Page): Set<Request> {
  let open = inFlight.get(page);
  if (!open) {
    const requests = new Set<Request>();
    page.on('request', (r) => {
      if (!r.url().includes(STREAM)) requests.add(r);
    });
    page.on('requestfinished', (r) => requests.delete(r));
    page.on('requestfailed', (r) => requests.delete(r));
    inFlight.set(page, requests);
    open = requests;
  }
  return open;
}

/**
 * No request in flight for `quietMs` (the change stream aside): what `networkidle` says of
 * a page without a long-lived connection. Pages of `test` are tracked from their start.
 */
export async function networkSettled(page: Page, quietMs = 500) {
  const open = track(page);
  await page.waitForLoadState('load');
  let quietSince = Date.now();
  for (;;) {
    if (open.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await page.waitForTimeout(50);
  }
}

/** The API calls of the page from now on, by path. */
export function recordCalls(page: Page) {
  const calls: string[] = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith('/rest/') || pathname.startsWith('/eTech/'))
      calls.push(`${r.method()} ${pathname}`);
  });
  return calls;
}

export const test = base.extend({
  page: async ({ page }, use) => {
    track(page);
    await use(page);
  },
});
export { expect };
