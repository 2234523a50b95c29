/**
 * The console's long tasks while scrolling its largest lists: no main-thread task over 50 ms
 * of CPU (issues 27, 7 and 28, 3). These run in the `performance` project of
 * playwright.config.ts, after every other test and on one worker: the CPU time of a task is
 * what the page controls, but a second browser working on the same two cores stretched it by
 * half (the activities grid's longest task: 7-12 ms alone, 17-31 ms beside another test).
 */
import {
  BOARD_PATH,
  BOARD_READ,
  BOARD_TECHNICIANS,
  BULK_EXPECTED,
  BULK_WORK_ORDER,
} from './support/bulk.mjs';
import {
  expect,
  expectAccessible,
  networkSettled,
  recordCalls,
  screenshot,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';
import { mainThreadTaskCpu } from './support/trace.ts';

test.use({ timezoneId: 'UTC' });

const CHECK = '/rest/v3/slots/check';

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
  const tasks = mainThreadTaskCpu(JSON.parse((await browser.stopTracing()).toString('utf8')));
  const cpu = { over: tasks.filter((ms) => ms > 50).map(Math.round), longest: Math.round(tasks[0] ?? 0) };
  console.log(
    `scrolling ${observed.steps} steps through ${count} loaded rows: long tasks (wall clock, ms) ${JSON.stringify(observed.seen)}; ` +
      `tasks over 50 ms of CPU: ${JSON.stringify(cpu.over)}; the longest task's CPU: ${cpu.longest} ms`,
  );
  expect(observed.steps).toBe(240);
  // Half of the 50 ms, so that a computer half as fast as this one makes no long task either
  // (before issue 27, 7: 35 ms, and 179 long tasks by the wall clock; after: 7-12 ms alone).
  expect(cpu.over).toEqual([]);
  expect(cpu.longest).toBeLessThanOrEqual(25);
});

test('2,000 technicians: one read per 100 rows scrolled, no task over 50 ms of CPU', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const calls = recordCalls(page);
  await signIn(page, USERS.admin.login, USERS.admin.password, BOARD_PATH);
  const rows = page.getByTestId('board-row');
  await expect(rows.first()).toContainText('FLEET-0001');
  // (The page holds the live change stream open: no network idle to wait for.)
  await expect(page.getByTestId('queue-count')).toBeVisible();
  await page.waitForTimeout(1000);
  expect(calls.filter((c) => c === `GET ${BOARD_READ}`)).toHaveLength(1);
  await expectAccessible(page, 'board');
  await screenshot(page, 'board-1280');
  expect(await rows.count()).toBeLessThan(60);

  // Long tasks measured two ways: by the page (PerformanceObserver, wall time) and by the
  // browser's trace (each main-thread task's own CPU time: the one asserted).
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  const browser = page.context().browser();
  if (!browser) throw new Error('no browser');
  await browser.startTracing(page, { categories: ['toplevel', 'disabled-by-default-devtools.timeline'] });
  const scroller = page.getByTestId('list-scroll');
  const last = `FLEET-${String(BOARD_TECHNICIANS).padStart(4, '0')}`;
  // Scrolled like a wheel would: a screenful at a time, down to the last row.
  for (let i = 0; i < 400; i++) {
    const done = await scroller.evaluate((el, code) => {
      el.scrollTop += el.clientHeight;
      return !!el.querySelector(`[data-lane="${code}"]`);
    }, last);
    if (done) break;
    await page.waitForTimeout(16);
  }
  await expect(page.locator(`[data-lane="${last}"]`)).toBeVisible();
  const trace = JSON.parse((await browser.stopTracing()).toString());
  const reads = calls.filter((c) => c === `GET ${BOARD_READ}`).length;
  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  const cpu = mainThreadTaskCpu(trace);
  console.log(
    `board: ${BOARD_TECHNICIANS} rows scrolled with ${reads} reads; ${cpu.length} main-thread tasks, ` +
      `longest ${Math.round(cpu[0] ?? 0)} ms of CPU; long tasks by wall time: ${longTasks.map(Math.round).join(', ') || 'none'}`,
  );
  expect(cpu.length).toBeGreaterThan(100);
  expect(cpu[0]).toBeLessThanOrEqual(50);
  expect(reads).toBe(BOARD_TECHNICIANS / 100);
  expect(calls.filter((c) => c === `POST ${CHECK}`)).toHaveLength(0);
  expect(await rows.count()).toBeLessThan(60);
});
