import { describe, expect, it } from 'vitest';
import {
  columnForHeader,
  escapeCell,
  exportFileName,
  itemsToCsv,
  mergeForImport,
  parseBooleanCell,
  parseItemsCsv,
  parseNumberCell,
  parseVatRatesCell,
  unescapeCell,
} from './csv.ts';
import { runImport } from './importRunner.ts';
import type { Item, ItemBody } from './model.ts';

const blank: Item = {
  itemCode: '',
  name: '',
  category: null,
  description: null,
  unit: null,
  unitPrice: null,
  vatRates: null,
  reference: null,
  barCode: null,
  manufacturer: null,
  fixedPrice: false,
  serialNumberPattern: null,
  active: true,
  customFields: {},
  lastUpdate: '2026-11-23T08:00:00Z',
};

const HEADER =
  'itemCode,name,category,description,unit,unitPrice,vatRates,reference,barCode,manufacturer,fixedPrice,serialNumberPattern,active';

describe('cells', () => {
  it('reads numbers with a dot or a comma', () => {
    expect(parseNumberCell('12.5')).toBe(12.5);
    expect(parseNumberCell(' 12,5 ')).toBe(12.5);
    expect(parseNumberCell('')).toBeNull();
    expect(parseNumberCell('12 EUR')).toBe('invalid');
    expect(parseNumberCell('1e3')).toBe('invalid');
  });
  it('reads booleans', () => {
    expect(parseBooleanCell('TRUE')).toBe(true);
    expect(parseBooleanCell('0')).toBe(false);
    expect(parseBooleanCell('')).toBeNull();
    expect(parseBooleanCell('maybe')).toBe('invalid');
  });
  it('reads ;-separated VAT rates', () => {
    expect(parseVatRatesCell('20; 5.5;')).toEqual([20, 5.5]);
    expect(parseVatRatesCell('10%')).toEqual([10]);
    expect(parseVatRatesCell('')).toBeNull();
    expect(parseVatRatesCell('20;x')).toEqual({ invalid: 'x' });
  });
  it('matches headers whatever their case and separators', () => {
    expect(columnForHeader('Item Code')).toBe('itemCode');
    expect(columnForHeader('unit_price')).toBe('unitPrice');
    expect(columnForHeader('SERIALNUMBERPATTERN')).toBe('serialNumberPattern');
    expect(columnForHeader('colour')).toBeNull();
  });
  it('guards spreadsheet formulas and undoes the guard', () => {
    expect(escapeCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(unescapeCell("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(unescapeCell("'quoted")).toBe("'quoted");
    expect(escapeCell('plain')).toBe('plain');
  });
});

describe('parseItemsCsv', () => {
  it('converts a valid row to a PUT body', () => {
    const csv = parseItemsCsv(
      `${HEADER}\nscrew-1,Screw,Hardware,,pcs,0.25,20;5.5,REF1,123,Acme,false,^SN\\d+$,true\n`,
    );
    expect(csv.fileErrors).toEqual([]);
    expect(csv.rows).toHaveLength(1);
    const [row] = csv.rows;
    expect(row.errors).toEqual([]);
    expect(row.line).toBe(2);
    expect(row.code).toBe('SCREW-1');
    expect(row.body).toEqual({
      name: 'Screw',
      category: 'Hardware',
      description: null,
      unit: 'pcs',
      unitPrice: 0.25,
      vatRates: [20, 5.5],
      reference: 'REF1',
      barCode: '123',
      manufacturer: 'Acme',
      fixedPrice: false,
      serialNumberPattern: '^SN\\d+$',
      active: true,
    });
  });

  it('reports each bad cell on its row and keeps the good rows', () => {
    const text = [
      'itemCode,name,unitPrice,vatRates,serialNumberPattern,active',
      'A,Alpha,1,20,,yes',
      'B,,-3,20;101;1;2;3;4,([,maybe',
      ',Nameless,,,,',
      'C,Gamma,abc,,,',
    ].join('\n');
    const csv = parseItemsCsv(text);
    const byLine = Object.fromEntries(csv.rows.map((r) => [r.line, r]));
    expect(byLine[2].errors).toEqual([]);
    const fields = (line: number) => byLine[line].errors.map((e) => e.field).sort();
    expect(fields(3)).toEqual(['active', 'name', 'serialNumberPattern', 'unitPrice', 'vatRates']);
    expect(byLine[3].body).toBeNull();
    expect(byLine[3].errors.find((e) => e.field === 'serialNumberPattern')?.key).toBe(
      'catalog:validation.pattern',
    );
    expect(byLine[3].errors.find((e) => e.field === 'name')?.key).toBe('catalog:validation.required');
    expect(fields(4)).toEqual(['itemCode']);
    expect(byLine[5].errors).toEqual([
      { field: 'unitPrice', key: 'catalog:csv.errors.number', params: { value: 'abc' } },
    ]);
  });

  it('refuses every row of a code present twice (case-insensitive)', () => {
    const csv = parseItemsCsv('itemCode,name\nx1,One\nX1,Two\nx2,Three');
    expect(csv.rows.map((r) => r.errors.map((e) => e.key))).toEqual([
      ['catalog:csv.errors.duplicate'],
      ['catalog:csv.errors.duplicate'],
      [],
    ]);
    expect(csv.rows[0].errors[0].params).toEqual({ lines: '3' });
  });

  it('requires the itemCode and name headers and lists unknown ones', () => {
    const csv = parseItemsCsv('code,label,colour\nA,B,red');
    expect(csv.fileErrors.map((e) => e.params?.column)).toEqual(['itemCode', 'name']);
    expect(csv.ignored).toEqual(['code', 'label', 'colour']);
  });

  it('reports a row with too many cells', () => {
    const csv = parseItemsCsv('itemCode,name\nA,Alpha,extra\nB,Beta');
    expect(csv.rows[0].errors.map((e) => e.key)).toContain('catalog:csv.errors.parse');
    expect(csv.rows[1].errors).toEqual([]);
  });

  it('ignores a BOM, blank lines and CRLF', () => {
    const csv = parseItemsCsv('\uFEFFitemCode;name\r\nA;Alpha\r\n\r\n  \r\n');
    expect(csv.fileErrors).toEqual([]);
    expect(csv.rows.map((r) => r.code)).toEqual(['A']);
  });
});

describe('itemsToCsv', () => {
  const item: Item = {
    ...blank,
    itemCode: 'P-1',
    name: 'Pump, large "XL"',
    category: 'Pumps',
    description: 'two\nlines',
    unit: null,
    unitPrice: 1200.5,
    vatRates: [20, 5.5],
    reference: '=cmd',
    barCode: null,
    manufacturer: 'Acme',
    fixedPrice: true,
    serialNumberPattern: '^P\\d{4}$',
    active: false,
    customFields: { COLOR: { textValue: 'red' } },
  };

  it('writes every column and reads back to the same body', () => {
    const text = itemsToCsv([item]);
    expect(text.split('\r\n')[0]).toBe(HEADER);
    const back = parseItemsCsv(text);
    expect(back.rows[0].errors).toEqual([]);
    expect(back.rows[0].code).toBe('P-1');
    const { itemCode: _c, customFields: _f, lastUpdate: _l, ...rest } = item;
    expect(back.rows[0].body).toEqual(rest);
  });

  it('names the file after the day and the filter', () => {
    expect(exportFileName(new Date('2026-11-23T10:00:00Z'), 'Pumps & valves')).toBe(
      'items-pumps-valves-2026-11-23.csv',
    );
    expect(exportFileName(new Date('2026-11-23T10:00:00Z'))).toBe('items-2026-11-23.csv');
  });
});

describe('import', () => {
  const stored: Item = {
    ...blank,
    itemCode: 'A',
    name: 'Old',
    unit: 'kg',
    customFields: { COLOR: { textValue: 'red' } },
  };

  it('keeps stored columns absent from the file and the custom fields', () => {
    expect(mergeForImport(stored, { name: 'New', category: 'Tools' })).toEqual({
      name: 'New',
      category: 'Tools',
      description: null,
      unit: 'kg',
      unitPrice: null,
      vatRates: null,
      reference: null,
      barCode: null,
      manufacturer: null,
      fixedPrice: false,
      serialNumberPattern: null,
      active: true,
      customFields: { COLOR: { textValue: 'red' } },
    });
    expect(mergeForImport(null, { name: 'New', unit: null })).toEqual({ name: 'New', unit: null });
  });

  it('writes rows one at a time, counts outcomes and reports server errors', async () => {
    const puts: [string, ItemBody][] = [];
    const calls = {
      get: async (code: string) => (code === 'A' ? stored : null),
      put: async (code: string, body: ItemBody) => {
        puts.push([code, body]);
        if (code === 'BAD')
          throw Object.assign(new Error('HTTP 400'), {
            status: 400,
            body: {
              errors: [{ code: 'businessorganization.item.unit.invalid', message: 'unit' }],
              errorReference: 'r1',
            },
          });
        return code === 'A' ? ('updated' as const) : ('created' as const);
      },
    };
    const progress: number[] = [];
    const summary = await runImport(
      [
        { line: 2, code: 'A', body: { name: 'A2' } },
        { line: 3, code: 'BAD', body: { name: 'x' } },
        { line: 4, code: 'C', body: { name: 'C' } },
      ],
      calls,
      { onProgress: (done) => progress.push(done) },
    );
    expect(progress).toEqual([1, 2, 3]);
    expect(summary).toMatchObject({ created: 1, updated: 1, failed: 1, skipped: 0, cancelled: false });
    expect(summary.outcomes[1]).toEqual({
      line: 3,
      code: 'BAD',
      status: 'failed',
      errors: [{ code: 'businessorganization.item.unit.invalid', message: 'unit' }],
      errorReference: 'r1',
    });
    expect(puts[0][1].customFields).toEqual({ COLOR: { textValue: 'red' } });
  });

  it('stops between rows when cancelled', async () => {
    const ctrl = new AbortController();
    const summary = await runImport(
      [
        { line: 2, code: 'A', body: { name: 'A' } },
        { line: 3, code: 'B', body: { name: 'B' } },
        { line: 4, code: 'C', body: { name: 'C' } },
      ],
      {
        get: async () => null,
        put: async () => {
          ctrl.abort();
          return 'created';
        },
      },
      { signal: ctrl.signal },
    );
    expect(summary).toMatchObject({ created: 1, skipped: 2, cancelled: true });
  });
});
