import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DiagnosticCodes as C,
  getDiagnosticByCode,
  getDiagnosticByUuid,
  listFlags,
  putFlagsByCode,
  putFlagsByUuid,
  putNoteByCode,
  putNoteByUuid,
} from '../../../contract/diagnostic.ts';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await runImport(t.db, {
    workOrderTypes: [{ workOrderTypeCode: 'REPAIR', name: 'Repair', durationMinutes: 60 }],
    workOrders: [
      { workOrderCode: 'WO-1', workOrderTypeCode: 'REPAIR', status: 'NEW', officeCode: 'NORTH' },
      { workOrderCode: 'WO-S', workOrderTypeCode: 'REPAIR', status: 'NEW', officeCode: 'SOUTH' },
    ],
    flags: [
      { flagId: 1, label: 'Urgent' },
      { flagId: 2, label: 'Customer absent' },
      { flagId: 7, label: 'Parts missing' },
    ],
  });
});
afterAll(() => t.close());

describe('diagnostic: flags', () => {
  it('replaces the flags by code and by uuid; the extension reads them with labels', async () => {
    expect(
      (await t.api(putFlagsByCode, { params: { workOrderCode: 'wo-1' }, body: { ids: [7, 1, 1] } }))
        .statusCode,
    ).toBe(204);
    const got = (await t.api(getDiagnosticByCode, { params: { workOrderCode: 'WO-1' } })).json();
    expect(got.flags).toEqual([
      { flagId: 1, label: 'Urgent' },
      { flagId: 7, label: 'Parts missing' },
    ]);
    expect(
      (await t.api(putFlagsByUuid, { params: { workOrderUuid: got.uuid }, body: { ids: [2] } })).statusCode,
    ).toBe(204);
    expect((await t.api(getDiagnosticByUuid, { params: { workOrderUuid: got.uuid } })).json().flags).toEqual([
      { flagId: 2, label: 'Customer absent' },
    ]);
    await t.api(putFlagsByCode, { params: { workOrderCode: 'WO-1' }, body: { ids: [] } });
    expect((await t.api(getDiagnosticByCode, { params: { workOrderCode: 'WO-1' } })).json().flags).toEqual(
      [],
    );
  });

  it('refuses unknown ids (writing nothing), a body of another shape, and work orders out of the tree', async () => {
    await t.api(putFlagsByCode, { params: { workOrderCode: 'WO-1' }, body: { ids: [1] } });
    const res = await t.api(putFlagsByCode, { params: { workOrderCode: 'WO-1' }, body: { ids: [1, 99] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].code).toBe(C.flagsUnknown);
    expect(
      (await t.api(getDiagnosticByCode, { params: { workOrderCode: 'WO-1' } })).json().flags,
    ).toHaveLength(1);
    const old = await t.api(putFlagsByCode, { params: { workOrderCode: 'WO-1' }, body: [1, 2] });
    expect(old.json().errors[0].code).toBe('diagnostic.flags.invalid.json');
    const typo = await t.api(putFlagsByCode, { params: { workOrderCode: 'WO-1' }, body: { flags: [1] } });
    expect(typo.json().errors.map((e: { code: string }) => e.code)).toContain(
      'diagnostic.flags.field.unknown',
    );
    const south = await t.api(putFlagsByCode, {
      params: { workOrderCode: 'WO-S' },
      body: { ids: [1] },
      as: 'north',
    });
    expect(south.statusCode).toBe(404);
    expect(south.json().errors[0].code).toBe(C.workOrderNotFound);
  });

  it('lists the flags (extension)', async () => {
    const res = await t.api(listFlags);
    expect(res.json()).toEqual({
      continuationToken: null,
      data: [
        { flagId: 1, label: 'Urgent' },
        { flagId: 2, label: 'Customer absent' },
        { flagId: 7, label: 'Parts missing' },
      ],
    });
  });
});

describe('diagnostic: notes', () => {
  it('creates (201) then replaces (204) a note; content or report fields', async () => {
    const params = { workOrderCode: 'WO-1', noteCode: 'visit' };
    expect((await t.api(putNoteByCode, { params, body: { content: 'Boiler checked' } })).statusCode).toBe(
      201,
    );
    expect((await t.api(putNoteByCode, { params, body: { content: 'Boiler replaced' } })).statusCode).toBe(
      204,
    );
    const uuid = (await t.api(getDiagnosticByCode, { params: { workOrderCode: 'WO-1' } })).json().uuid;
    const report = { PRESSURE: 1.5, SEALED: true, REMARK: 'ok', PHOTO: null };
    expect(
      (
        await t.api(putNoteByUuid, {
          params: { workOrderUuid: uuid, noteCode: 'REPORT' },
          body: { reportFields: report },
        })
      ).statusCode,
    ).toBe(201);
    const notes = (await t.api(getDiagnosticByCode, { params: { workOrderCode: 'WO-1' } })).json().notes;
    expect(notes.map((n: { noteCode: string }) => n.noteCode)).toEqual(['REPORT', 'VISIT']);
    expect(notes[0]).toMatchObject({ content: null, reportFields: report });
    expect(notes[1]).toMatchObject({ content: 'Boiler replaced', reportFields: null });
    expect(notes[1].lastUpdate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('exactly one of content and reportFields', async () => {
    const params = { workOrderCode: 'WO-1', noteCode: 'N2' };
    const both = await t.api(putNoteByCode, { params, body: { content: 'a', reportFields: { A: 1 } } });
    expect(both.json().errors[0].code).toBe(C.noteConflict);
    const none = await t.api(putNoteByCode, { params, body: {} });
    expect(none.json().errors[0].code).toBe(C.noteMandatory);
    const nested = await t.api(putNoteByCode, { params, body: { reportFields: { A: { deep: 1 } } } });
    expect(nested.json().errors[0].code).toBe('diagnostic.notes.reportfields.invalid');
    const missing = await t.api(putNoteByCode, {
      params: { workOrderCode: 'NOPE', noteCode: 'N2' },
      body: { content: 'x' },
    });
    expect(missing.statusCode).toBe(404);
  });
});
