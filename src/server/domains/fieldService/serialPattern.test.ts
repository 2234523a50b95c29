/**
 * Hostile patterns (issue 24, 5): an item's serialNumberPattern is matched in linear time
 * (RE2), so `^(a+)+$` against 30 `a` and a `!` (47.6 s of CPU with a backtracking engine)
 * answers at once; what RE2 cannot match in linear time is refused as invalid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusinessOrganizationCodes, getItem, putItem } from '../../../contract/businessOrganization.ts';
import { isValidPattern, matchesPattern } from '../../../contract/patterns.ts';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { baseFile } from '../fieldTracking/fixture.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await runImport(t.db, baseFile);
});
afterAll(() => t.close());

const HOSTILE = ['^(a+)+$', '(a|aa)*b', '^(\\w+\\s?)*$', '(.*a){12}', '^(a|a?)+$', '(x+x+)+y'];

const usedItem = (serialNumber: string) => ({
  usedItems: [
    {
      usedItemId: `hostile-${serialNumber.length}-${serialNumber.at(-1)}`,
      workOrderCode: 'wo-mix',
      kind: 'part',
      itemCode: 'hostile',
      quantity: 1,
      invoiceMode: 'external',
      serialNumber,
    },
  ],
});

describe('serial number patterns', () => {
  it('^(a+)+$ against 30 a and a ! is refused at once, not after seconds of CPU', async () => {
    const put = await t.api(putItem, {
      params: { itemCode: 'HOSTILE' },
      body: { name: 'Hostile', serialNumberPattern: '^(a+)+$' },
    });
    expect(put.statusCode, put.body).toBe(201);
    const started = performance.now();
    await expect(runImport(t.db, usedItem(`${'a'.repeat(30)}!`))).rejects.toThrow(
      /does not match the pattern/,
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await runImport(t.db, usedItem('a'.repeat(30))))[0]).toMatchObject({ created: 1 });
  });

  it('matching any serial of 200 characters takes under 10 ms, whatever the pattern', () => {
    const serials = [`${'a'.repeat(199)}!`, 'x'.repeat(200), `${'a '.repeat(99)}!!`, '9'.repeat(200)];
    for (const p of HOSTILE) matchesPattern(p, 'warm-up');
    // The engine's time: the best of 5 runs, so that a busy machine's pauses do not count.
    const best = (p: string, s: string) =>
      Math.min(
        ...Array.from({ length: 5 }, () => {
          const started = performance.now();
          matchesPattern(p, s);
          return performance.now() - started;
        }),
      );
    for (const p of HOSTILE)
      for (const s of serials) expect(best(p, s), `${p} on ${s.slice(0, 10)}...`).toBeLessThan(10);
  });

  it('keeps the meaning of ordinary patterns (a match anywhere, as RegExp.test)', () => {
    for (const [pattern, serial] of [
      ['^PMP-\\d{4}$', 'PMP-0042'],
      ['SN', 'XSN1'],
      ['^[A-Z]{2}\\d+$', 'AB12'],
      ['^(?<year>\\d{4})-\\d+$', '2026-1'],
    ] as const) {
      expect(matchesPattern(pattern, serial), pattern).toBe(new RegExp(pattern).test(serial));
      expect(matchesPattern(pattern, `${serial}#`), pattern).toBe(new RegExp(pattern).test(`${serial}#`));
    }
  });

  it('a pattern that needs backtracking (backreference, lookaround) is 400 serialnumberpattern.invalid', async () => {
    for (const pattern of ['^(a)\\1$', '^(?=a)a$', '^(?!b).$', '(?<=a)b', '^SN-(\\d+$']) {
      expect(isValidPattern(pattern), pattern).toBe(false);
      const res = await t.api(putItem, {
        params: { itemCode: 'BACKREF' },
        body: { name: 'x', serialNumberPattern: pattern },
      });
      expect(res.statusCode, pattern).toBe(400);
      expect(res.json().errors.map((e: { code: string }) => e.code)).toEqual([
        BusinessOrganizationCodes.itemSerialNumberPatternInvalid,
      ]);
    }
    expect((await t.api(getItem, { params: { itemCode: 'BACKREF' } })).statusCode).toBe(404);
  });
});
