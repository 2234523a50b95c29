import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SchedulingCodes as C,
  getScheduleByCode,
  getScheduleByUuid,
  scheduleByCode,
  scheduleByUuid,
  unscheduleByCode,
} from '../../../contract/scheduling.ts';
import { searchSlots } from '../../../contract/slots.ts';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { futureMonday, LILLE, plusDays, slotFixture } from '../slots/fixture.ts';

let t: TestApp;
const monday = futureMonday();

beforeAll(async () => {
  t = await createTestApp();
  const file = slotFixture(monday);
  await runImport(t.db, {
    ...file,
    workOrders: [
      ...file.workOrders,
      { workOrderCode: 'WO-DONE', workOrderTypeCode: 'REPAIR', status: 'COMPLETED', officeCode: 'NORTH' },
      {
        workOrderCode: 'WO-UNS',
        workOrderTypeCode: 'REPAIR',
        status: 'SCHEDULED',
        officeCode: 'NORTH',
        technicianCode: 'T-PARIS',
        scheduledStart: `${monday}T15:00`,
        location: LILLE,
      },
      {
        workOrderCode: 'WO-STARTED',
        workOrderTypeCode: 'REPAIR',
        status: 'IN_PROGRESS',
        officeCode: 'NORTH',
        technicianCode: 'T-PARIS',
        scheduledStart: `${monday}T07:00`,
        location: LILLE,
      },
      {
        workOrderCode: 'WO-GAS',
        workOrderTypeCode: 'GASFIX',
        status: 'NEW',
        officeCode: 'NORTH',
        location: LILLE,
      },
    ],
    crews: [
      {
        crewCode: 'CREW-1',
        mainResource: { technicianCode: 'T-PARIS', from: '2024-01-01' },
        secondaryResources: [{ technicianCode: 'T-UTC', from: '2024-01-01', to: plusDays(monday, 2) }],
      },
    ],
  });
  // Another tenant with a work order of its own.
  await runImport(
    t.db,
    {
      skills: file.skills,
      workOrderTypes: file.workOrderTypes,
      workOrders: [
        { workOrderCode: 'WO-RIVAL', workOrderTypeCode: 'REPAIR', status: 'NEW', officeCode: 'RIVAL' },
      ],
    },
    { tenant: 'RIVAL' },
  );
});
afterAll(() => t.close());

const put = (code: string, body: unknown, as: TestClient = 'root') =>
  t.api(scheduleByCode, { params: { workOrderCode: code }, body, as });
async function refused(code: string, body: unknown, expected: string, as: TestClient = 'root', status = 400) {
  const res = await put(code, body, as);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().errors.map((e: { code: string }) => e.code)).toEqual([expected]);
}
const start = `${monday}T08:00`;

