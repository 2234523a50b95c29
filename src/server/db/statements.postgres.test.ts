import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from './index.ts';

// Named statements (db/index.ts) skip the Describe of their portal once a connection knows
// their rows' description: the rows must stay what PostgreSQL describes, call after call.
const url = process.env.TEST_DATABASE_URL as string;
const schema = `t_${randomBytes(6).toString('hex')}`;
let dbh: DbHandle;

beforeAll(async () => {
  dbh = await openDatabase({ databaseUrl: url, schema });
});
afterAll(async () => {
  await dbh.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

it('a named statement gives the same rows on one connection, call after call and after an error', async () => {
  await dbh.db.connection().execute(async (db) => {
    const read = (n: number) =>
      sql<{ n: number; big: string; at: Date; label: string | null }>`
        SELECT ${n}::int AS n, 9007199254740993::int8 AS big,
               timestamptz '2030-01-14T08:00:00Z' AS at,
               CASE WHEN ${n}::int > 1 THEN 'many' END AS label`.execute(db);
    for (const n of [1, 2, 3, 2]) {
      const { rows } = await read(n);
      expect(rows).toEqual([
        {
          n,
          big: '9007199254740993',
          at: new Date('2030-01-14T08:00:00Z'),
          label: n > 1 ? 'many' : null,
        },
      ]);
    }
    // An error of the statement (division by zero) leaves the connection and the statement usable.
    const divide = (d: number) => sql<{ q: number }>`SELECT 10 / ${d}::int AS q`.execute(db);
    expect((await divide(5)).rows).toEqual([{ q: 2 }]);
    await expect(divide(0)).rejects.toThrow(/division by zero/);
    expect((await divide(2)).rows).toEqual([{ q: 5 }]);
    expect((await read(1)).rows[0].n).toBe(1);
    // No row: an empty answer, still described.
    const none = await sql<{ n: number }>`SELECT 1 AS n WHERE ${'a'}::text = 'b'`.execute(db);
    expect(none.rows).toEqual([]);
    expect((await sql<{ n: number }>`SELECT 1 AS n WHERE ${'b'}::text = 'b'`.execute(db)).rows).toEqual([
      { n: 1 },
    ]);
  });
});
