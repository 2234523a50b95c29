/**
 * The project page loads elkjs's layout worker (1.6 MB, 353 kB compressed) only when the
 * dependency graph is shown (issue 27, 11): opened on the list of dependencies it renders
 * without it and fetches none; the graph tab then starts it once, and going back and forth
 * between the tabs does not fetch it again.
 */
import type { Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  networkSettled,
  screenshot,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';

const NORTH = USERS.north;

/** Counts the page's requests for the layout engine (elkjs's worker and the module that starts it). */
function countLayoutRequests(page: Page) {
  const seen = { worker: 0, graph: 0 };
  page.on('request', (r) => {
    const url = r.url();
    if (/elk-worker/.test(url)) seen.worker++;
    if (/DependencyGraph/.test(url)) seen.graph++;
  });
  return seen;
}

test('the layout worker loads with the graph tab only, once', async ({ page }) => {
  // The first layout starts elkjs's worker (1.6 MB): slow on a loaded machine.
  test.setTimeout(150_000);
  const seen = countLayoutRequests(page);
  await signIn(page, NORTH.login, NORTH.password, '/projects/PRJ-E2E?view=list');
  const list = page.getByTestId('dependency-list');
  await expect(list).toBeVisible();
  await expect(list).toContainText('WO-E2E-P1');
  await networkSettled(page);
  await expect(page.getByTestId('graph')).toHaveCount(0);
  expect(seen).toEqual({ worker: 0, graph: 0 });
  await screenshot(page, 'project-worker-list');
  await expectAccessible(page, 'project, dependencies as a list');

  await page.getByTestId('tab-graph').click();
  await expect(page.locator('.react-flow__node').first()).toBeVisible({ timeout: 90_000 });
  await networkSettled(page);
  expect(seen.worker).toBe(1);
  await page.getByTestId('tab-list').click();
  await expect(list).toBeVisible();
  await page.getByTestId('tab-graph').click();
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
  await networkSettled(page);
  expect(seen.worker).toBe(1);
  await screenshot(page, 'project-worker-graph');
});
