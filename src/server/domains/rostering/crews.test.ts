import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RosteringCodes as C, listCrews } from '../../../contract/rostering.ts';
import { runImport } from '../../cli/importFile.ts';
import type { ApiOptions } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';

let t: TestApp;
const tech = (code: string, officeCode: string, active = true) => ({
  technicianCode: code,
  name: code,
  officeCode,
  active,
});
const file = {
  technicians: [
    tech('N1', 'NORTH'),
    tech('N2', 'NORTH-A'),
    tech('S1', 'SOUTH'),
    tech('S2', 'SOUTH'),
    tech('OFF', 'NORTH', false),
  ],
  crews: [
    {
      crewCode: 'C-NORTH',
      mainResource: { technicianCode: 'N1', from: '2030-01-01' },
      secondaryResources: [
        { technicianCode: 'N2', from: '2030-01-10', to: '2030-01-20' },
        { technicianCode: 'N2', from: '2030-02-01' },
        { technicianCode: 'S1', from: '2030-01-01' },
      ],
    },
    // Visible from NORTH through its secondary N2; its main S2 is shown all the same.
    {
      crewCode: 'C-MIXED',
      mainResource: { technicianCode: 'S2', from: '2030-01-05', to: '2030-01-25' },
      secondaryResources: [{ technicianCode: 'N2', from: '2030-01-05' }],
    },
    { crewCode: 'C-SOUTH', mainResource: { technicianCode: 'S1', from: '2030-01-01' } },
    {
      crewCode: 'C-DISABLED',
      mainResource: { technicianCode: 'N1', from: '2030-01-01' },
      disabledAt: '2030-06-01',
    },
    { crewCode: 'C-INACTIVE', mainResource: { technicianCode: 'OFF', from: '2030-01-01' } },
    { crewCode: 'C-LATER', mainResource: { technicianCode: 'N1', from: '2031-01-01' } },
  ],
};

beforeAll(async () => {
  t = await createTestApp();
  await runImport(t.db, file);
});
afterAll(() => t.close());

