import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FieldTrackingCodes as C,
  listActivitiesByCode,
  listPositions,
  POSITIONS_PAGE_SIZE,
  positionsSpan,
} from '../../../contract/fieldTracking.ts';
import { runImport } from '../../cli/importFile.ts';
import { type ApiOptions, codesOf, expectErrors, pathOf } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { BASE_START, baseFile, insertPositions } from './fixture.ts';

const UNLIMITED = { perMinute: 1e9, perHour: 1e9 };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimits: { high: UNLIMITED, standard: UNLIMITED, low: UNLIMITED } });
  await runImport(t.db, {
    ...baseFile,
    technicians: [
      ...baseFile.technicians,
      { technicianCode: 'T-500', name: 'Five Hundred', officeCode: 'NORTH' },
    ],
  });
  await insertPositions(t.db, 'T-N', 1001);
  await insertPositions(t.db, 'T-500', 500);
  await insertPositions(t.db, 'T-S', 3);
});
afterAll(() => t.close());

type Page = { continuationToken: string | null; data: Record<string, unknown>[] };
type Query = ApiOptions<typeof listPositions>['query'];
/** A technician's positions, by code. */
const get = (technicianCode: string, query: Query = {}, as: TestClient = 'root') =>
  t.api(listPositions, { params: { technicianCode }, query, as });
/** Every page of the list, following the tokens. */
const walk = (technicianCode: string, query: Query = {}) =>
  t.pages(listPositions, { params: { technicianCode }, query });
const at = (i: number) => new Date(BASE_START + i * 30_000).toISOString().replace('.000', '');
const stamps = (pages: Page[]) => pages.flatMap((p) => p.data.map((d) => d.timestamp));

describe('positions: pages of 500 by timestamp', () => {
  it('1001 positions: 500, 500 and 1, sorted by timestamp, each once, the last token null', async () => {
    const pages = await walk('T-N');
    expect(pages.map((p) => p.data.length)).toEqual([POSITIONS_PAGE_SIZE, POSITIONS_PAGE_SIZE, 1]);
    expect(pages[2].continuationToken).toBeNull();
    expect(stamps(pages)).toEqual(Array.from({ length: 1001 }, (_, i) => at(i)));
  });

  it('exactly 500: one page with a null token', async () => {
    const pages = await walk('T-500');
    expect(pages.map((p) => p.data.length)).toEqual([500]);
    expect(pages[0].continuationToken).toBeNull();
  });

  it('the element: timestamp, latitude, longitude, accuracy, speed, heading', async () => {
    const [first] = (await walk('T-500'))[0].data;
    expect(first).toEqual({
      timestamp: at(0),
      latitude: 50.00001,
      longitude: 3.00001,
      accuracy: 5,
      speed: 1,
      heading: 1,
    });
  });
});

describe('positionsStartDate (and the positionsEndDate extension)', () => {
  it('positions at or after the start; minutes, seconds or a final Z', async () => {
    for (const start of ['2026-01-05T08:05', '2026-01-05T08:05:00', '2026-01-05T08:05:00Z']) {
      const pages = await walk('T-N', { positionsStartDate: start });
      expect(stamps(pages)[0]).toBe('2026-01-05T08:05:00Z');
      expect(stamps(pages)).toHaveLength(1001 - 10);
    }
    const later = await walk('T-N', { positionsStartDate: '2026-01-05T08:05:01' });
    expect(stamps(later)[0]).toBe('2026-01-05T08:05:30Z');
    const after = await walk('T-N', { positionsStartDate: '2026-02-01T00:00' });
    expect(after).toEqual([{ continuationToken: null, data: [] }]);
  });

  it('positionsEndDate: strictly before it (a day, an hour)', async () => {
    const hour = await walk('T-N', {
      positionsStartDate: '2026-01-05T08:00',
      positionsEndDate: '2026-01-05T09:00',
    });
    expect(stamps(hour)).toEqual(Array.from({ length: 120 }, (_, i) => at(i)));
    const untilEnd = await walk('T-N', { positionsEndDate: '2026-01-05T08:01' });
    expect(stamps(untilEnd)).toEqual([at(0), at(1)]);
  });

  it('malformed dates and an empty period are 400', async () => {
    for (const bad of ['2026-01-05', '2026-13-01T08:00', '2026-01-05 08:00', 'yesterday', ''])
      expectErrors(await get('T-N', { positionsStartDate: bad }), 400, C.positionsStartDateInvalid);
    expectErrors(await get('T-N', { positionsEndDate: '2026-02-30T00:00' }), 400, C.positionsEndDateInvalid);
    expectErrors(
      await get('T-N', { positionsStartDate: '2026-01-05T09:00', positionsEndDate: '2026-01-05T09:00' }),
      400,
      C.positionsPeriodInvalid,
    );
    // Outside the row's query: its path with a query of its own.
    const path = pathOf(listPositions, { technicianCode: 'T-N' });
    expectErrors(await t.call('GET', `${path}?since=2026-01-05T09:00`), 400, C.fieldUnknown);
  });
});

