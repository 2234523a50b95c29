/**
 * A work order's grids take the window (issue 27, 4): scrolled, the grid brings itself under
 * the shell's header and shows at least 15 rows at 1280x800 (and more at 1440x900), where the
 * record's header, tabs, filters and totals left it 7.
 */
import type { Page } from '@playwright/test';
import { BULK_EXPECTED, BULK_WORK_ORDER } from './support/bulk.mjs';
import { expect, networkSettled, signIn, test, USERS } from './support/fixtures.ts';

/** Rows of the grid wholly inside the window (not under the shell's header). */
async function rowsInView(page: Page, grid: string) {
  return page.getByTestId(`${grid}-row`).evaluateAll((rows) => {
    const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    const thead = rows[0]?.closest('table')?.querySelector('thead')?.getBoundingClientRect().bottom ?? 0;
    const top = Math.max(header, thead);
    return rows.filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= top - 1 && b.bottom <= window.innerHeight + 1;
    }).length;
  });
}

for (const [width, height, least] of [
  [1280, 800, 15],
  [1440, 900, 18],
] as const) {
  test(`the activities grid shows ${least}+ rows at ${width}x${height} once scrolled`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await signIn(page, USERS.north.login, USERS.north.password, `/workorders/${BULK_WORK_ORDER}`);
    const scroller = page.getByTestId('activities-scroll');
    await expect(page.getByTestId('activities-row').first()).toBeVisible();
    // Three rows down, with the wheel over the grid.
    await scroller.hover();
    await page.mouse.wheel(0, 100);
    await expect.poll(() => rowsInView(page, 'activities')).toBeGreaterThanOrEqual(least);
    // The grid's header stays in view, under the shell's header.
    const thead = await page.getByTestId('activities-grid').locator('thead').boundingBox();
    expect(thead?.y ?? 0).toBeGreaterThanOrEqual(60);
    // What the reader sees (the window, scrolled), not the page from its top.
    const body = await page.screenshot({ path: `e2e/artifacts/grid-rows-${width}x${height}.png` });
    await test.info().attach(`grid-rows-${width}x${height}`, { body, contentType: 'image/png' });
  });
}

test('scrolling through 5,000 loaded activities: no long task over 50 ms', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, USERS.north.login, USERS.north.password, `/workorders/${BULK_WORK_ORDER}`);
  const count = BULK_EXPECTED.activities.count;
  await expect(page.getByTestId('activities-row').first()).toBeVisible();
  // Every row loaded first (the pages arrive as the grid nears its end).
  await page.waitForFunction(
    (n) => {
      const el = document.querySelector('[data-testid="activities-scroll"]');
      if (!el) return false;
      el.scrollTop = el.scrollHeight;
      return (
        document.querySelector('[data-testid="activities-grid"]')?.getAttribute('data-rows') === String(n) &&
        !!document.querySelector('[data-testid="activities-end"]')
      );
    },
    count,
    { polling: 100, timeout: 90_000 },
  );
  await networkSettled(page);

  // Back up the way a reader flicks through (a wheel step each frame, about 12 rows), the
  // browser's long tasks recorded meanwhile (issue 27, 7): by the PerformanceObserver (the
  // wall clock) and by a trace (the CPU time of each task of the page's main thread).
  await browser.startTracing(page, { categories: ['toplevel', 'disabled-by-default-devtools.timeline'] });
  const observed = await page.evaluate(async () => {
    const el = document.querySelector('[data-testid="activities-scroll"]') as HTMLElement;
    const seen: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) seen.push(Math.round(e.duration));
    });
    observer.observe({ type: 'longtask' });
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    let steps = 0;
    for (; steps < 240 && el.scrollTop > 0; steps++) {
      el.scrollTop -= 400;
      await frame();
    }
    await frame();
    await new Promise((r) => setTimeout(r, 200));
    observer.disconnect();
    return { seen, steps };
  });
  const cpu = longTasksByCpu(JSON.parse((await browser.stopTracing()).toString('utf8')));
  console.log(
    `scrolling ${observed.steps} steps through ${count} loaded rows: long tasks (wall clock, ms) ${JSON.stringify(observed.seen)}; ` +
      `tasks over 50 ms of CPU: ${JSON.stringify(cpu.over)}; the longest task's CPU: ${cpu.longest} ms`,
  );
  expect(observed.steps).toBe(240);
  // A loaded machine stretches the wall clock of every task (several helpers on 2 cores): the
  // CPU a task takes is what the page controls, and with the machine to itself both agree.
  // Half of the 50 ms, so that a computer half as fast as this one makes no long task either
  // (before issue 27, 7: 35 ms, and 179 long tasks by the wall clock; after: 18 ms and 12).
  expect(cpu.over).toEqual([]);
  expect(cpu.longest).toBeLessThanOrEqual(25);
});

/** The page's main thread tasks of a Chromium trace: those over 50 ms of CPU, and the longest (ms). */
function longTasksByCpu(trace: { traceEvents: TraceEvent[] }) {
  const events = trace.traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const tasks = events.filter(
    (e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === main?.pid && e.tid === main?.tid,
  );
  const cpu = tasks.map((e) => Math.round((e.tdur ?? e.dur ?? 0) / 1000));
  return { over: cpu.filter((ms) => ms > 50), longest: Math.max(0, ...cpu) };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}
