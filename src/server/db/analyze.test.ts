import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../cli/importFile.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';

/** After an import (and the demo seed, which is one), the tables it wrote are analyzed. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const reltuples = async (table: string) =>
  Number(
    (
      await sql<{
        n: number;
      }>`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = ${table}::regclass`.execute(t.db)
    ).rows[0].n,
  );

describe('statistics after an import', () => {
  it('analyzes the tables the import wrote, and only those', async () => {
    // A table never analyzed has no row estimate (-1).
    expect(await reltuples('customers')).toBe(-1);
    const sitesBefore = await reltuples('sites');
    const customers = Array.from({ length: 40 }, (_, i) => ({
      customerCode: `STAT${i}`,
      name: `Customer ${i}`,
      officeCode: 'NORTH',
      addressDetails: { city: 'Lille' },
    }));
    const results = await runImport(t.db, { customers });
    expect(results).toEqual([{ key: 'customers', rows: 40, created: 40, updated: 0 }]);
    expect(await reltuples('customers')).toBe(40);
    expect(await reltuples('sites')).toBe(sitesBefore);
  });

  it('a dry run analyzes nothing', async () => {
    const before = await reltuples('skills');
    await runImport(t.db, { skills: [{ skillCode: 'S1', name: 'Skill' }] }, { dryRun: true });
    expect(await reltuples('skills')).toBe(before);
  });
});
