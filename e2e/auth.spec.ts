import {
  expect,
  expectAccessible,
  fillLoginForm,
  screenshot,
  signIn,
  test,
  USERS,
} from './support/fixtures.ts';

test.describe('sign-in', () => {
  test('signs in and lands on the page asked for before sign-in', async ({ page }) => {
    await page.goto('/referentials/customers?q=ac');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expectAccessible(page, 'sign-in form');
    await screenshot(page, 'auth-sign-in-form');
    await fillLoginForm(page, USERS.north.login, USERS.north.password);
    await expect(page).toHaveURL(/\/referentials\/customers\?q=ac$/);
    await expect(page.getByTestId('user-office')).toContainText('NORTH');
  });

  test('a bad password shows an error on the form', async ({ page }) => {
    await page.goto('/');
    await fillLoginForm(page, USERS.north.login, 'not the password');
    await expect(page.getByRole('alert')).toHaveText('Login or password is incorrect.');
    await expect(page.getByLabel('Login')).toHaveValue(USERS.north.login);
    await expectAccessible(page, 'sign-in form with error');
    await screenshot(page, 'auth-bad-password');
    // The right password still works from the same form.
    await page.getByLabel('Password').fill(USERS.north.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('user-login')).toHaveText(USERS.north.login);
  });

  test('sign-out revokes the tokens and returns to sign-in', async ({ page }) => {
    await signIn(page, USERS.admin.login, USERS.admin.password);
    const revoked = page.waitForResponse(
      (r) => r.url().endsWith('/oauth/revoke') && r.request().method() === 'POST',
    );
    await page.getByTestId('account-menu').click();
    await page.getByTestId('sign-out').click();
    expect((await revoked).status()).toBe(200);
    await expect(page).toHaveURL(/\/auth\/signed-out$/);
    await expect(page.getByTestId('signed-out')).toBeVisible();
    await expectAccessible(page, 'signed-out page');
    await screenshot(page, 'auth-signed-out');
    // The provider session is over too: signing in again asks for the password.
    await page.getByTestId('sign-in-again').click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  });

  test('a reload keeps the user signed in through the provider session, on the same page', async ({
    page,
  }) => {
    await signIn(page, USERS.north.login, USERS.north.password, '/referentials/sites');
    await page.reload();
    await expect(page).toHaveURL(/\/referentials\/sites$/);
    await expect(page.getByTestId('user-login')).toHaveText(USERS.north.login);
  });
  test('an expired session goes through sign-in and back to the page the user was on', async ({ page }) => {
    await signIn(page, USERS.north.login, USERS.north.password, '/referentials/customers');
    // The next API answer says the token has expired, and the refresh token is refused too.
    let expire = true;
    await page.route(
      (url) => url.pathname === '/eTech/rest/ws/referentials/v1/sites',
      (route) => {
        if (!expire) return route.continue();
        expire = false;
        return route.fulfill({
          status: 401,
          contentType: 'application/json',
          body: JSON.stringify({
            errors: [
              { code: 'unauthorized.badcredentials', message: 'The access token is invalid or expired' },
            ],
            errorReference: 'e2e-expired',
          }),
        });
      },
    );
    await page.route('**/oauth/token', (route) =>
      route.request().postData()?.includes('grant_type=refresh_token')
        ? route.fulfill({ status: 400, contentType: 'application/json', body: '{"error":"invalid_grant"}' })
        : route.continue(),
    );
    const authorize = page.waitForRequest((r) => new URL(r.url()).pathname === '/oauth/auth');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Sites' })
      .click();
    await authorize;
    // The provider session still holds, so the sign-in is silent and lands on the same page.
    await expect(page).toHaveURL(/\/referentials\/sites$/);
    await expect(page.getByTestId('user-login')).toHaveText(USERS.north.login);
    await expect(page.getByRole('link', { name: 'ACME-HQ' }).first()).toBeVisible();
  });
});
