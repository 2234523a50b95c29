import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeEntry, ChangesCodes, getChangeStream, getChanges } from '../../../contract/changes.ts';
import { CommonCodes } from '../../../contract/errors.ts';
import { putCustomer } from '../../../contract/referentials.ts';
import { expectErrors, pathOf } from '../../testing/api.ts';
import { runCapturedCli } from '../../testing/cli.ts';
import { createTestApp, NO_RATE_LIMITS, type TestApp } from '../../testing/harness.ts';
import { pruneChanges } from './retention.ts';
import { changeOf, openStream } from './sse.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    rateLimits: NO_RATE_LIMITS,
    changes: { heartbeatMs: 200, streamMaxMs: 600_000 },
  });
});
afterAll(() => t?.close());

const customer = (name: string, officeCode: string) => ({
  name,
  officeCode,
  addressDetails: { city: 'Lyon' },
});
const put = (code: string, officeCode: string, name = code) =>
  t.api(putCustomer, { params: { customerCode: code }, body: customer(name, officeCode) });

describe('GET /changes/v1/stream', () => {
  it("pushes each new entry of the caller's tree as an event, never another tree's, with heartbeats", async () => {
    const s = await openStream(t.app, { token: await t.token('north') });
    try {
      expect(s.status).toBe(200);
      expect(String(s.headers['content-type'])).toMatch(/^text\/event-stream/);
      await put('S-SOUTH', 'SOUTH');
      await put('S-NORTH', 'NORTH-A');
      const event = await s.next(changeOf('S-NORTH'));
      const entry = JSON.parse(event.data ?? '') as ChangeEntry;
      expect(event.id).toBe(entry.id);
      expect(entry).toMatchObject({ kind: 'customer', action: 'created', officeCode: 'NORTH-A' });
      await s.next((e) => e.comment === 'heartbeat');
      expect(s.changes().map((e) => e.code)).toEqual(['S-NORTH']);
    } finally {
      s.close();
    }
  });

  it('resumes after Last-Event-ID (header or lastEventId=) with the entries missed, then goes on live', async () => {
    const before = await openStream(t.app, { token: await t.token('root') });
    await put('R-1', 'NORTH');
    const first = await before.next(changeOf('R-1'));
    before.close();
    // Written while no stream was open.
    await put('R-2', 'NORTH');
    await put('R-3', 'SOUTH');
    const resumed = await openStream(t.app, {
      token: await t.token('root'),
      headers: { 'last-event-id': first.id ?? '' },
    });
    try {
      await resumed.next(changeOf('R-3'));
      await put('R-4', 'NORTH');
      await resumed.next(changeOf('R-4'));
      expect(resumed.changes().map((e) => e.code)).toEqual(['R-2', 'R-3', 'R-4']);
    } finally {
      resumed.close();
    }
    const byQuery = await openStream(t.app, {
      token: await t.token('north'),
      query: `lastEventId=${first.id}`,
    });
    try {
      await byQuery.next(changeOf('R-2'));
      await put('R-5', 'NORTH');
      await byQuery.next(changeOf('R-5'));
      // R-3 is SOUTH's: not north's to see.
      expect(byQuery.changes().map((e) => e.code)).toEqual(['R-2', 'R-4', 'R-5']);
    } finally {
      byQuery.close();
    }
  });

  it('takes the token as access_token= (EventSource sends no header), and refuses a stream without one', async () => {
    const s = await openStream(t.app, { query: `access_token=${await t.token('south')}` });
    try {
      expect(s.status).toBe(200);
      await put('Q-1', 'SOUTH');
      await s.next(changeOf('Q-1'));
    } finally {
      s.close();
    }
    // No token at all (t.api always sends one).
    const refused = await t.app.inject({ method: getChangeStream.method, url: pathOf(getChangeStream) });
    expectErrors(refused, 401, CommonCodes.noCredentials);
  });

  it('answers 400 to a Last-Event-ID that is not an entry id, and 410 to one past the retention', async () => {
    const bad = await t.api(getChangeStream, { query: { lastEventId: 'abc' } });
    expectErrors(bad, 400, ChangesCodes.lastEventIdInvalid);
    const cursor = (await t.api(getChanges, { query: { since: 'now' } })).json().cursor;
    await put('OLD-S', 'NORTH');
    const head = (
      await t.db
        .selectFrom('changes')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('tenant_id', '=', t.tenants.ROOT)
        .executeTakeFirstOrThrow()
    ).id;
    await t.db
      .updateTable('changes')
      .set({ at: new Date(Date.now() - 100 * 86_400_000) })
      .execute();
    await pruneChanges(t.db, 90);
    expectErrors(
      await t.api(getChangeStream, { query: { lastEventId: '1' } }),
      410,
      ChangesCodes.cursorExpired,
    );
    expectErrors(await t.api(getChanges, { query: { since: cursor } }), 410, ChangesCodes.cursorExpired);
    // From the last pruned entry on, nothing is missing: accepted.
    const s = await openStream(t.app, { token: await t.token('root'), query: `lastEventId=${head}` });
    expect(s.status).toBe(200);
    s.close();
  });

  it("ends a stream when callers change (an application disabled), and its token's reconnection is refused", async () => {
    const token = await t.token('south');
    const s = await openStream(t.app, { token });
    const cli = (...argv: string[]) =>
      runCapturedCli(argv, { config: t.config, database: t.config.databaseUrl ? undefined : t.db });
    try {
      expect(s.status).toBe(200);
      expect(await cli('apps', 'disable', 'south')).toMatchObject({ code: 0 });
      await Promise.race([
        s.ended,
        new Promise((_, reject) => setTimeout(() => reject(new Error('the stream did not end')), 5000)),
      ]);
      // The very token of the stream that ended.
      const again = await t.app.inject({
        method: getChangeStream.method,
        url: pathOf(getChangeStream),
        headers: { authorization: `Bearer ${token}` },
      });
      expectErrors(again, 401, CommonCodes.badCredentials);
    } finally {
      s.close();
      await cli('apps', 'enable', 'south');
    }
  });
});