type Query = ApiOptions<typeof listCrews>['query'];
/** A page of crews answered 200. */
const list = async (query: Query, as: TestClient = 'root') => {
  const res = await t.api(listCrews, { query, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const period = { crewsStartDate: '2030-01-15', crewsEndDate: '2030-01-31' };

describe('crews list (spec endpoint 6)', () => {
  it('returns the crews of the period, intervals clipped; disabled and inactive-main crews hidden', async () => {
    const page = await list(period);
    expect(page.continuationToken).toBeNull();
    expect(page.data).toEqual([
      {
        crewCode: 'C-MIXED',
        mainResource: { technicianCode: 'S2', intervals: [{ from: '2030-01-15', to: '2030-01-25' }] },
        secondaryResources: [{ technicianCode: 'N2', intervals: [{ from: '2030-01-15', to: '2030-01-31' }] }],
      },
      {
        crewCode: 'C-NORTH',
        mainResource: { technicianCode: 'N1', intervals: [{ from: '2030-01-15', to: '2030-01-31' }] },
        secondaryResources: [
          { technicianCode: 'N2', intervals: [{ from: '2030-01-15', to: '2030-01-20' }] },
          { technicianCode: 'S1', intervals: [{ from: '2030-01-15', to: '2030-01-31' }] },
        ],
      },
      {
        crewCode: 'C-SOUTH',
        mainResource: { technicianCode: 'S1', intervals: [{ from: '2030-01-15', to: '2030-01-31' }] },
        secondaryResources: [],
      },
    ]);
  });

  it('visible when a member is in the tree; secondaries outside hidden; the main always shown', async () => {
    const north = await list(period, 'north');
    expect(north.data.map((c: { crewCode: string }) => c.crewCode)).toEqual(['C-MIXED', 'C-NORTH']);
    const northCrew = north.data[1];
    expect(northCrew.secondaryResources.map((r: { technicianCode: string }) => r.technicianCode)).toEqual([
      'N2',
    ]);
    expect(north.data[0].mainResource.technicianCode).toBe('S2');
    const south = await list(period, 'south');
    expect(south.data.map((c: { crewCode: string }) => c.crewCode)).toEqual([
      'C-MIXED',
      'C-NORTH',
      'C-SOUTH',
    ]);
    expect(south.data[0].secondaryResources).toEqual([]);
    // Past periods answer as stored now.
    expect(
      (await list({ crewsStartDate: '2030-01-01', crewsEndDate: '2030-01-04' })).data.map(
        (c: { crewCode: string }) => c.crewCode,
      ),
    ).toEqual(['C-NORTH', 'C-SOUTH']);
  });

  it('pages by crewsSize with a token bound to the period', async () => {
    const first = await list({ ...period, crewsSize: 2 });
    expect(first.data.map((c: { crewCode: string }) => c.crewCode)).toEqual(['C-MIXED', 'C-NORTH']);
    const second = await list({ ...period, crewsSize: 2, continuationToken: first.continuationToken });
    expect(second.data.map((c: { crewCode: string }) => c.crewCode)).toEqual(['C-SOUTH']);
    expect(second.continuationToken).toBeNull();
    const other = await t.api(listCrews, {
      query: {
        crewsStartDate: '2030-01-01',
        crewsEndDate: '2030-01-31',
        continuationToken: first.continuationToken,
      },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().errors[0].code).toBe(C.continuationTokenInvalid);
  });

  it('validates its query: dates required and real, size 1..500, end not before start', async () => {
    // Bad queries as sent, on the row's path.
    const periodQuery = 'crewsStartDate=2030-01-15&crewsEndDate=2030-01-31';
    const bad = async (query: string, code: string) => {
      const res = await t.call('GET', `${listCrews.path}?${query}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors.map((e: { code: string }) => e.code)).toContain(code);
    };
    await bad('crewsEndDate=2030-01-31', C.crewsStartDateMandatory);
    await bad('crewsStartDate=2030-01-31', C.crewsEndDateMandatory);
    await bad('crewsStartDate=2030-02-30&crewsEndDate=2030-03-01', C.crewsStartDateInvalid);
    await bad('crewsStartDate=2030-01-01&crewsEndDate=01/02/2030', C.crewsEndDateInvalid);
    await bad(`${periodQuery}&crewsSize=0`, C.crewsSizeInvalid);
    await bad(`${periodQuery}&crewsSize=501`, C.crewsSizeInvalid);
    await bad(`${periodQuery}&crewsSize=1.5`, C.crewsSizeInvalid);
    await bad('crewsStartDate=2030-02-01&crewsEndDate=2030-01-01', C.periodInvalid);
    await bad(`${periodQuery}&size=3`, C.fieldUnknown);
    expect((await list({ ...period, crewsSize: 500 })).data).toHaveLength(3);
  });
});

describe('crews list: default page size, past periods', () => {
  const codesOf = (page: { data: { crewCode: string }[] }) => page.data.map((c) => c.crewCode);

  it('crewsSize defaults to 100: 101 crews give a first page of 100 and a token', async () => {
    const crews = Array.from({ length: 101 }, (_, i) => ({
      crewCode: `BULK-${String(i).padStart(3, '0')}`,
      mainResource: { technicianCode: 'N2', from: '2021-01-01', to: '2021-12-31' },
    }));
    await runImport(t.db, { crews });
    const march = { crewsStartDate: '2021-03-01', crewsEndDate: '2021-03-31' };
    const first = await list(march);
    expect(codesOf(first)).toEqual(crews.slice(0, 100).map((c) => c.crewCode));
    expect(first.continuationToken).toEqual(expect.any(String));
    const second = await list({ ...march, continuationToken: first.continuationToken });
    expect(codesOf(second)).toEqual(['BULK-100']);
    expect(second.continuationToken).toBeNull();
  });

  it('a past period is answered as stored now', async () => {
    await runImport(t.db, {
      crews: [
        {
          crewCode: 'PAST',
          mainResource: { technicianCode: 'N1', from: '2020-01-01', to: '2020-02-15' },
          secondaryResources: [
            { technicianCode: 'N2', from: '2019-12-01', to: '2020-01-10' },
            { technicianCode: 'S1', from: '2020-01-20' },
          ],
        },
        // Live during the period, but disabled, or with an inactive main resource, now: hidden.
        {
          crewCode: 'PAST-DISABLED',
          mainResource: { technicianCode: 'N1', from: '2020-01-01' },
          disabledAt: '2020-06-01',
        },
        { crewCode: 'PAST-INACTIVE', mainResource: { technicianCode: 'OFF', from: '2020-01-01' } },
      ],
    });
    const past = { crewsStartDate: '2020-01-05', crewsEndDate: '2020-01-31' };
    const n2 = { technicianCode: 'N2', intervals: [{ from: '2020-01-05', to: '2020-01-10' }] };
    expect((await list(past)).data).toEqual([
      {
        crewCode: 'PAST',
        mainResource: { technicianCode: 'N1', intervals: [{ from: '2020-01-05', to: '2020-01-31' }] },
        secondaryResources: [
          n2,
          { technicianCode: 'S1', intervals: [{ from: '2020-01-20', to: '2020-01-31' }] },
        ],
      },
    ]);
    expect((await list(past, 'north')).data[0].secondaryResources).toEqual([n2]);
    // Rewritten today: the past period follows the crew as stored now (no history is kept).
    await runImport(t.db, {
      crews: [
        { crewCode: 'PAST', mainResource: { technicianCode: 'N1', from: '2020-01-01', to: '2020-01-07' } },
      ],
    });
    expect((await list(past)).data).toEqual([
      {
        crewCode: 'PAST',
        mainResource: { technicianCode: 'N1', intervals: [{ from: '2020-01-05', to: '2020-01-07' }] },
        secondaryResources: [],
      },
    ]);
  });
});

describe('rostering import keys', () => {
  it('technician calendars, areas and crews import idempotently', async () => {
    const more = {
      areas: [{ areaCode: 'a1', name: 'Area 1', zipCodes: ['59000'] }],
      technicians: [
        {
          ...tech('CAL', 'NORTH'),
          timeZone: 'Europe/Paris',
          workingHours: [{ weekday: 1, start: '08:00', end: '12:00' }],
          absences: [{ start: '2030-01-01T00:00', end: '2030-01-02T00:00' }],
          capacity: { maxWorkOrdersPerDay: 4, maxMinutesPerDay: 420 },
          areas: ['A1'],
        },
      ],
    };
    const first = await runImport(t.db, more);
    expect(first.map((k) => k.created)).toEqual([1, 1]);
    const again = await runImport(t.db, { ...more, crews: file.crews });
    expect(again.every((k) => k.created === 0 && k.updated === 0)).toBe(true);
  });

  it('refuses a bad time zone, hours, an unknown area, a repeated main resource', async () => {
    const cal = tech('BAD', 'NORTH');
    await expect(runImport(t.db, { technicians: [{ ...cal, timeZone: 'Mars/Olympus' }] })).rejects.toThrow(
      /timeZone/,
    );
    await expect(
      runImport(t.db, {
        technicians: [{ ...cal, workingHours: [{ weekday: 8, start: '08:00', end: '07:00' }] }],
      }),
    ).rejects.toThrow(/workingHours\[0\]/);
    await expect(runImport(t.db, { technicians: [{ ...cal, areas: ['NOPE'] }] })).rejects.toThrow(
      /rostering.technician.area.unknown/,
    );
    await expect(
      runImport(t.db, {
        crews: [
          {
            crewCode: 'X',
            mainResource: { technicianCode: 'N1', from: '2030-01-01' },
            secondaryResources: [{ technicianCode: 'n1', from: '2030-01-01' }],
          },
        ],
      }),
    ).rejects.toThrow(/rostering.crew.main.repeated/);
  });
});
