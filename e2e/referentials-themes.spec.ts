/**
 * The Referentials pages in French and in the dark scheme: texts translated, and axe (no
 * serious or critical violation) on the list, a detail, a form showing its errors and the
 * unsaved-changes dialog. Works on the dataset's ACME customer without saving anything.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, networkSettled, signIn, test, USERS } from './support/fixtures.ts';

test.describe.configure({ timeout: 90_000 });

async function checkPage(page: Page, name: string) {
  await networkSettled(page);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const dir = join(process.cwd(), 'e2e/artifacts');
  mkdirSync(dir, { recursive: true });
  const body = await page.screenshot({ path: join(dir, `referentials-${name}.png`) });
  await test.info().attach(`referentials-${name}`, { body, contentType: 'image/png' });
  await expectAccessible(page, name);
}

test('referentials in French and in the dark scheme', async ({ page }) => {
  await signIn(page, USERS.admin.login, USERS.admin.password, '/referentials/customers');
  await page.waitForURL((u) => u.pathname === '/referentials/customers');
  await page.getByTestId('language-menu').click();
  await page.getByTestId('language-fr').click();
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  await expect(page.getByTestId('new-record')).toHaveText('Nouveau client');
  await checkPage(page, 'customers-fr');

  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await checkPage(page, 'customers-fr-dark');

  await page.getByRole('link', { name: 'ACME', exact: true }).click();
  await expect(page.getByTestId('record-code')).toHaveText('ACME');
  await expect(page.getByTestId('section-address')).toContainText('Lille');
  await checkPage(page, 'customer-detail-fr-dark');

  await page.getByTestId('edit').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Modifier le client ACME' })).toBeVisible();
  await page.locator('input[name="name"]').fill('');
  await page.locator('input[name="addressDetails.city"]').fill('');
  await page.getByTestId('save').click();
  await expect(page.getByText('Certains champs demandent votre attention.')).toBeVisible();
  await expect(page.locator('input[name="addressDetails.city"]')).toHaveAttribute('aria-invalid', 'true');
  await checkPage(page, 'customer-edit-errors-fr-dark');

  // The unsaved-changes dialog, in French; leaving drops the change (nothing was saved).
  await page.getByRole('link', { name: 'Sites', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Quitter sans enregistrer ?' });
  await expect(dialog).toBeVisible();
  await checkPage(page, 'unsaved-dialog-fr-dark');
  await dialog.getByRole('button', { name: 'Quitter et perdre les modifications' }).click();
  await expect(page).toHaveURL(/\/referentials\/sites$/);
  await expect(page.getByRole('heading', { name: 'Sites', level: 1 })).toBeVisible();
  await checkPage(page, 'sites-fr-dark');
});
