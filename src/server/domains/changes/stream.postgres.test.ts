/**
 * The stream across processes: two service instances on one PostgreSQL database (each its
 * own pool and its own LISTEN connection, as two processes would have). A change written
 * through one is pushed by the other's stream, from the NOTIFY the commit sends; a stream
 * resumed on the other instance with Last-Event-ID gets what it missed.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putCustomer } from '../../../contract/referentials.ts';
import { buildApp } from '../../app.ts';
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
            : b.inject({
                method: 'PUT',
                url: `/eTech/rest/ws/referentials/v1/customers/code:Y-${i}`,
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
});
