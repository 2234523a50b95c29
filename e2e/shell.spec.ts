import {
  expect,
  expectAccessible,
  expectHomeAreas,
  screenshot,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';

test.describe('shell', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, USERS.admin.login, USERS.admin.password);
  });

  test('home shows the areas and the offices', async ({ page }) => {
    await expect(page.getByRole('heading', { level: 1 })).toContainText('admin');
    await expectHomeAreas(page);
    await expect(page.getByTestId('home-offices')).toContainText('NORTH');
    // The account shows a person's figure, no initials to read as a language code beside
    // the language button (issue 27, 11).
    await expect(page.getByTestId('account-avatar')).toHaveText('');
    await expect(page.getByTestId('account-avatar').locator('svg')).toHaveCount(1);
    await expectAccessible(page, 'home');
    await screenshot(page, 'shell-home');
  });

  test('navigates by the navbar with breadcrumbs', async ({ page }) => {
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Customers' }).click();
    await expect(page).toHaveURL(/\/referentials\/customers$/);
    await expect(page.getByTestId('breadcrumbs')).toContainText('Referentials');
    await expect(page.getByTestId('breadcrumbs')).toContainText('Customers');
    await expect(page.getByRole('link', { name: 'ACME' }).first()).toBeVisible();
    await expectAccessible(page, 'customers list');
    await screenshot(page, 'shell-customers');
    await nav.getByRole('link', { name: 'Assets' }).click();
    await expect(page).toHaveURL(/\/referentials\/assets$/);
    await nav.getByRole('link', { name: 'Skills' }).click();
    await expect(page).toHaveURL(/\/staff\/skills$/);
    await expect(page.getByTestId('breadcrumbs')).toContainText('Skills');
    await screenshot(page, 'shell-skills');
  });

  test('switches to French, which persists after a reload', async ({ page }) => {
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-fr').click();
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    await expect(nav.getByRole('link', { name: 'Clients' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Équipements' })).toBeVisible();
    await expectHomeAreas(page, 'Navigation principale');
    await expectAccessible(page, 'home in French');
    await screenshot(page, 'shell-home-fr');
  });

  test('toggles the theme', async ({ page }) => {
    const html = page.locator('html');
    const before = await html.getAttribute('data-mantine-color-scheme');
    await page.getByTestId('theme-toggle').click();
    const after = before === 'dark' ? 'light' : 'dark';
    await expect(html).toHaveAttribute('data-mantine-color-scheme', after);
    await page.reload();
    await expect(page.getByTestId('account-menu')).toBeVisible();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', after);
    await expectAccessible(page, `home in ${after} theme`);
    await screenshot(page, `shell-home-${after}`);
  });

  test('menus open without animation when the system asks for reduced motion', async ({ page }) => {
    const menu = page.getByRole('menu');
    const transition = () => menu.evaluate((el) => getComputedStyle(el).transitionDuration);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.getByTestId('language-menu').click();
    await expect(menu).toBeVisible();
    expect(await transition()).not.toBe('0s');
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.getByTestId('language-menu').click();
    await expect(menu).toBeVisible();
    expect(await transition()).toBe('0s');
  });

  test('Ctrl+K opens a customer by code', async ({ page }) => {
    await page.keyboard.press('Control+k');
    const search = page.getByRole('textbox', { name: 'Search records' });
    await expect(search).toBeVisible();
    await search.fill('glob');
    const hit = page.getByTestId('palette-hit').filter({ hasText: 'GLOBEX' });
    await expect(hit).toBeVisible();
    await expectAccessible(page, 'command palette');
    await screenshot(page, 'shell-palette');
    await hit.click();
    await expect(page).toHaveURL(/\/referentials\/customers\/GLOBEX$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Globex');
  });

  test('every route has its title: the record, the page, the console (issue 27, 9)', async ({ page }) => {
    const titles: [string, string][] = [
      ['/', 'Home · Fieldwork'],
      ['/referentials/customers', 'Customers · Fieldwork'],
      ['/referentials/customers/ACME', 'ACME · Customer · Fieldwork'],
      ['/referentials/customers/ACME/edit', 'Edit · ACME · Customer · Fieldwork'],
      ['/catalog/items/new', 'New · Item · Fieldwork'],
      ['/workorders/WO-E2E-1', 'WO-E2E-1 · Work order · Fieldwork'],
      ['/rostering/planner', 'Planner · Fieldwork'],
      ['/no/such/page', 'Page not found · Fieldwork'],
    ];
    const seen: string[] = [];
    for (const [path, title] of titles) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
      seen.push(await page.title());
    }
    expect(new Set(seen).size).toBe(titles.length);
  });

  test('shows a 404 page for an unknown path', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expectAccessible(page, '404');
    await screenshot(page, 'shell-404');
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
