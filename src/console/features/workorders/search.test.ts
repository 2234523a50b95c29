/** The URL search params of the Work orders routes: what a link may hold, what is dropped. */
import { describe, expect, it } from 'vitest';
import { INVOICE_MODES, WORK_ORDER_STATUSES } from '../../../contract/fieldService.ts';
import { INVOICING_STATUSES, VALIDATION_STATUSES } from '../../../contract/fieldTracking.ts';
import {
  INVOICE_MODE_FILTERS,
  INVOICING_FILTERS,
  isDay,
  isUuid,
  parseStatuses,
  VALIDATION_FILTERS,
  validateTechnicianSearch,
  validateWorkOrderSearch,
  validateWorkOrdersSearch,
  WO_STATUSES,
} from './search.ts';

describe('work orders list search', () => {
  it('repeats the contract value lists', () => {
    expect([...WO_STATUSES]).toEqual([...WORK_ORDER_STATUSES]);
    expect([...VALIDATION_FILTERS, 'all']).toEqual([...VALIDATION_STATUSES]);
    expect([...INVOICING_FILTERS, 'all']).toEqual([...INVOICING_STATUSES]);
    expect([...INVOICE_MODE_FILTERS]).toEqual([...INVOICE_MODES]);
  });

  it('keeps known statuses, uppercased, deduplicated, in lifecycle order', () => {
    expect(parseStatuses('scheduled, new,NEW,bogus')).toEqual(['NEW', 'SCHEDULED']);
    expect(validateWorkOrdersSearch({ status: 'bogus' }).status).toBeUndefined();
    expect(validateWorkOrdersSearch({ status: 'completed,new' }).status).toBe('NEW,COMPLETED');
  });

  it('codes are uppercased; malformed ones and blank text are dropped', () => {
    expect(
      validateWorkOrdersSearch({ q: '  wo-1 ', office: 'north', technician: 'tech n1', type: 5 }),
    ).toEqual({
      q: 'wo-1',
      status: undefined,
      type: undefined,
      office: 'NORTH',
      technician: undefined,
    });
    expect(validateWorkOrdersSearch({ q: '   ' }).q).toBeUndefined();
  });
});

describe('work order page search', () => {
  it('keeps the tab and known filter values only', () => {
    expect(
      validateWorkOrderSearch({
        tab: 'items',
        validation: 'validated',
        invoicing: 'notBillable',
        invoiceMode: 'internal',
      }),
    ).toEqual({ tab: 'items', validation: 'validated', invoicing: 'notBillable', invoiceMode: 'internal' });
    expect(
      validateWorkOrderSearch({ tab: 'x', validation: 'all', invoicing: 'yes', invoiceMode: 'ALL' }),
    ).toEqual({
      tab: undefined,
      validation: undefined,
      invoicing: undefined,
      invoiceMode: undefined,
    });
  });
});

describe('technician page search', () => {
  it('a real day and a minute of the day', () => {
    expect(validateTechnicianSearch({ day: '2025-06-02', at: '420' })).toEqual({
      day: '2025-06-02',
      at: 420,
    });
    expect(validateTechnicianSearch({ day: '2025-02-30', at: 1441 })).toEqual({
      day: undefined,
      at: undefined,
    });
    expect(validateTechnicianSearch({ at: 1.5 }).at).toBeUndefined();
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2025-2-3')).toBe(false);
  });

  it('recognizes a uuid (the palette and the search box open it)', () => {
    expect(isUuid('0c3a3e0e-8f7b-4c8e-9a8b-1f2e3d4c5b6a')).toBe(true);
    expect(isUuid('WO-E2E-1')).toBe(false);
  });
});