describe('scheduling PUT and GET', () => {
  it('schedules on a technician: 204, status SCHEDULED, read back by code and by uuid', async () => {
    const res = await put('wo-new', { technicianCode: 't-paris', start });
    expect(res.statusCode, res.body).toBe(204);
    const byCode = await t.api(getScheduleByCode, { params: { workOrderCode: 'WO-NEW' } });
    expect(byCode.statusCode).toBe(200);
    const got = byCode.json();
    expect(got).toMatchObject({
      workOrderCode: 'WO-NEW',
      status: 'SCHEDULED',
      technicianCode: 'T-PARIS',
      crewCode: null,
      scheduledStart: `${monday}T08:00:00Z`,
      scheduledEnd: `${monday}T09:00:00Z`,
    });
    const byUuid = await t.api(getScheduleByUuid, { params: { workOrderUuid: got.uuid } });
    expect(byUuid.json()).toEqual(got);
    // And the uuid path schedules too.
    expect(
      (
        await t.api(scheduleByUuid, {
          params: { workOrderUuid: got.uuid },
          body: { technicianCode: 'T-UTC', start: `${monday}T14:00` },
        })
      ).statusCode,
    ).toBe(204);
    expect(
      (await t.api(getScheduleByCode, { params: { workOrderCode: 'WO-NEW' } })).json().technicianCode,
    ).toBe('T-UTC');
  });

  it('a scheduled work order blocks the slot search', async () => {
    await put('WO-NEW', { technicianCode: 'T-UTC', start: `${monday}T14:00` });
    const res = await t.api(searchSlots, {
      body: {
        workOrderType: { code: 'REPAIR' },
        timeRanges: [{ start: `${monday}T13:00`, end: `${monday}T17:00` }],
        location: LILLE,
        offices: { codes: ['NORTH-A'] },
        maximumSlotNumber: 700,
      },
    });
    for (const s of res.json().slots) {
      const from = Date.parse(s.start) - s.travelBefore.minutes * 60_000;
      const to = Date.parse(s.end) + s.travelAfter.minutes * 60_000;
      expect(to <= Date.parse(`${monday}T14:00:00Z`) || from >= Date.parse(`${monday}T15:00:00Z`)).toBe(true);
    }
  });

  it('schedules on a crew: the main resource does the work, the members skills count', async () => {
    // GASFIX needs GAS: only T-UTC (secondary, until Wednesday) holds it.
    expect((await put('WO-GAS', { crewCode: 'crew-1', start })).statusCode).toBe(204);
    expect((await t.api(getScheduleByCode, { params: { workOrderCode: 'WO-GAS' } })).json()).toMatchObject({
      technicianCode: 'T-PARIS',
      crewCode: 'CREW-1',
      status: 'SCHEDULED',
    });
    await refused(
      'WO-GAS',
      { crewCode: 'CREW-1', start: `${plusDays(monday, 3)}T08:00` },
      C.technicianSkills,
    );
  });

  it("another tree's technician or crew answers exactly as a code that does not exist (issue 24)", async () => {
    const answer = async (code: string, body: unknown, as: TestClient, name: string) => {
      const res = await put(code, body, as);
      return { status: res.statusCode, errors: JSON.parse(res.body.replaceAll(name, '<code>')).errors };
    };
    for (const as of ['north', 'rival'] as const) {
      const wo = as === 'north' ? 'WO-NEW' : 'WO-RIVAL';
      expect(await answer(wo, { technicianCode: 'T-SOUTH', start }, as, 'T-SOUTH')).toEqual(
        await answer(wo, { technicianCode: 'NOBODY', start }, as, 'NOBODY'),
      );
    }
    expect(await answer('WO-SOUTH', { crewCode: 'CREW-1', start }, 'south', 'CREW-1')).toEqual(
      await answer('WO-SOUTH', { crewCode: 'GHOSTS', start }, 'south', 'GHOSTS'),
    );
  });

  it('each refusal has its own code', async () => {
    await refused('NOPE', { technicianCode: 'T-PARIS', start }, C.workOrderNotFound, 'root', 404);
    await refused('WO-SOUTH', { technicianCode: 'T-SOUTH', start }, C.workOrderNotFound, 'north', 404);
    await refused('WO-DONE', { technicianCode: 'T-PARIS', start }, C.workOrderStatus);
    await refused('WO-NEW', { start }, C.resourceMandatory);
    await refused('WO-NEW', { technicianCode: 'T-PARIS', crewCode: 'CREW-1', start }, C.resourceConflict);
    await refused('WO-NEW', { technicianCode: 'NOBODY', start }, C.technicianUnknown);
    // Another tree's technician or crew answers exactly as one that does not exist.
    await refused('WO-NEW', { technicianCode: 'T-SOUTH', start }, C.technicianUnknown, 'north');
    await refused('WO-NEW', { technicianCode: 'T-OFF', start }, C.technicianInactive);
    await refused('WO-NEW', { technicianCode: 'T-NOHOME', start }, C.technicianSkills);
    await refused(
      'WO-NEW',
      { technicianCode: 'T-PARIS', start: `${plusDays(monday, 1)}T09:00` },
      C.technicianAbsent,
    );
    await refused('WO-NEW', { crewCode: 'GHOSTS', start }, C.crewUnknown);
    await refused('WO-SOUTH', { crewCode: 'CREW-1', start }, C.crewUnknown, 'south');
    await refused('WO-NEW', { crewCode: 'CREW-1', start: '2023-06-01T08:00' }, C.crewNotActive);
    await refused('WO-NEW', { technicianCode: 'T-PARIS' }, C.startMandatory);
    await refused('WO-NEW', { technicianCode: 'T-PARIS', start: '2030-13-01T08:00' }, C.startInvalid);
    await refused('WO-NEW', { technicianCode: 'T-PARIS', start, note: 1 }, C.fieldUnknown);
    const raw = await t.api(scheduleByCode, {
      params: { workOrderCode: 'WO-NEW' },
      raw: '{"start": "a", "start": "b"}',
    });
    expect(raw.json().errors[0].code).toBe(C.invalidJson);
    // A refusal writes nothing.
    expect((await t.api(getScheduleByCode, { params: { workOrderCode: 'WO-DONE' } })).json().status).toBe(
      'COMPLETED',
    );
  });

  it('a crew that is disabled, or whose main resource is inactive, is unknown', async () => {
    await runImport(t.db, {
      crews: [
        {
          crewCode: 'CREW-OFF',
          mainResource: { technicianCode: 'T-PARIS', from: '2024-01-01' },
          disabledAt: '2024-06-01',
        },
        { crewCode: 'CREW-LAZY', mainResource: { technicianCode: 'T-OFF', from: '2024-01-01' } },
      ],
    });
    await refused('WO-NEW', { crewCode: 'CREW-OFF', start }, C.crewUnknown);
    await refused('WO-NEW', { crewCode: 'CREW-LAZY', start }, C.crewUnknown);
  });

  it('GET: unknown, outside the tree, malformed uuid', async () => {
    expect((await t.api(getScheduleByCode, { params: { workOrderCode: 'NOPE' } })).statusCode).toBe(404);
    const south = await t.api(getScheduleByCode, { params: { workOrderCode: 'WO-SOUTH' }, as: 'north' });
    expect(south.statusCode).toBe(404);
    expect(south.json().errors[0].code).toBe(C.workOrderNotFound);
    const bad = await t.api(getScheduleByUuid, { params: { workOrderUuid: 'not-a-uuid' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].code).toBe('scheduling.workorderuuid.invalid');
  });
});

describe('unschedule (extension: DELETE .../schedule)', () => {
  const del = (code: string, as: TestClient = 'root') =>
    t.api(unscheduleByCode, { params: { workOrderCode: code }, as });
  const codes = (res: { json: () => { errors: { code: string }[] } }) => res.json().errors.map((e) => e.code);

  it('takes a SCHEDULED work order off its technician: 204, status QUALIFIED, no technician, crew or start', async () => {
    const res = await del('wo-uns');
    expect(res.statusCode, res.body).toBe(204);
    expect((await t.api(getScheduleByCode, { params: { workOrderCode: 'WO-UNS' } })).json()).toMatchObject({
      status: 'QUALIFIED',
      technicianCode: null,
      crewCode: null,
      scheduledStart: null,
      scheduledEnd: null,
    });
    // Nothing left to take off the second time.
    const again = await del('WO-UNS');
    expect(again.statusCode).toBe(400);
    expect(codes(again)).toEqual([C.workOrderNotScheduled]);
  });

  it('refuses a work order not scheduled, or started', async () => {
    for (const code of ['WO-STARTED', 'WO-DONE']) {
      const res = await del(code);
      expect(res.statusCode, code).toBe(400);
      expect(codes(res)).toEqual([C.workOrderNotScheduled]);
    }
    expect(
      (await t.api(getScheduleByCode, { params: { workOrderCode: 'WO-STARTED' } })).json(),
    ).toMatchObject({
      status: 'IN_PROGRESS',
      technicianCode: 'T-PARIS',
    });
  });

  it("another tree's or tenant's work order answers exactly as one that does not exist", async () => {
    const missing = await del('NOPE', 'north');
    const south = await del('WO-SOUTH', 'north');
    const rival = await del('WO-RIVAL');
    for (const res of [missing, south, rival]) {
      expect(res.statusCode).toBe(404);
      expect(codes(res)).toEqual([C.workOrderNotFound]);
    }
  });
});
