import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TechnicianCodes as C,
  getTechnician,
  listTechnicians,
  RosteringCodes,
  TECHNICIANS_PAGE_SIZE,
} from '../../../contract/rostering.ts';
import { runImport } from '../../cli/importFile.ts';
import { type ApiOptions, expectErrors } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';

const UNLIMITED = { perMinute: 1e9, perHour: 1e9 };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimits: { high: UNLIMITED, standard: UNLIMITED, low: UNLIMITED } });
  await runImport(t.db, {
    skills: [
      { skillCode: 'ELEC', name: 'Electricity' },
      { skillCode: 'GAS', name: 'Gas' },
    ],
    areas: [{ areaCode: 'LILLE', name: 'Lille', zipCodes: ['59000'] }],
    technicians: [
      {
        technicianCode: 'T-N',
        name: 'Nora North',
        officeCode: 'NORTH',
        skills: ['GAS', 'ELEC'],
        home: { latitude: 50.63, longitude: 3.06 },
        timeZone: 'Europe/Paris',
        workingHours: [{ weekday: 1, start: '07:00', end: '15:00' }],
        absences: [{ start: '2026-03-02T00:00', end: '2026-03-03T00:00' }],
        capacity: { maxWorkOrdersPerDay: 6 },
        areas: ['LILLE'],
      },
      { technicianCode: 'T-NA', name: 'Nils', officeCode: 'NORTH-A', skills: ['ELEC'], active: false },
      { technicianCode: 'T-S', name: 'Sam South', officeCode: 'SOUTH' },
    ],
  });
  // 250 more in NORTH-A: X-001..X-250.
  await sql`
    INSERT INTO technicians (code, name, office_id)
    SELECT 'X-' || lpad(g::text, 3, '0'), 'Extra ' || g, (SELECT id FROM offices WHERE code = 'NORTH-A')
    FROM generate_series(1, 250) g`.execute(t.db);
});
afterAll(() => t.close());

type Page = { continuationToken: string | null; data: Record<string, unknown>[] };
type Query = ApiOptions<typeof listTechnicians>['query'];

/** The list of technicians, and one technician by code. */
const list = (query: Query = {}, as: TestClient = 'root') => t.api(listTechnicians, { query, as });
const byCode = (technicianCode: string, as: TestClient = 'root') =>
  t.api(getTechnician, { params: { technicianCode }, as });
/** Every page of the list, following the tokens. */
const walk = (query: Query = {}, as: TestClient = 'root') => t.pages(listTechnicians, { query, as });
const listedCodes = (pages: Page[]) => pages.flatMap((p) => p.data.map((x) => x.technicianCode));

describe('technicians list (extension)', () => {
  it(`the caller's tree by code, ${TECHNICIANS_PAGE_SIZE} a page`, async () => {
    const pages = await walk();
    expect(pages.map((p) => p.data.length)).toEqual([200, 53]);
    const all = listedCodes(pages);
    expect(all).toEqual([...all].sort());
    expect(listedCodes(await walk({}, 'south'))).toEqual(['T-S']);
    expect(listedCodes(await walk({}, 'north'))).toHaveLength(252);
  });

  it('filters: text in the code or name, office and below, active, skill', async () => {
    expect(listedCodes(await walk({ q: 'nora' }))).toEqual(['T-N']);
    expect(listedCodes(await walk({ q: 'T-' }))).toEqual(['T-N', 'T-NA', 'T-S']);
    expect(listedCodes(await walk({ q: 'extra 25' }))).toEqual(['X-025', 'X-250']);
    expect(listedCodes(await walk({ officeCode: 'north', q: 't-' }))).toEqual(['T-N', 'T-NA']);
    expect(listedCodes(await walk({ active: 'false' }))).toEqual(['T-NA']);
    expect(listedCodes(await walk({ active: 'true', q: 'T-' }))).toEqual(['T-N', 'T-S']);
    expect(listedCodes(await walk({ skillCode: 'elec' }))).toEqual(['T-N', 'T-NA']);
    expect(listedCodes(await walk({ skillCode: 'GAS', active: 'true' }))).toEqual(['T-N']);
  });

  it('refusals and tokens bound to the filters', async () => {
    expectErrors(await list({ officeCode: 'SOUTH' }, 'north'), 400, C.officeUnknown);
    expectErrors(await list({ active: 'yes' }), 400, C.activeInvalid);
    expectErrors(await list({ q: 'x'.repeat(201) }), 400, C.qInvalid);
    // Outside the row's query: its path with a query of its own.
    expectErrors(await t.call('GET', `${listTechnicians.path}?page=2`), 400, C.listFieldUnknown);
    const token = (await list()).json().continuationToken as string;
    expect((await list({ continuationToken: token })).statusCode).toBe(200);
    expectErrors(
      await list({ q: 'X', continuationToken: token }),
      400,
      RosteringCodes.continuationTokenInvalid,
    );
  });
});

describe('technician read (extension)', () => {
  it('the technician with its calendar in effect', async () => {
    const res = await byCode('t-n', 'north');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      technicianCode: 'T-N',
      name: 'Nora North',
      officeCode: 'NORTH',
      active: true,
      skills: ['ELEC', 'GAS'],
      home: { latitude: 50.63, longitude: 3.06 },
      timeZone: 'Europe/Paris',
      workingHours: [{ weekday: 1, start: '07:00', end: '15:00' }],
      absences: [{ start: '2026-03-02T00:00:00Z', end: '2026-03-03T00:00:00Z' }],
      capacity: { maxWorkOrdersPerDay: 6, maxMinutesPerDay: null },
      areas: ['LILLE'],
      lastUpdate: expect.stringMatching(/Z$/),
    });
    const plain = (await byCode('T-S')).json();
    expect(plain).toMatchObject({ home: null, timeZone: 'UTC', absences: [], areas: [] });
    expect(plain.workingHours).toHaveLength(5);
  });

  it('404 rostering.technician.notfound: unknown or outside the tree', async () => {
    expectErrors(await byCode('NOBODY'), 404, C.notFound);
    expectErrors(await byCode('T-S', 'north'), 404, C.notFound);
    expectErrors(await byCode('T-N', 'northA'), 404, C.notFound);
  });
});
