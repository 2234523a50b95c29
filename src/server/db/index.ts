import { mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DbConfig {
  /** PostgreSQL server; when set, PGlite is not used. */
  databaseUrl?: string;
  /** Schema to work in on a PostgreSQL server (tests isolate themselves with it). */
  schema?: string;
  /** PGlite data directory; `memory://` keeps everything in memory. */
  dataDir?: string;
}

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

// Parse int8 (bigserial ids, counts) as strings and keep timestamps as Date.
pg.types.setTypeParser(20, (v) => v);

export async function openDatabase(config: DbConfig): Promise<DbHandle> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
    });
    if (config.schema) {
      await pool.query(`CREATE SCHEMA IF NOT EXISTS "${config.schema}"`);
    }
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await migrate(db, (trx, text) => sql.raw(text).execute(trx));
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const dataDir = config.dataDir ?? './data';
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, { parsers: { 20: (v: string) => v } });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  // PGlite runs multi-statement scripts only through exec (simple protocol); the
  // migration transaction holds PGlite's single connection, so exec runs inside it.
  await migrate(db, async (_trx, text) => {
    await client.exec(text);
  });
  return { db, kind: 'pglite', close: () => db.destroy() };
}

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Applies the numbered `.sql` files not applied yet, each in its own transaction. */
export async function migrate(
  db: Db,
  execScript: (trx: Db, text: string) => Promise<unknown>,
): Promise<string[]> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
    db,
  );
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_.*\.sql$/.test(f)).sort();
  const applied: string[] = [];
  await db.transaction().execute(async (trx) => {
    // One migrator at a time across processes sharing a PostgreSQL server.
    await sql`SELECT pg_advisory_xact_lock(727274)`.execute(trx);
    const done = new Set(
      (await trx.selectFrom('schema_migrations').select('name').execute()).map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      const text = await readFile(MIGRATIONS_DIR + file, 'utf8');
      await execScript(trx, text);
      await trx.insertInto('schema_migrations').values({ name: file }).execute();
      applied.push(file);
    }
  });
  return applied;
}
