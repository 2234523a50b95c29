/**
 * The console runs under its Content-Security-Policy (src/server/platform/console.ts):
 * no violation is reported while signing in, loading Home (its inline theme script is
 * allowed by hash), opening a project's graph (elkjs's layout worker) and signing out.
 */
import type { Page } from '@playwright/test';
import { expect, expectHomeAreas, signIn, test, USERS } from './support/fixtures.ts';

/** Every CSP violation of the page's documents and workers, from the browser's console and events. */
function watchViolations(page: Page) {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect|frame|create)/i.test(m.text()))
      seen.push(m.text());
  });
  page.on('pageerror', (e) => {
    if (/Content Security Policy/i.test(e.message)) seen.push(e.message);
  });
  return seen;
}

test('no CSP violation when signing in, loading Home, a project graph and signing out', async ({ page }) => {
  test.setTimeout(120_000);
  const violations = watchViolations(page);
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const home = await page.request.get('/', { headers: { accept: 'text/html' } });
  const policy = home.headers()['content-security-policy'] ?? '';
  expect(policy).toMatch(/script-src 'self' 'sha256-[\w+/=]+'/);
  const scripts = policy.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(policy).toContain("frame-ancestors 'none'");

  // Sign-in (its own page and CSP), then a project's graph: the layout runs in elkjs's worker.
  await signIn(page, USERS.north.login, USERS.north.password, '/projects/PRJ-E2E');
  await expect(page.getByTestId('graph'), violations.join('\n')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Laying out the graph…')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.locator('.react-flow__node').first()).toBeVisible();
  // Home, loaded afresh: the inline theme script ran (allowed by its hash) before React.
  await page.goto('/');
  await expect(page.getByTestId('user-login')).toHaveText(USERS.north.login, { timeout: 30_000 });
  await expectHomeAreas(page);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', /^(light|dark)$/);
  expect(violations).toEqual([]);

  await page.getByTestId('account-menu').click();
  await page.getByTestId('sign-out').click();
  await expect(page).toHaveURL(/\/auth\/signed-out$/);
  await expect(page.getByTestId('signed-out')).toBeVisible();
  expect(violations).toEqual([]);
});
