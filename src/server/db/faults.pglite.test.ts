/**
 * PGlite (issue 25 §1): one session in this process, so no connection to lose and no other
 * session's lock; what can wait is a request behind a transaction holding the session. It
 * waits at most FIELDWORK_DB_TIMEOUT_MS, then answers 503 `service.database.unavailable`,
 * and the requests after it are served in turn once the session is free.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCustomer, putCustomer } from '../../contract/referentials.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';

const TIMEOUT = 300;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dbTimeoutMs: TIMEOUT });
  const res = await t.api(putCustomer, {
    params: { customerCode: 'C1' },
    body: { name: 'C1', addressDetails: { city: 'Lyon' } },
  });
  expect(res.statusCode).toBe(201);
});
afterAll(() => t.close());

describe('PGlite: a request behind a transaction that holds the session', () => {
  it('answers 503 with Retry-After after the timeout; the holder commits; the next requests are served', async () => {
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let holding = () => {};
    const held = new Promise<void>((r) => {
      holding = r;
    });
    const holder = t.db.transaction().execute(async (trx) => {
      await trx.updateTable('customers').set({ name: 'Held' }).where('code', '=', 'C1').execute();
      holding();
      await gate;
    });
    await held;
    const started = performance.now();
    const [first, second] = await Promise.all([
      t.api(getCustomer, { params: { customerCode: 'C1' } }),
      t.api(getCustomer, { params: { customerCode: 'C1' } }),
    ]);
    const waited = performance.now() - started;
    for (const res of [first, second]) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().errors[0].code).toBe('service.database.unavailable');
      expect(res.headers['retry-after']).toBe('2');
    }
    expect(waited).toBeGreaterThanOrEqual(TIMEOUT - 5);
    expect(waited).toBeLessThan(TIMEOUT + 1_000);
    release();
    await holder;
    // The requests that gave up passed their turn on: the session is free again.
    const after = await t.api(getCustomer, { params: { customerCode: 'C1' } });
    expect(after.statusCode).toBe(200);
    expect(after.json().name).toBe('Held');
  });
});
