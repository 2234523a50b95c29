/**
 * Helpers of the console's end-to-end tests:
 * - signIn(page, login, password, path?): opens `path` (default /), signs in on the
 *   service's form and waits for the console to show the page;
 * - expectAccessible(page, label): axe-core on the page, fails on serious or critical
 *   violations (listed in the failure message);
 * - screenshot(page, name): a full-page PNG in e2e/artifacts/, attached to the report.
 * Users of the e2e dataset (dataset.json): admin@ROOT and north@NORTH.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

export const USERS = {
  admin: { login: 'admin', password: 'admin-pass', office: 'ROOT' },
  north: { login: 'north', password: 'north-pass', office: 'NORTH' },
} as const;

const ARTIFACTS = join(process.cwd(), 'e2e/artifacts');

export async function fillLoginForm(page: Page, login: string, password: string) {
  await expect(page).toHaveURL(/\/oauth\/interaction\//);
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signIn(page: Page, login: string, password: string, path = '/') {
  await page.goto(path);
  await fillLoginForm(page, login, password);
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await expect(page.getByTestId('user-login')).toHaveText(login);
}

export async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
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
  const body = await page.screenshot({ path, fullPage: true });
  await test.info().attach(name, { body, contentType: 'image/png' });
}

/**
 * Home shows one card per navigation entry (each feature's `nav`), so the count follows
 * the registered features instead of being written down in every spec.
 */
export async function expectHomeAreas(page: Page) {
  const groups = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('group');
  await expect(groups.first()).toBeVisible();
  const entries = await groups.getByRole('link').count();
  expect(entries).toBeGreaterThanOrEqual(6);
  await expect(page.getByTestId('home-area')).toHaveCount(entries);
}

export const test = base;
export { expect };
