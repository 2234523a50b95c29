/**
 * Project management pages end to end, against the real service and the e2e dataset
 * (PRJ-E2E: phases PH-A and PH-B, tasks 1 to 3, WO-E2E-P1 to P4, dependencies task 1 ->
 * P1 -> P2 and task 2 -> P3; PRJ-E2E-OTHER holds P5; PRJ-E2E-DONE is completed; SO-E2E
 * carries 4 of its 5; SO-E2E-DONE is completed; RT-E2E is a route whose first visit is
 * completed). The planner `north` (office NORTH) works through the console:
 * - the projects list, searched and opened;
 * - a work order dragged with the mouse, another moved with the keyboard, the order kept
 *   after a reload;
 * - a dependency drawn on the graph (then removed after confirmation); a cycle refused with
 *   its path drawn; an overlap refused with both jobs' dates;
 * - a link into a completed project refused with the spec's message (project completed);
 * - a work order taken from another project after confirmation; a service order at 4 of 5
 *   filled to its maximum, the rules shown before trying.
 * Every page is checked with axe and saved as a 1280x800 screenshot (light, one dark).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, networkSettled, signIn, test, USERS } from './support/fixtures.ts';

test.describe.configure({ mode: 'serial', timeout: 90_000 });

const NORTH = USERS.north;
const PROJECT = '/projects/PRJ-E2E';

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForURL((u) => u.pathname === path);
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await networkSettled(page);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

async function check(page: Page, name: string) {
  await networkSettled(page);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const dir = join(process.cwd(), 'e2e/artifacts');
  mkdirSync(dir, { recursive: true });
  const body = await page.screenshot({ path: join(dir, `projects-${name}.png`) });
  await test.info().attach(`projects-${name}`, { body, contentType: 'image/png' });
  await expectAccessible(page, name);
}

/** The jobs of the linker in the order shown (`jobType:code`). */
const order = (page: Page) =>
  page
    .getByTestId('job-list')
    .locator('[data-testid="job-row"]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-job') ?? ''));
const row = (page: Page, job: string) => page.locator(`[data-testid="job-row"][data-job="${job}"]`);

function moved(list: string[], item: string, target: string): string[] {
  const from = list.indexOf(item);
  const to = list.indexOf(target);
  const out = list.slice();
  out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}

/** Keyboard: focus a work order's handle and pick it up (Space), once dnd-kit has said so. */
async function pickUp(page: Page, code: string) {
  await page.getByRole('button', { name: `Move ${code}`, exact: true }).focus();
  await page.keyboard.press('Space');
  await expect(page.locator('[id^="DndLiveRegion"]').first()).toContainText(code);
}

/**
 * Presses `key` during a keyboard drag until dnd-kit's live region says `expected`: an arrow
 * pressed while it measures the rows after the pick finds none to go to and is lost (2 of 4
 * runs here lost one). A second press only comes when the first said nothing within a second.
 */
async function pressUntil(page: Page, key: string, expected: string) {
  const region = page.locator('[id^="DndLiveRegion"]').first();
  await expect(async () => {
    await page.keyboard.press(key);
    await expect(region).toHaveText(expected, { timeout: 1000 });
  }).toPass();
}

/** Waits until the service has answered the link call and the page shows its order. */
async function settled(page: Page) {
  await networkSettled(page);
  await expect(page.getByTestId('drag-handle').first()).not.toHaveAttribute('aria-disabled', 'true');
}

const node = (page: Page, job: string) => page.locator(`.react-flow__node[data-id="${job}"]`);
const edge = (page: Page, id: string) => page.locator(`.react-flow__edge[data-id="${id}"]`);

/** Draws an arrow on the graph: from a job's right (source) handle to another's left (target) handle. */
async function drawArrow(page: Page, from: string, to: string) {
  const source = node(page, from).locator('.react-flow__handle.source');
  const target = node(page, to).locator('.react-flow__handle.target');
  await expect(source).toBeVisible();
  await expect(target).toBeVisible();
  // Once the view has stopped moving (it refits when the panel changes size).
  let a = await box(source);
  await expect
    .poll(async () => {
      const now = await box(source);
      const still = now.x === a.x && now.y === a.y;
      a = now;
      return still;
    })
    .toBe(true);
  const b = await box(target);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 6 });
  await page.mouse.move(b.x, b.y, { steps: 6 });
  await page.mouse.up();
}