describe('positions: tokens', () => {
  it('bound to the technician and the dates; tampered tokens refused', async () => {
    const first = (await get('T-N', { positionsStartDate: '2026-01-05T08:00' })).json() as Page;
    const token = first.continuationToken as string;
    expect(
      (await get('T-N', { positionsStartDate: '2026-01-05T08:00', continuationToken: token })).statusCode,
    ).toBe(200);
    // The same instant spelled another way is the same filter.
    expect(
      (await get('T-N', { positionsStartDate: '2026-01-05T08:00:00Z', continuationToken: token })).statusCode,
    ).toBe(200);
    for (const query of [
      {},
      { positionsStartDate: '2026-01-05T08:01' },
      { positionsStartDate: '2026-01-05T08:00', positionsEndDate: '2026-01-06T00:00' },
    ])
      expectErrors(await get('T-N', { ...query, continuationToken: token }), 400, C.continuationTokenInvalid);
    expectErrors(
      await get('T-500', { positionsStartDate: '2026-01-05T08:00', continuationToken: token }),
      400,
      C.continuationTokenInvalid,
    );
    expectErrors(
      await get('T-N', {
        positionsStartDate: '2026-01-05T08:00',
        continuationToken: `${token.slice(0, -2)}xx`,
      }),
      400,
      C.continuationTokenInvalid,
    );
  });
});

describe('positions: the technician', () => {
  it('codes are case-insensitive', async () => {
    expect((await get('t-n')).json()).toEqual((await get('T-N')).json());
  });

  it('404 fieldTracking.technician.notfound: unknown, or outside the tree (the same answer)', async () => {
    expectErrors(await get('NOBODY'), 404, C.technicianNotFound);
    expectErrors(await get('T-S', {}, 'north'), 404, C.technicianNotFound);
    expectErrors(await get('T-N', {}, 'northA'), 404, C.technicianNotFound);
    expect((await get('T-S', {}, 'south')).json().data).toHaveLength(3);
    expect((await get('T-NA', {}, 'north')).json()).toEqual({ continuationToken: null, data: [] });
    expectErrors(await get('T%20N'), 400, C.technicianCodeInvalid);
  });
});

