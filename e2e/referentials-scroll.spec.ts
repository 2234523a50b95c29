/**
 * The customers list over more than one page of the list extension (100 a page): rows
 * load as the user scrolls (continuationToken), only the visible rows are in the DOM
 * (virtualized), and the end of the list is said.
 */
import { expect, expectAccessible, signIn, test, USERS } from './support/fixtures.ts';

const RUN = `SCR${Date.now().toString(36).toUpperCase()}`;
const COUNT = 130;

test('infinite scroll over the list extension, virtualized', async ({ page }) => {
  // The console's own bearer token, read off its first API call, to create the records.
  const firstCall = page.waitForRequest(
    (r) => r.url().includes('/eTech/rest/ws/') && !!r.headers().authorization,
  );
  await signIn(page, USERS.admin.login, USERS.admin.password, '/referentials/customers');
  const authorization = (await firstCall).headers().authorization;
  for (let start = 0; start < COUNT; start += 10) {
    await Promise.all(
      Array.from({ length: 10 }, (_, k) => {
        const n = String(start + k).padStart(3, '0');
        return page.request
          .put(`/eTech/rest/ws/referentials/v1/customers/code:${RUN}${n}`, {
            headers: { authorization },
            data: { name: `Scroll ${n}`, addressDetails: { city: 'Lille' } },
          })
          .then((r) => expect(r.status(), `PUT ${RUN}${n}`).toBe(201));
      }),
    );
  }

  await page.getByTestId('list-search').fill(RUN);
  await expect(page).toHaveURL(new RegExp(`q=${RUN}`));
  const rows = page.getByTestId('list-row');
  await expect(rows.first()).toContainText(`${RUN}000`);
  // Virtualized: far fewer rows in the DOM than loaded.
  expect(await rows.count()).toBeLessThan(60);

  const scroller = page.getByTestId('list-scroll');
  // Scrolling to the end asks for the next page; the loaded rows then extend the scroll.
  await expect(async () => {
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(page.getByText(`${COUNT} rows, end of the list`)).toBeVisible({ timeout: 1000 });
    await expect(page.getByRole('link', { name: `${RUN}${COUNT - 1}` })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  expect(await rows.count()).toBeLessThan(60);
  await expectAccessible(page, 'customers list scrolled');
});
