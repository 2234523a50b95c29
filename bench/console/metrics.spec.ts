/**
 * Figures of the console as served (printed, and attached to the report as JSON):
 * - the bytes a browser downloads to reach Home once signed in (the page load, the sign-in
 *   redirects, the app, Home, its API calls), by content encoding the browser accepts:
 *   what the service sends for brotli, gzip or neither, as transferred on the wire;
 * - route transition times: from a click in the navigation to the page's heading, on the
 *   first visit (its chunk loads) and the second.
 * The budgets asserted are loose (a busy machine): they catch a page that stops being lazy
 * or a bundle that doubles, the figures themselves are for the report.
 */
import { get } from 'node:http';
import type { Page } from '@playwright/test';
import { expect, expectHomeAreas, networkSettled, signIn, test, USERS } from '../../e2e/support/fixtures.ts';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

interface Transfer {
  type: string;
  url: string;
  bytes: number;
  encoding: string;
}

/** Every response of the page with its bytes on the wire (CDP), until `done` resolves. */
async function transfers(page: Page, run: () => Promise<void>): Promise<Transfer[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const meta = new Map<string, { type: string; url: string; encoding: string }>();
  const out: Transfer[] = [];
  cdp.on('Network.responseReceived', (e) => {
    const h = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    meta.set(e.requestId, {
      type: e.type,
      url: e.response.url,
      encoding: String(h['content-encoding'] ?? ''),
    });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const m = meta.get(e.requestId);
    if (m) out.push({ ...m, bytes: e.encodedDataLength });
  });
  await run();
  await cdp.detach();
  return out;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

/** The bytes the service sends for a URL when the client accepts `encoding` (no decoding). */
function servedBytes(url: string, encoding: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'none') }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

test('bytes to reach Home, as served', async ({ page }) => {
  await signIn(page, USERS.admin.login, USERS.admin.password);
  // A page load of Home by a signed-in user (the provider session), cold cache.
  const list = await transfers(page, async () => {
    await page.goto('/');
    await expectHomeAreas(page);
    await expect(page.getByTestId('home-offices')).toBeVisible();
    await networkSettled(page);
  });
  const isApi = (t: Transfer) => /^\/(eTech|rest|oauth)\//.test(new URL(t.url).pathname);
  const sum = (f: (t: Transfer) => boolean) => list.filter(f).reduce((n, t) => n + t.bytes, 0);
  const browserFigures = {
    total: sum(() => true),
    static: sum((t) => !isApi(t)),
    js: sum((t) => t.type === 'Script'),
    css: sum((t) => t.type === 'Stylesheet'),
    api: sum(isApi),
    requests: list.length,
  };
  // The same static files, asked for with each encoding (the body as sent, headers excluded).
  const statics = [...new Set(list.filter((t) => !isApi(t)).map((t) => t.url))];
  const byEncoding: Record<string, { bytes: number; encodings: string[] }> = {};
  for (const encoding of ['br', 'gzip', 'identity']) {
    const served = await Promise.all(statics.map((u) => servedBytes(u, encoding)));
    byEncoding[encoding] = {
      bytes: served.reduce((n, s) => n + s.bytes, 0),
      encodings: [...new Set(served.map((s) => s.encoding))],
    };
  }
  console.log(
    [
      'bytes to reach Home (signed in, cold cache):',
      `  Chromium, on the wire: ${kb(browserFigures.total)} in ${browserFigures.requests} requests (static ${kb(browserFigures.static)}: js ${kb(browserFigures.js)}, css ${kb(browserFigures.css)}; api ${kb(browserFigures.api)})`,
      ...Object.entries(byEncoding).map(
        ([e, f]) =>
          `  ${statics.length} static files accepting ${e.padEnd(8)}: ${kb(f.bytes).padStart(9)} (sent as ${f.encodings.join(', ')})`,
      ),
    ].join('\n'),
  );
  await test.info().attach('bytes-to-home.json', {
    body: JSON.stringify({ browser: browserFigures, byEncoding, files: statics.length }, null, 2),
    contentType: 'application/json',
  });
  // Loose: the app's JS stays far under a megabyte uncompressed (bundle-report.mjs holds the budget).
  expect(byEncoding.identity.bytes).toBeLessThan(1200 * 1024);
});

test('route transition times', async ({ page }) => {
  await signIn(page, USERS.admin.login, USERS.admin.password);
  await expectHomeAreas(page);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const steps: { name: string; go: () => Promise<unknown>; heading: string | RegExp }[] = [
    {
      name: 'customers',
      go: () => nav.getByRole('link', { name: 'Customers' }).click(),
      heading: 'Customers',
    },
    {
      name: 'customer',
      go: () => page.getByRole('link', { name: 'ACME', exact: true }).click(),
      heading: 'Acme Industries',
    },
    { name: 'customer edit', go: () => page.getByTestId('edit').click(), heading: 'Edit customer ACME' },
    { name: 'sites', go: () => nav.getByRole('link', { name: 'Sites' }).click(), heading: 'Sites' },
    { name: 'items', go: () => nav.getByRole('link', { name: 'Items' }).click(), heading: 'Items' },
    {
      name: 'item',
      go: () => page.getByRole('link', { name: 'BULK-0002', exact: true }).click(),
      heading: 'Bulk part 2',
    },
    { name: 'skills', go: () => nav.getByRole('link', { name: 'Skills' }).click(), heading: 'Skills' },
    {
      name: 'characteristics',
      go: () => nav.getByRole('link', { name: 'Characteristics' }).click(),
      heading: 'Characteristics',
    },
    { name: 'home', go: () => nav.getByRole('link', { name: 'Home' }).click(), heading: /Good to see you/ },
  ];
  const times: Record<string, number[]> = {};
  for (let round = 0; round < 2; round++) {
    for (const s of steps) {
      const start = Date.now();
      await s.go();
      await expect(page.getByRole('heading', { level: 1, name: s.heading })).toBeVisible();
      times[s.name] = [...(times[s.name] ?? []), Date.now() - start];
    }
  }
  console.log(
    `route transitions (click to heading, ms: first visit / again):\n${Object.entries(times)
      .map(([n, [a, b]]) => `  ${n.padEnd(16)} ${String(a).padStart(5)} / ${String(b).padStart(5)}`)
      .join('\n')}`,
  );
  await test.info().attach('route-transitions.json', {
    body: JSON.stringify(times, null, 2),
    contentType: 'application/json',
  });
  for (const [name, [first, again]] of Object.entries(times)) {
    expect(first, name).toBeLessThan(10_000);
    expect(again, name).toBeLessThan(5_000);
  }
});