async function box(l: Locator) {
  const r = await l.boundingBox();
  if (!r) throw new Error('not laid out');
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
}

/** A refusal the console read: no message printed twice, no job reference (`task:1`) nor ISO time left. */
async function expectReadOnce(refusal: Locator) {
  await expect(refusal.getByTestId('refusal-message')).toHaveCount(0);
  const text = await refusal.innerText();
  expect(text).not.toMatch(/\b(task|phase|workOrder):/);
  expect(text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
}

/** The smallest text of the graph's nodes as the screen shows it (font size x the view's zoom), px. */
const smallestNodeText = (page: Page) =>
  page.locator('.job-node').evaluateAll((nodes) =>
    Math.min(
      ...nodes.flatMap((n) => {
        const zoom = n.getBoundingClientRect().width / (n as HTMLElement).offsetWidth;
        return [...n.querySelectorAll('p')].map(
          (p) => Number.parseFloat(getComputedStyle(p).fontSize) * zoom,
        );
      }),
    ),
  );

async function graphReady(page: Page) {
  await expect(page.getByTestId('graph')).toBeVisible();
  // The first layout starts elkjs's worker (1.6 MB): slow on a loaded machine.
  await expect(node(page, 'task:1')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Laying out the graph…')).toHaveCount(0);
}

test('projects and service orders lists: search and open', async ({ page }) => {
  await signIn(page, NORTH.login, NORTH.password, '/projects');
  await networkSettled(page);
  const rows = page.getByTestId('list-row');
  await expect(rows.filter({ hasText: 'PRJ-E2E-DONE' })).toBeVisible();
  await expect(rows.filter({ hasText: 'North depot renovation' })).toBeVisible();
  // The parent office's project is not in the planner's tree.
  await expect(rows.filter({ hasText: 'PRJ-E2E-ROOT' })).toHaveCount(0);
  await check(page, 'list');

  await page.getByTestId('list-search').fill('done');
  await expect(page).toHaveURL(/q=done/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Completed');
  await page.getByTestId('list-search').fill('');
  await rows.filter({ hasText: 'North depot renovation' }).click();
  await expect(page).toHaveURL(/\/projects\/PRJ-E2E$/);
  await expect(page.getByRole('heading', { level: 1, name: 'North depot renovation' })).toBeVisible();

  await open(page, '/serviceorders/standard');
  await expect(rows.filter({ hasText: 'SO-E2E-DONE' })).toBeVisible();
  await expect(rows.filter({ hasText: /^SO-E2E.*4 of 5 work orders/ })).toBeVisible();
  await check(page, 'service-orders');
  await open(page, '/serviceorders/route');
  await rows.filter({ hasText: 'RT-E2E' }).click();
  await expect(page).toHaveURL(/\/serviceorders\/route\/RT-E2E$/);
  await expect(page.getByTestId('count')).toHaveText('3 of 100 work orders');
  // The completed first visit can move along the route, not leave it: said on its row.
  await expect(row(page, 'workOrder:WO-E2E-R1').getByRole('img', { name: /cannot leave it/ })).toBeVisible();
  await check(page, 'route-linker');
});

test('reorder by drag and by keyboard; the order is kept after a reload', async ({ page }) => {
  await signIn(page, NORTH.login, NORTH.password, PROJECT);
  await networkSettled(page);
  await expect(row(page, 'workOrder:WO-E2E-P4')).toBeVisible();
  const start = await order(page);
  expect(start).toContain('phase:PH-B');

  // Mouse: WO-E2E-P4 dragged onto task 2's row -> it takes task 2's place (first of PH-B).
  const handle = row(page, 'workOrder:WO-E2E-P4').getByTestId('drag-handle');
  const from = await box(handle);
  const to = await box(row(page, 'task:2'));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x, from.y - 10, { steps: 3 });
  await page.mouse.move(from.x, to.y, { steps: 12 });
  await page.mouse.up();
  const afterDrag = moved(start, 'workOrder:WO-E2E-P4', 'task:2');
  await expect.poll(() => order(page)).toEqual(afterDrag);
  await settled(page);
  await expect(page.getByTestId('refusal')).toHaveCount(0);

  // Keyboard: WO-E2E-P1 picked up with Space, one place down, dropped with Space.
  const p1 = afterDrag.indexOf('workOrder:WO-E2E-P1');
  await pickUp(page, 'WO-E2E-P1');
  // Each step is announced (dnd-kit's live region).
  await pressUntil(page, 'ArrowDown', `WO-E2E-P1 would go to position ${p1 + 2} of ${afterDrag.length}.`);
  await page.keyboard.press('Space');
  const afterKeys = moved(afterDrag, 'workOrder:WO-E2E-P1', afterDrag[p1 + 1]);
  await expect.poll(() => order(page)).toEqual(afterKeys);
  await settled(page);
  await expect(page.getByRole('status').filter({ hasText: /WO-E2E-P1 moved to position/ })).toHaveCount(1);

  await page.reload();
  await page.waitForURL((u) => u.pathname === PROJECT);
  await expect(row(page, 'workOrder:WO-E2E-P4')).toBeVisible();
  expect(await order(page)).toEqual(afterKeys);
  await graphReady(page);
  await check(page, 'linker');
});

test('the graph opens readable; a dependency declared keeps the view, removed after confirmation', async ({
  page,
}) => {
  await signIn(page, NORTH.login, NORTH.password, PROJECT);
  await graphReady(page);
  // Every text of every node reads at 11 px or more on the screen (issue 27, 2); what the
  // pane cannot show at that size is reached with the wheel or the minimap.
  expect(await smallestNodeText(page)).toBeGreaterThanOrEqual(11);
  // No line of a node cut in its height (a descender under the next line).
  const cut = await page
    .locator('.job-node p')
    .evaluateAll((lines) => lines.filter((p) => p.scrollHeight > p.clientHeight).map((p) => p.textContent));
  expect(cut).toEqual([]);
  await expect(page.getByTestId('rf__minimap')).toBeVisible();
  // Read from where reading starts: the first job at the pane's top left.
  const pane = await page.getByTestId('graph').boundingBox();
  const first = await node(page, 'task:1').boundingBox();
  expect(first && pane && first.x - pane.x).toBeLessThan(40);
  expect(first && pane && first.y - pane.y).toBeLessThan(40);
  await check(page, 'graph-opening');

  // The planner scrolls a little (away from the pane's edges, where drawing an arrow pans
  // the view): a dependency declared then keeps that view.
  const view = page.locator('.react-flow__viewport');
  const opening = await view.getAttribute('style');
  await page.getByTestId('graph').hover();
  await page.mouse.wheel(-60, 30);
  await expect.poll(() => view.getAttribute('style')).not.toBe(opening);
  const panned = await view.getAttribute('style');
  const id = 'task:3->workOrder:WO-E2E-P4';
  await expect(edge(page, id)).toHaveCount(0);
  await drawArrow(page, 'task:3', 'workOrder:WO-E2E-P4');
  await expect(edge(page, id)).toHaveCount(1);
  await networkSettled(page);
  await expect(page.getByTestId('refusal')).toHaveCount(0);
  await expect(page.getByTestId('tab-list')).toHaveText(/List \(4\)/);
  expect(await view.getAttribute('style')).toBe(panned);
  // And after a look at the list.
  await page.getByTestId('tab-list').click();
  await page.getByTestId('tab-graph').click();
  await expect(node(page, 'task:1')).toBeVisible({ timeout: 30_000 });
  await expect(view).toHaveAttribute('style', panned ?? '');

  // Kept by the service: still there after a reload.
  await page.reload();
  await graphReady(page);
  await expect(edge(page, id)).toHaveCount(1);

  // Selected with a click, removed with its button after confirmation.
  await edge(page, id).click({ force: true });
  await expect(page.getByTestId('selected-dependency')).toHaveText('Task 3 blocks WO-E2E-P4');
  await page.getByTestId('remove-selected-dependency').click();
  const dialog = page.getByRole('dialog', { name: 'Remove this dependency?' });
  await expect(dialog).toContainText('Task 3 will no longer block WO-E2E-P4');
  await dialog.getByTestId('confirm').click();
  await expect(edge(page, id)).toHaveCount(0);
  await expect(page.getByTestId('tab-list')).toHaveText(/List \(3\)/);
});

test('a cycle is refused with its path drawn; an overlap with both dates', async ({ page }) => {
  await signIn(page, NORTH.login, NORTH.password, PROJECT);
  await graphReady(page);
  // task 1 -> P1 -> P2 exists: P2 blocking task 1 closes the cycle, drawn across the whole
  // graph: the planner fits it in the pane first.
  await page.getByRole('button', { name: 'Fit the graph' }).click();
  await drawArrow(page, 'workOrder:WO-E2E-P2', 'task:1');
  const refusal = page.getByTestId('refusal');
  await expect(refusal).toBeVisible();
  await expect(refusal).toHaveAttribute('data-codes', 'projectmanagement.project.block.dependency.cycle');
  await expect(refusal.getByTestId('cycle-path')).toHaveText(
    'Cycle: WO-E2E-P2 → Task 1 → WO-E2E-P1 → WO-E2E-P2',
  );
  // Said once, in the console's words: not the service's message again with its raw references.
  await expectReadOnce(refusal);
  // The path on the graph: its three jobs and arrows, the refused one dashed.
  await expect(page.locator('.job-node[data-state="cycle"]')).toHaveCount(3);
  await expect(page.locator('.react-flow__edge.in-cycle')).toHaveCount(3);
  await expect(edge(page, 'task:1->workOrder:WO-E2E-P1')).toHaveClass(/in-cycle/);
  await expect(edge(page, 'workOrder:WO-E2E-P1->workOrder:WO-E2E-P2')).toHaveClass(/in-cycle/);
  await expect(edge(page, 'refused:workOrder:WO-E2E-P2->task:1')).toHaveClass(/refused/);
  // Nothing was written: the project keeps its 3 dependencies.
  await expect(page.getByTestId('tab-list')).toHaveText(/List \(3\)/);
  await check(page, 'cycle');

  // Task 3 (ends 14 Jan 12:00) cannot block WO-E2E-P3 (starts 14 Jan 09:00).
  await drawArrow(page, 'task:3', 'workOrder:WO-E2E-P3');
  await expect(refusal).toHaveAttribute('data-codes', 'projectmanagement.project.block.dependency.overlap');
  await expect(refusal.getByTestId('overlap')).toHaveText(
    'Task 3 ends Jan 14, 2030, 12:00 UTC but WO-E2E-P3 starts Jan 14, 2030, 09:00 UTC.',
  );
  await expectReadOnce(refusal);
  await expect(node(page, 'task:3').getByTestId('overlap-dates')).toHaveText('Ends Jan 14 12:00');
  await expect(node(page, 'workOrder:WO-E2E-P3').getByTestId('overlap-dates')).toHaveText(
    'Starts Jan 14 09:00',
  );
  await expect(page.locator('.react-flow__edge.in-cycle')).toHaveCount(0);
  // The overlap's dates on the nodes read at 4.5:1 (axe, issue 27, 8).
  await check(page, 'overlap');

  // The same page in the dark scheme.
  await page.getByTestId('theme-toggle').click();
  await check(page, 'overlap-dark');
  await page.getByTestId('theme-toggle').click();
});

test('a work order taken from another project asks first', async ({ page }) => {
  await signIn(page, NORTH.login, NORTH.password, PROJECT);
  await networkSettled(page);
  const search = page.getByTestId('add-search');
  await search.click();
  await search.fill('P5');
  await page.getByRole('option', { name: /WO-E2E-P5/ }).click();
  await expect(page.getByTestId('add-note')).toHaveText('In project PRJ-E2E-OTHER');
  await page.getByTestId('add-place').click();
  await page.getByRole('option', { name: 'End of phase PH-A' }).click();
  await page.getByTestId('add-submit').click();
  const dialog = page.getByRole('dialog', { name: 'Take WO-E2E-P5 from PRJ-E2E-OTHER?' });
  await expect(dialog).toBeVisible();
  await check(page, 'take-confirm');
  await dialog.getByTestId('confirm').click();
  await expect(row(page, 'workOrder:WO-E2E-P5')).toBeVisible();
  const jobs = await order(page);
  // At the end of phase PH-A: right before PH-B.
  expect(jobs[jobs.indexOf('phase:PH-B') - 1]).toBe('workOrder:WO-E2E-P5');
});

test('linking into a completed project: the rules shown, and the service refuses', async ({ page }) => {
  await signIn(page, NORTH.login, NORTH.password, '/projects/PRJ-E2E-DONE');
  await networkSettled(page);
  await expect(page.getByTestId('rules')).toContainText('Completed: this project takes no work order');
  await expect(page.getByTestId('add-search')).toBeDisabled();
  await expect(row(page, 'workOrder:WO-E2E-DONE').getByTestId('locked-handle')).toBeVisible();
  await check(page, 'completed');

  // A page read before the project was completed: the console tries, the service refuses.
  await page.route('**/projectManagement/v1/projects/code:PRJ-E2E-DONE', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({ response, json: { ...body, status: 'inProgress' } });
  });
  await page.reload();
  await page.waitForURL((u) => u.pathname === '/projects/PRJ-E2E-DONE');
  await expect(page.getByTestId('add-search')).toBeEnabled();
  const before = await order(page);
  expect(before).toEqual(['task:1', 'workOrder:WO-E2E-DONE']);

  // A move: shown at once, put back with the service's message.
  await pickUp(page, 'WO-E2E-DONE');
  await pressUntil(page, 'ArrowUp', 'WO-E2E-DONE would go to position 1 of 2.');
  await page.keyboard.press('Space');
  const refused = page.getByTestId('refusal');
  await expect(refused).toContainText('The service refused to move WO-E2E-DONE; it is back at its place');
  await expect(refused.getByTestId('refusal-message')).toHaveText('Project PRJ-E2E-DONE is completed');
  expect(await order(page)).toEqual(before);

  // A link of another work order: refused the same way.
  const search = page.getByTestId('add-search');
  await search.click();
  await search.fill('P6');
  await page.getByRole('option', { name: /WO-E2E-P6/ }).click();
  await page.getByTestId('add-submit').click();
  const message = page.getByTestId('refusal').getByTestId('refusal-message');
  await expect(message).toHaveAttribute('data-code', 'projectmanagement.project.status.conflict');
  await expect(message).toHaveText('Project PRJ-E2E-DONE is completed');
  await expect(page.getByTestId('refusal')).toContainText('Error reference');
  await expect(row(page, 'workOrder:WO-E2E-P6')).toHaveCount(0);
});

test('a service order at 4 of 5: filled to its maximum, the rules shown before trying', async ({ page }) => {
  await signIn(page, NORTH.login, NORTH.password, '/serviceorders/standard/SO-E2E');
  await networkSettled(page);
  await expect(page.getByTestId('count')).toHaveText('4 of 5 work orders');
  const search = page.getByTestId('add-search');
  await search.click();
  await search.fill('SO5');
  await page.getByRole('option', { name: /WO-E2E-SO5/ }).click();
  await page.getByTestId('add-submit').click();
  await expect(row(page, 'workOrder:WO-E2E-SO5')).toBeVisible();
  await expect(page.getByTestId('count')).toHaveText('5 of 5 work orders');
  await expect(page.getByTestId('rules')).toContainText('Full: it carries its maximum of 5 work orders');
  await expect(page.getByTestId('add-search')).toBeDisabled();
  // Full, it still reorders: the last one moved first by keyboard.
  await pickUp(page, 'WO-E2E-SO5');
  for (let i = 4; i >= 1; i--)
    await pressUntil(page, 'ArrowUp', `WO-E2E-SO5 would go to position ${i} of 5.`);
  await page.keyboard.press('Space');
  await expect.poll(async () => (await order(page))[0]).toBe('workOrder:WO-E2E-SO5');
  await networkSettled(page);
  await expect(page.getByTestId('refusal')).toHaveCount(0);
  await check(page, 'service-order-full');

  await open(page, '/serviceorders/standard/SO-E2E-DONE');
  await expect(page.getByTestId('rules')).toContainText('Completed: this service order takes no work order');
  await expect(page.getByTestId('add-search')).toBeDisabled();
});
