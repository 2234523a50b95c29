import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from './index.ts';

/** The PGlite driver reads the backend's answers itself (pglite.ts): what it must give back. */
let dbh: DbHandle;
beforeAll(async () => {
  dbh = await openDatabase({ dataDir: 'memory://' });
});
afterAll(() => dbh.close());

describe('PGlite driver', () => {
  it('reads values of each type, NULLs and text beyond ASCII, prepared or not', async () => {
    for (let i = 0; i < 3; i++) {
      const { rows } = await sql<Record<string, unknown>>`
        SELECT ${'Zoë ✓ 😀'}::text AS t, NULL::text AS n, 9007199254740993::int8 AS big, 42::int4 AS i,
               true AS b, '2026-11-25T11:40:43.5Z'::timestamptz AS at, '{"a":[1]}'::jsonb AS j,
               ARRAY['x','y']::text[] AS arr, ''::text AS empty`.execute(dbh.db);
      expect(rows).toEqual([
        {
          t: 'Zoë ✓ 😀',
          n: null,
          big: '9007199254740993',
          i: 42,
          b: true,
          at: new Date('2026-11-25T11:40:43.500Z'),
          j: { a: [1] },
          arr: ['x', 'y'],
          empty: '',
        },
      ]);
    }
  });

  it('reads an answer larger than one chunk of the backend', async () => {
    const { rows } = await sql<{ n: number; s: string }>`
      SELECT n, repeat('é', 50) || n AS s FROM generate_series(1, 20000) AS n`.execute(dbh.db);
    expect(rows).toHaveLength(20000);
    expect(rows[19999]).toEqual({ n: 20000, s: `${'é'.repeat(50)}20000` });
  });

  it('counts the rows a write affected', async () => {
    await sql`CREATE TEMP TABLE t_driver (id int PRIMARY KEY)`.execute(dbh.db);
    const inserted = await sql`INSERT INTO t_driver SELECT generate_series(1, 3)`.execute(dbh.db);
    expect(inserted.numAffectedRows).toBe(3n);
    const updated = await sql`UPDATE t_driver SET id = id + 10 WHERE id > 1`.execute(dbh.db);
    expect(updated.numAffectedRows).toBe(2n);
  });

  it('throws the database error with its code, and the session goes on', async () => {
    await sql`CREATE TEMP TABLE t_unique (id int PRIMARY KEY)`.execute(dbh.db);
    const insert = (id: number) =>
      dbh.db.executeQuery(sql`INSERT INTO t_unique VALUES (${id})`.compile(dbh.db));
    await insert(1);
    for (let i = 0; i < 2; i++) {
      const error = await insert(1).catch((e) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ code: '23505', constraint: 't_unique_pkey', severity: 'ERROR' });
    }
    await expect(sql`SELEC 1`.execute(dbh.db)).rejects.toMatchObject({ code: '42601' });
    // A failed statement inside a transaction rolls it back whole.
    await expect(
      dbh.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO t_unique VALUES (2)`.execute(trx);
        await sql`INSERT INTO t_unique VALUES (1)`.execute(trx);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await sql<{ id: number }>`SELECT id FROM t_unique ORDER BY id`.execute(dbh.db);
    expect(rows).toEqual([{ id: 1 }]);
  });

  it('delivers notifications of a channel before the statement that sent them returns, until unlisten', async () => {
    const got: string[] = [];
    const states: boolean[] = [];
    const stop = await dbh.listen(
      'driver_test',
      (p) => got.push(p),
      (up) => states.push(up),
    );
    expect(states).toEqual([true]);
    await sql`SELECT pg_notify('driver_test', 'one'), pg_notify('other_channel', 'no')`.execute(dbh.db);
    expect(got).toEqual(['one']);
    await dbh.db.transaction().execute(async (trx) => {
      await sql`NOTIFY driver_test, 'two'`.execute(trx);
      await sql`NOTIFY driver_test, 'three'`.execute(trx);
      expect(got).toEqual(['one']);
    });
    expect(got).toEqual(['one', 'two', 'three']);
    await stop();
    await sql`NOTIFY driver_test, 'four'`.execute(dbh.db);
    expect(got).toEqual(['one', 'two', 'three']);
  });

  it('runs statements sent at once one at a time, never inside another transaction', async () => {
    // Each transaction reads its own id twice, with other statements sent in between.
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? sql<{ id: string }>`SELECT txid_current()::text AS id`.execute(dbh.db).then((r) => [r.rows[0].id])
          : dbh.db.transaction().execute(async (trx) => {
              const first = await sql<{ id: string }>`SELECT txid_current()::text AS id`.execute(trx);
              await new Promise((r) => setTimeout(r, 2));
              const second = await sql<{ id: string }>`SELECT txid_current()::text AS id`.execute(trx);
              expect(second.rows[0].id).toBe(first.rows[0].id);
              return [first.rows[0].id];
            }),
      ),
    );
    expect(new Set(ids.flat()).size).toBe(20);
  });
});

it('refuses a statement that comes after the database closed, with an error that says so', async () => {
  const closing = await openDatabase({ dataDir: 'memory://' });
  let resume!: () => void;
  const gate = new Promise<void>((r) => {
    resume = r;
  });
  // A transaction holds the connection while the database closes under it.
  const inFlight = closing.db.transaction().execute(async (trx) => {
    await sql`SELECT 1`.execute(trx);
    await gate;
    await sql`SELECT 2`.execute(trx);
  });
  await new Promise((r) => setTimeout(r, 50));
  await closing.close();
  resume();
  await expect(inFlight).rejects.toThrow('PGlite: the database is closed');
});