describe('positions span (extension): where the positions start and end', () => {
  const span = (technicianCode: string, as: TestClient = 'root') =>
    t.api(positionsSpan, { params: { technicianCode }, as });

  it('the first and last timestamps; both null for a technician without positions', async () => {
    expect((await span('T-N')).json()).toEqual({ firstTimestamp: at(0), lastTimestamp: at(1000) });
    expect((await span('t-500')).json()).toEqual({ firstTimestamp: at(0), lastTimestamp: at(499) });
    expect((await span('T-NA', 'north')).json()).toEqual({ firstTimestamp: null, lastTimestamp: null });
  });

  it("404 for another office's technician or an unknown one, as the positions list", async () => {
    expectErrors(await span('T-S', 'north'), 404, C.technicianNotFound);
    expectErrors(await span('T-N', 'northA'), 404, C.technicianNotFound);
    expectErrors(await span('NOBODY'), 404, C.technicianNotFound);
    expect((await span('T-S', 'south')).json()).toEqual({ firstTimestamp: at(0), lastTimestamp: at(2) });
    expectErrors(await span('T%20N'), 400, C.technicianCodeInvalid);
    const path = pathOf(positionsSpan, { technicianCode: 'T-N' });
    expectErrors(await t.call('GET', `${path}?before=2026-01-05`), 400, C.fieldUnknown);
  });

  it('an extension of the standard range', () => {
    expect(positionsSpan.extension).toBe(true);
    expect(positionsSpan.range).toBe('standard');
  });
});

describe('positions: rate range Low', () => {
  it('the row says low, and the Low budget is spent after its figure', async () => {
    expect(listPositions.range).toBe('low');
    const small = await createTestApp({
      rateLimits: { high: UNLIMITED, standard: UNLIMITED, low: { perMinute: 2, perHour: 100 } },
    });
    try {
      await runImport(small.db, baseFile);
      const params = { technicianCode: 'T-N' };
      expect((await small.api(listPositions, { params })).statusCode).toBe(200);
      expect((await small.api(listPositions, { params })).statusCode).toBe(200);
      const refused = await small.api(listPositions, { params });
      expect(refused.statusCode).toBe(429);
      expect(codesOf(refused)).toEqual(['ratelimiter.toomanyrequest']);
      // Activities are High: still answered.
      const activities = await small.api(listActivitiesByCode, { params: { workOrderCode: 'WO-200' } });
      expect(activities.statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });
});

describe('import key positions', () => {
  const file = {
    positions: [
      { technicianCode: 't-na', timestamp: '2026-03-02T08:00', latitude: 50.1, longitude: 3.1 },
      {
        technicianCode: 'T-NA',
        timestamp: '2026-03-02T08:00:30',
        latitude: 50.2,
        longitude: 3.2,
        accuracy: 12.5,
        speed: 8.25,
        heading: 359.5,
      },
    ],
  };

  it('imports, and a replay changes nothing; a changed position is updated', async () => {
    expect((await runImport(t.db, file))[0]).toMatchObject({ key: 'positions', created: 2, updated: 0 });
    expect((await runImport(t.db, file))[0]).toMatchObject({ created: 0, updated: 0 });
    expect((await get('T-NA')).json().data).toEqual([
      {
        timestamp: '2026-03-02T08:00:00Z',
        latitude: 50.1,
        longitude: 3.1,
        accuracy: null,
        speed: null,
        heading: null,
      },
      {
        timestamp: '2026-03-02T08:00:30Z',
        latitude: 50.2,
        longitude: 3.2,
        accuracy: 12.5,
        speed: 8.25,
        heading: 359.5,
      },
    ]);
    const moved = structuredClone(file);
    moved.positions[0].latitude = 50.15;
    expect((await runImport(t.db, moved))[0]).toMatchObject({ created: 0, updated: 1 });
  });

  it('refuses an unknown technician, values out of range and one instant given twice', async () => {
    const p = file.positions[0];
    await expect(runImport(t.db, { positions: [{ ...p, technicianCode: 'NOBODY' }] })).rejects.toThrow(
      /fieldTracking.position.technician.unknown/,
    );
    await expect(runImport(t.db, { positions: [{ ...p, latitude: 91 }] })).rejects.toThrow(
      /positions\[0\]\.latitude/,
    );
    await expect(runImport(t.db, { positions: [{ ...p, heading: 360 }] })).rejects.toThrow(
      /positions\[0\]\.heading/,
    );
    await expect(
      runImport(t.db, { positions: [p, { ...p, timestamp: '2026-03-02T08:00:00Z' }] }),
    ).rejects.toThrow(/positions\[1\]: T-NA 2026-03-02T08:00:00.000Z is already given at positions\[0\]/);
  });
});
