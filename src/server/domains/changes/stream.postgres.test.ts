/**
 * The change log on PostgreSQL, with writers in other sessions:
 *
 * - two service instances on one database (each its own pool, as two processes would
 *   have): a change written through one is pushed by the other's stream (it polls the
 *   log); a stream resumed on the other instance with Last-Event-ID gets what it missed;
 * - a commit in flight with a smaller id than one already visible (migration 103): the
 *   feed and the streams wait for it instead of passing over it.
 */
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeEntry, getChanges } from '../../../contract/changes.ts';
import { putCustomer } from '../../../contract/referentials.ts';
import { buildApp } from '../../app.ts';
import { pathOf } from '../../testing/api.ts';
import { createTestApp, NO_RATE_LIMITS, type TestApp } from '../../testing/harness.ts';
import { changeOf, openStream } from './sse.testing.ts';

let a: TestApp;
let b: FastifyInstance;
beforeAll(async () => {
  a = await createTestApp({ rateLimits: NO_RATE_LIMITS, changes: { streamMaxMs: 600_000 } });
  b = await buildApp(a.config, { logger: false });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const put = (code: string, officeCode: string) =>
  a.api(putCustomer, {
    params: { customerCode: code },
    body: { name: code, officeCode, addressDetails: { city: 'Lyon' } },
  });

describe('the change stream on two instances of one PostgreSQL', () => {
  it('pushes on one instance what was written through the other, in commit order, and resumes there', async () => {
    const token = await a.token('north');
    const s = await openStream(b, { token });
    let lastId: string | undefined;
    try {
      for (const code of ['X-1', 'X-2', 'X-3']) await put(code, 'NORTH');
      await put('X-SOUTH', 'SOUTH');
      await s.next(changeOf('X-3'));
      const got = s.changes();
      expect(got.map((e) => e.code)).toEqual(['X-1', 'X-2', 'X-3']);
      expect(got.map((e) => BigInt(e.id))).toEqual(
        [...got.map((e) => BigInt(e.id))].sort((x, y) => (x < y ? -1 : 1)),
      );
      lastId = got[0].id;
    } finally {
      s.close();
    }
    // Concurrent writers on both instances: every entry arrives once, ids increasing.
    const resumed = await openStream(b, { token, headers: { 'last-event-id': lastId ?? '' } });
    try {
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2 === 0
            ? put(`Y-${i}`, 'NORTH-A')
            : // Through the other instance, which has no t.api.
              b.inject({
                method: putCustomer.method,
                url: pathOf(putCustomer, { customerCode: `Y-${i}` }),
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                payload: JSON.stringify({ name: `Y-${i}`, addressDetails: { city: 'Lyon' } }),
              }),
        ),
      );
      await resumed.next(
        (e) => e.event === 'change' && resumed.changes().filter((c) => c.code.startsWith('Y-')).length === 8,
      );
      const codes = resumed.changes().map((e) => e.code);
      expect(codes.slice(0, 2)).toEqual(['X-2', 'X-3']);
      expect(codes.slice(2).sort()).toEqual(['Y-0', 'Y-1', 'Y-2', 'Y-3', 'Y-4', 'Y-5', 'Y-6', 'Y-7']);
      const ids = resumed.changes().map((e) => BigInt(e.id));
      expect(ids.every((id, i) => i === 0 || id > ids[i - 1])).toBe(true);
    } finally {
      resumed.close();
    }
  });

  it('never passes over a commit in flight: a smaller id made visible later is read first, in id order', async () => {
    const now = (await a.api(getChanges, { query: { since: 'now' } })).json().cursor as string;
    const s = await openStream(b, { token: await a.token('north') });
    // A writer in another session takes its entry's id and holds its commit open: the
    // deferred trigger fired (SET CONSTRAINTS ALL IMMEDIATE), the transaction not ended.
    const writer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await writer.connect();
    try {
      await writer.query(`SET search_path TO "${a.config.databaseSchema}"`);
      await writer.query('BEGIN');
      await writer.query("UPDATE customers SET name = 'Z-HELD' WHERE code = 'X-1'");
      await writer.query('SET CONSTRAINTS ALL IMMEDIATE');
      // A later write commits with a greater id and is visible first.
      await put('Z-AFTER', 'NORTH');
      let answered = false;
      const feed = a.api(getChanges, { query: { since: now } }).finally(() => {
        answered = true;
      });
      await new Promise((r) => setTimeout(r, 700));
      expect(answered).toBe(false);
      expect(s.changes().map((e) => e.code)).not.toContain('Z-AFTER');
      await writer.query('COMMIT');
      const codes = ((await feed).json().data as ChangeEntry[]).map((e) => e.code);
      expect(codes).toEqual(['X-1', 'Z-AFTER']);
      await s.next(changeOf('Z-AFTER'));
      expect(s.changes().map((e) => e.code)).toEqual(['X-1', 'Z-AFTER']);
    } finally {
      s.close();
      await writer.end();
    }
  });
});
