/**
 * Import replay (issue 8): two elements of one key naming one record (codes folded as the
 * service folds them: `ACME` and `acme`) are refused before anything is written, with an
 * error naming both lines; a valid file replayed reports no change, whatever the case of
 * its codes. In-process (runImport on the test service's database), no CLI process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../testing/harness.ts';
import { createTestApp } from '../testing/harness.ts';
import { ImportValidationError, importerRegistry, runImport, validateImport } from './importFile.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const customer = (code: string, name = 'Acme') => ({
  customerCode: code,
  name,
  officeCode: 'north',
  addressDetails: { city: 'Lille' },
});
const site = (code: string) => ({
  siteCode: code,
  name: 'Plant',
  customerCode: 'r-acme',
  location: { addressDetails: { address: '1 rue', city: 'Lille' } },
});

/** The problems validateImport reports for `doc` (none: []). */
function problems(doc: Record<string, unknown>): string[] {
  try {
    validateImport(doc, importerRegistry());
    return [];
  } catch (e) {
    if (!(e instanceof ImportValidationError)) throw e;
    return e.problems.map((p) => `${p.path}: ${p.message}`);
  }
}

describe('one record twice in a key', () => {
  it.each([
    ['customers', [customer('ACME'), customer('acme', 'Other')], 'ACME'],
    ['sites', [site('PLANT-1'), site('plant-1')], 'PLANT-1'],
    [
      'assets',
      [
        { assetCode: 'Pump', name: 'P' },
        { assetCode: 'PUMP', name: 'Q' },
      ],
      'PUMP',
    ],
    [
      'items',
      [
        { itemCode: 'nut-8', name: 'Nut' },
        { itemCode: 'NUT-8', name: 'Nut 8' },
      ],
      'NUT-8',
    ],
    [
      'skills',
      [
        { skillCode: 'elec', name: 'E' },
        { skillCode: 'Elec', name: 'E' },
      ],
      'ELEC',
    ],
    [
      'offices',
      [
        { code: 'hq', name: 'HQ' },
        { code: 'HQ', name: 'Head office' },
      ],
      'HQ',
    ],
    [
      'areas',
      [
        { areaCode: 'lille', name: 'L', zipCodes: ['59000'] },
        { areaCode: 'LILLE', name: 'L', zipCodes: [] },
      ],
      'LILLE',
    ],
  ])('%s: refused naming both lines', (key, rows, folded) => {
    expect(problems({ [key]: rows })).toEqual([`${key}[1]: ${folded} is already given at ${key}[0]`]);
  });

  it('nothing is written: the refusal comes before the transaction', async () => {
    await expect(
      runImport(t.db, {
        items: [{ itemCode: 'dup-1', name: 'A' }],
        customers: [customer('DUP'), customer('dup')],
      }),
    ).rejects.toThrow(ImportValidationError);
    const item = await t.db.selectFrom('items').select('code').where('code', '=', 'DUP-1').executeTakeFirst();
    expect(item).toBeUndefined();
    const c = await t.db.selectFrom('customers').select('code').where('code', '=', 'DUP').executeTakeFirst();
    expect(c).toBeUndefined();
  });
});

describe('replay', () => {
  const file = (upper: boolean) => {
    const f = (s: string) => (upper ? s.toUpperCase() : s.toLowerCase());
    return {
      customers: [customer(f('r-acme')), { ...customer(f('r-acme-sub')), parentCustomerCode: f('r-acme') }],
      sites: [site(f('r-plant'))],
      assets: [{ assetCode: f('r-pump'), name: 'Pump', siteCode: f('r-plant') }],
      items: [{ itemCode: f('r-nut'), name: 'Nut', unitPrice: 1.5 }],
      skills: [{ skillCode: f('r-elec'), name: 'Electricity' }],
    };
  };
  const changes = (results: { key: string; created: number; updated: number }[]) =>
    Object.fromEntries(results.map((r) => [r.key, r.created + r.updated]));

  it('a valid file replayed (codes in another case too) reports no change', async () => {
    const first = await runImport(t.db, file(true));
    expect(changes(first)).toEqual({ customers: 2, sites: 1, assets: 1, items: 1, skills: 1 });
    const stamp = await t.db
      .selectFrom('customers')
      .select('last_update')
      .where('code', '=', 'R-ACME')
      .executeTakeFirstOrThrow();
    for (const upper of [true, false]) {
      const again = await runImport(t.db, file(upper));
      expect(changes(again)).toEqual({ customers: 0, sites: 0, assets: 0, items: 0, skills: 0 });
    }
    const after = await t.db
      .selectFrom('customers')
      .select('last_update')
      .where('code', '=', 'R-ACME')
      .executeTakeFirstOrThrow();
    expect(after.last_update).toEqual(stamp.last_update);
  });
});
