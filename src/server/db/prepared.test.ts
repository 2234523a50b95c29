import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import type { Db } from './index.ts';
import { prepared } from './prepared.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Where {
  path: string;
  officeCode: string;
}
/** Offices at or below a path (a text made from an argument), by code. */
const build = (db: Db, where: Where, code: string) =>
  db
    .selectFrom('offices')
    .select(['code', 'path'])
    .where('path', 'like', `${where.path}%`)
    .where('code', 'in', [code, where.officeCode])
    .orderBy('code')
    .limit(5);

const pathOf = async (code: string) =>
  (await t.db.selectFrom('offices').select('path').where('code', '=', code).executeTakeFirstOrThrow()).path;

describe('prepared queries', () => {
  it('answer what the query built with the same arguments answers, call after call', async () => {
    const q = prepared('offices', build);
    const root = await pathOf('ROOT');
    const north = await pathOf('NORTH');
    const cases: [Where, string][] = [
      [{ path: root, officeCode: 'SOUTH' }, 'NORTH-A'],
      [{ path: north, officeCode: 'SOUTH' }, 'NORTH-A'],
      [{ path: north, officeCode: 'NORTH' }, 'SOUTH'],
      [{ path: root, officeCode: 'NONE' }, 'NONE'],
      // Values with LIKE or placeholder-looking characters stay values.
      [{ path: '%', officeCode: "O'Brien" }, '$1'],
    ];
    for (const [where, code] of cases) {
      const expected = await build(t.db, where, code).execute();
      expect(await q.execute(t.db, where, code)).toEqual(expected);
      expect(await q.executeTakeFirst(t.db, where, code)).toEqual(expected[0]);
    }
    expect(
      (await q.execute(t.db, { path: root, officeCode: 'SOUTH' }, 'NORTH-A')).map((r) => r.code),
    ).toEqual(['NORTH-A', 'SOUTH']);
  });

  it('run in the transaction they are given', async () => {
    const q = prepared('offices in a transaction', build);
    const root = await pathOf('ROOT');
    await t.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('offices').set({ name: 'Renamed' }).where('code', '=', 'SOUTH').execute();
        await sql`UPDATE offices SET code = 'SOUTH-X' WHERE code = 'SOUTH'`.execute(trx);
        expect(
          (await q.execute(trx, { path: root, officeCode: 'SOUTH-X' }, 'NORTH')).map((r) => r.code),
        ).toEqual(['NORTH', 'SOUTH-X']);
        throw new Error('roll back');
      })
      .catch((e) => expect(String(e)).toContain('roll back'));
    expect(
      (await q.execute(t.db, { path: root, officeCode: 'SOUTH-X' }, 'NORTH')).map((r) => r.code),
    ).toEqual(['NORTH']);
  });

  it('refuse a builder that puts an argument in the SQL text', async () => {
    const q = prepared('raw', (db: Db, column: string) =>
      db.selectFrom('offices').select(sql.ref<string>(column).as('x')),
    );
    await expect(q.execute(t.db, 'code')).rejects.toThrow(/reached the SQL text/);
  });

  it("refuse an argument that is not a text (it would be kept as the first call's value)", async () => {
    const q = prepared('number', (db: Db, limit: number) =>
      db.selectFrom('offices').select('code').limit(limit),
    );
    await expect(q.execute(t.db, 2)).rejects.toThrow(/argument 0 is not a text/);
    const nested = prepared('nested', (db: Db, where: { path: string; depth: number }) =>
      db.selectFrom('offices').select('code').where('path', 'like', `${where.path}%`).limit(where.depth),
    );
    await expect(nested.execute(t.db, { path: '/', depth: 1 })).rejects.toThrow(
      /argument 0.depth is not a text/,
    );
  });

  it('refuse a builder that transforms an argument or shapes the query with it', async () => {
    const upper = prepared('upper', (db: Db, code: string) =>
      db.selectFrom('offices').select('code').where('code', '=', code.toUpperCase()),
    );
    await expect(upper.execute(t.db, 'north')).rejects.toThrow(/shape the query or are transformed/);
    const shaped = prepared('shaped', (db: Db, code: string) => {
      const q = db.selectFrom('offices').select('code');
      return code === '' ? q : q.where('code', '=', code);
    });
    await expect(shaped.execute(t.db, '')).rejects.toThrow(/shape the query or are transformed/);
  });
});
