import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItem } from '../../../contract/businessOrganization.ts';
import { listSkills } from '../../../contract/staff.ts';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';

/** The catalog keys through the import command's own entry point (one transaction). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const FILE = {
  customFieldDefinitions: [
    {
      entity: 'item',
      code: 'COLOR',
      label: 'Colour',
      type: 'dropDownValue',
      mandatory: false,
      values: ['RED', 'BLUE'],
    },
  ],
  skills: [
    { skillCode: 'weld', name: 'Welding' },
    { skillCode: 'ELEC', name: 'Electricity', description: 'Level 2' },
  ],
  characteristics: [{ characteristicCode: 'car', name: 'Has a car' }],
  items: [
    { itemCode: 'pipe', name: 'Pipe', unitPrice: 2.5, customFields: { color: { dropDownValue: 'RED' } } },
    { itemCode: 'LABOUR', name: 'Labour', unit: 'hour', fixedPrice: true },
  ],
};
const counts = (results: { key: string; created: number; updated: number }[]) =>
  Object.fromEntries(results.map((r) => [r.key, [r.created, r.updated]]));

describe('import file: skills, characteristics, items', () => {
  it('imports, then changes nothing when imported again', async () => {
    expect(counts(await runImport(t.db, FILE))).toMatchObject({
      skills: [2, 0],
      characteristics: [1, 0],
      items: [2, 0],
    });
    expect(counts(await runImport(t.db, FILE))).toMatchObject({
      skills: [0, 0],
      characteristics: [0, 0],
      items: [0, 0],
    });
    const item = (await t.api(getItem, { params: { itemCode: 'PIPE' } })).json();
    expect(item).toMatchObject({
      itemCode: 'PIPE',
      unitPrice: 2.5,
      customFields: { COLOR: { dropDownValue: 'RED' } },
    });
    const skills = (await t.api(listSkills)).json();
    expect(skills.data.map((s: { skillCode: string }) => s.skillCode)).toEqual(['ELEC', 'WELD']);
  });

  it('a refused item (same rule as the PUT) rolls the whole file back', async () => {
    const bad = {
      skills: [{ skillCode: 'NEW-SKILL', name: 'New' }],
      items: [{ itemCode: 'BAD', name: 'Bad', customFields: { SIZE: { textValue: 'L' } } }],
    };
    await expect(runImport(t.db, bad)).rejects.toThrow(/businessorganization\.item\.custom\.field\.unknown/);
    expect(await t.db.selectFrom('skills').where('code', '=', 'NEW-SKILL').selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom('items').where('code', '=', 'BAD').selectAll().execute()).toEqual([]);
  });

  it('refuses a code given twice (case-insensitive) and an invalid row before writing', async () => {
    await expect(
      runImport(t.db, {
        items: [
          { itemCode: 'dup', name: 'a' },
          { itemCode: 'DUP', name: 'b' },
        ],
      }),
    ).rejects.toThrow(/items\[1\]: DUP is already given at items\[0\]/);
    await expect(
      runImport(t.db, { items: [{ itemCode: 'X1', name: 'x', serialNumberPattern: '(' }] }),
    ).rejects.toThrow(/serialNumberPattern/);
    expect(await t.db.selectFrom('items').where('code', 'in', ['DUP', 'X1']).selectAll().execute()).toEqual(
      [],
    );
  });
});
