/**
 * A connection the server terminated is never handed to the next request (db/index.ts): the
 * pool is full, a request waits for a connection, and the one it would be given dies under
 * its statement. The waiting request gets a live connection and succeeds.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DbHandle, openDatabase, POOL_SIZE } from './index.ts';

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

it('a connection killed under its statement goes out of the pool, not to the request waiting for one', async () => {
  for (let round = 0; round < 5; round++) {
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    // Every connection but one held.
    const held = Array.from({ length: POOL_SIZE - 1 }, () =>
      dbh.db.connection().execute(async (c) => {
        await sql`SELECT 1`.execute(c);
        await released;
      }),
    );
    try {
      // The last one kills its own backend (not a plain read: never run again elsewhere)...
      const killed = sql`SELECT set_config('fieldwork.t', '1', false), pg_terminate_backend(pg_backend_pid())`
        .execute(dbh.db)
        .then(
          () => 'answered',
          (err: Error) => err.message,
        );
      // ...while a statement waits for a connection: it gets that one back first.
      const waiting = sql<{ n: number }>`SELECT 2 AS n`.execute(dbh.db).then(
        (r) => r.rows,
        (err: Error) => err.message,
      );
      expect(await killed).toMatch(/terminat/);
      // Given the dead connection, it would fail, or wait forever for an answer.
      const timeout = new Promise((r) => setTimeout(() => r('no answer within 5 s'), 5_000).unref());
      expect(await Promise.race([waiting, timeout]), `round ${round + 1}`).toEqual([{ n: 2 }]);
    } finally {
      release();
      await Promise.all(held);
    }
  }
});
