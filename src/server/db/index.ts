import { mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { domains } from '../domains/index.ts';
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

/** The platform's migrations, then every domain's (numbers are global across folders). */
const MIGRATION_FOLDERS: URL[] = [
  new URL('./migrations/', import.meta.url),
  ...domains.flatMap((d) => (d.migrations ? [d.migrations] : [])),
];

/** Every migration file, sorted by number; two files with one number are a build error. */
export async function migrationFiles(folders = MIGRATION_FOLDERS): Promise<{ name: string; path: string }[]> {
  const files: { name: string; path: string }[] = [];
  for (const folder of folders) {
    const dir = fileURLToPath(folder);
    for (const name of await readdir(dir))
      if (/^\d{3}_.*\.sql$/.test(name)) files.push({ name, path: dir + name });
  }
  const byNumber = new Map<string, string>();
  for (const f of files) {
    const n = f.name.slice(0, 3);
    const other = byNumber.get(n);
    if (other) throw new Error(`two migrations numbered ${n}: ${other} and ${f.path}`);
    byNumber.set(n, f.path);
  }
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

/** Applies the numbered `.sql` files not applied yet, in one transaction. */
export async function migrate(
  db: Db,
  execScript: (trx: Db, text: string) => Promise<unknown>,
): Promise<string[]> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
    db,
  );
  const files = await migrationFiles();
  const applied: string[] = [];
  await db.transaction().execute(async (trx) => {
    // One migrator at a time across processes sharing a PostgreSQL server.
    await sql`SELECT pg_advisory_xact_lock(727274)`.execute(trx);
    const done = new Set(
      (await trx.selectFrom('schema_migrations').select('name').execute()).map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file.name)) continue;
      await execScript(trx, await readFile(file.path, 'utf8'));
      await trx.insertInto('schema_migrations').values({ name: file.name }).execute();
      applied.push(file.name);
    }
  });
  return applied;
}
