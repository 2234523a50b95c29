import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import { domains } from '../domains/index.ts';
import { isConnectionLost, isPlainRead } from './faults.ts';
import { PGliteDialect } from './pglite.ts';
import type { Database } from './schema.ts';
import { type Binding, ConnectionState, type Face, noteGuardError, tenantGrants } from './tenant.ts';

export type Db = Kysely<Database>;

/** PGlite's version (its package.json is not exported: read beside its entry). */
const PGLITE_VERSION = (() => {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')).version as string;
})();

export interface DbConfig {
  /** PostgreSQL server; when set, PGlite is not used. */
  databaseUrl?: string;
  /** Schema to work in on a PostgreSQL server (tests isolate themselves with it). */
  schema?: string;
  /** PGlite data directory; `memory://` keeps everything in memory. */
  dataDir?: string;
  /**
   * FIELDWORK_DB_TIMEOUT_MS (the service): the longest wait for a connection and for a
   * statement (PostgreSQL's statement_timeout); past it the query fails (faults.ts: a 503).
   * Absent (the command line): no limit.
   */
  timeoutMs?: number;
  /** Told of each connection that failed outside a query (dropped from the pool, replaced when needed). */
  onConnectionError?: (err: Error) => void;
}

export interface DbHandle {
  /** The tables' owner: the command line, the workers, migrations (db/tenant.ts). */
  db: Db;
  /**
   * The tenants' database: the same connections, each statement run as the role
   * fieldwork_tenant inside the tenant of `asTenant` (db/tenant.ts), and refused on a
   * tenant-owned table outside one.
   */
  tenantDb: Db;
  /**
   * The requests' database bound to `tenant` and `actor` (db/tenant.ts Binding): the same
   * connections and guard as tenantDb, each statement inside `tenant` without asTenant.
   * Handles are kept, one per tenant and actor.
   */
  tenantDbFor(tenant: string, actor: string): Db;
  /**
   * The database for authentication and the token endpoint: on PostgreSQL a small pool of
   * its own, so that requests stuck on one locked table, holding every connection of the
   * main pool, do not hold authentication up with them; on PGlite the same as `db`.
   */
  authDb: Db;
  kind: 'pglite' | 'postgres';
  /** The schema the tables live in (`public` unless DbConfig.schema). */
  schema: string;
  /** The migrations this opening applied (none when another process had applied them). */
  migrationsApplied: string[];
  /**
   * Calls `onNotify(payload)` for each notification on `channel` (LISTEN/NOTIFY), and
   * `onState(up)` whenever delivery starts (true) or may have missed some (false: the
   * listening connection is lost; it reconnects by itself). Resolves after the first
   * attempt; returns the function that stops listening.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onState: (up: boolean) => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

// Parse int8 (bigserial ids, counts) as strings and keep timestamps as Date.
pg.types.setTypeParser(20, (v) => v);

/** Connections of the main pool and of the authentication pool (DbHandle.authDb). */
export const POOL_SIZE = 10;
export const AUTH_POOL_SIZE = 3;

export async function openDatabase(config: DbConfig): Promise<DbHandle> {
  return config.databaseUrl ? openPostgres(config) : openPgliteDatabase(config);
}

/**
 * A pool of connections to the PostgreSQL server. A connection that fails (the server
 * closed it: a restart, a failover, an idle timeout, pg_terminate_backend) emits 'error'
 * while idle in the pool (the pool drops it) or while a request holds it (its query fails;
 * released with that error, the pool drops it: preparingPool). Without a listener on both,
 * the process would die of it.
 */
function pgPool(config: DbConfig, max: number, role: string) {
  const settings = [
    ...(config.schema ? [`-c search_path=${config.schema}`] : []),
    ...(config.timeoutMs ? [`-c statement_timeout=${config.timeoutMs}`] : []),
  ];
  const pool = new pg.Pool({
    connectionString: config.databaseUrl,
    max,
    // A connection string's own application_name wins (tests pick theirs to find them).
    application_name: `fieldwork-${role}`,
    // The acquire timeout: waiting for a free connection, or for a new one to open.
    ...(config.timeoutMs ? { connectionTimeoutMillis: config.timeoutMs } : {}),
    keepAlive: true,
    ...(settings.length ? { options: settings.join(' ') } : {}),
  });
  const told = (err: Error) => config.onConnectionError?.(err);
  pool.on('error', told);
  pool.on('connect', (client) => client.on('error', told));
  return pool;
}

/** The service on a PostgreSQL server: the main pool (owner's and tenants' faces), the authentication pool. */
async function openPostgres(config: DbConfig): Promise<DbHandle> {
  const pool = pgPool(config, POOL_SIZE, 'main');
  const authPool = pgPool(config, AUTH_POOL_SIZE, 'auth');
  if (config.schema) {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${config.schema}"`);
  }
  const main = preparingPool(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: main('system') }) });
  const tenantDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: main('refused') }) });
  const authDb = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: preparingPool(authPool)('system') }),
  });
  const migrationsApplied = await migrate(db, (trx, text) => sql.raw(text).execute(trx));
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    tenantDb,
    tenantDbFor: boundHandles(
      (face) => new Kysely<Database>({ dialect: new PostgresDialect({ pool: main(face) }) }),
    ),
    authDb,
    kind: 'postgres',
    schema: config.schema ?? 'public',
    migrationsApplied,
    async listen(channel, onNotify, onState) {
      const stop = await pgListen(config, channel, onNotify, onState);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    close: async () => {
      for (const stop of listeners) await stop();
      await authDb.destroy();
      // Both handles share the pool: the second destroy finds it ended.
      await tenantDb.destroy();
      await db.destroy().catch(() => {});
    },
  };
}

/** Bound handles kept per tenant and actor: a request takes one without building it. */
const BOUND_KEPT = 10_000;
function boundHandles(make: (face: Binding) => Db): DbHandle['tenantDbFor'] {
  const kept = new Map<string, Db>();
  return (tenant, actor) => {
    const key = `${tenant}\n${actor}`;
    let db = kept.get(key);
    if (!db) {
      // Never destroyed: they share the pool, which the handle's close ends.
      if (kept.size >= BOUND_KEPT) kept.clear();
      db = make({ tenant, actor });
      kept.set(key, db);
    }
    return db;
  };
}

/** The service on PGlite, in this process: a data directory, or memory. */
async function openPgliteDatabase(config: DbConfig): Promise<DbHandle> {
  const dataDir = config.dataDir ?? './data';
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  // An in-memory database starts from a copy of a migrated one: PGlite's initdb costs
  // about 2 s a start, a copy about 0.7 s (every API test file opens several).
  const { client, dialect, db, tenantDb, migrationsApplied } = await openPglite(
    dataDir,
    dataDir.startsWith('memory://') ? await migratedTemplate() : undefined,
  );
  // One session, in this process: no connection to lose, no other session's lock to wait
  // for; what waits is a request behind another's transaction, bounded by the timeout.
  dialect.acquireTimeoutMs = config.timeoutMs;
  return {
    db,
    tenantDb,
    tenantDbFor: boundHandles((face) => new Kysely<Database>({ dialect: dialect.tenantDialect(face) })),
    authDb: db,
    kind: 'pglite',
    schema: 'public',
    migrationsApplied,
    // One process, one session: a notification is delivered to it when the writing
    // statement (or its transaction) commits, before the statement's promise resolves.
    async listen(channel, onNotify, onState) {
      const stop = await dialect.listen(channel, (payload) => onNotify(payload));
      onState(true);
      return async () => {
        if (!client.closed) await stop();
      };
    },
    close: () => db.destroy(),
  };
}

/**
 * node-postgres sends a query unnamed, so PostgreSQL parses and plans it every time. Here
 * each distinct DML text gets a statement name (the first MAX_PREPARED texts of the
 * process), so each pooled connection prepares it once and then only binds and executes
 * it, with its plan reused (a generic plan after five executions).
 */
export const MAX_PREPARED = 1000;
const PREPARABLE = /^\s*(?:select|insert|update|delete|with)\b/i;

/** What node-postgres keeps of a statement's row description to turn data rows into objects. */
interface RowShape {
  fields: unknown[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: object | null;
}
/** node-postgres's Query, as far as NamedQuery uses it (not in @types/pg). */
interface PgQueryInternals {
  name: string;
  values: unknown[];
  _result: RowShape;
  _accumulateRows: boolean;
  prepare(connection: PgConnection): void;
  handleRowDescription(msg: unknown): void;
  handleError(err: unknown, connection: PgConnection): void;
}
interface PgConnection {
  bind(config: { statement: string; values: unknown[]; valueMapper: unknown }): void;
  execute(config: { portal: string }): void;
  sync(): void;
}
const PgQuery = pg.Query as unknown as new (
  text: string,
  values: unknown[],
  callback: (err: Error | null, result: pg.QueryResult) => void,
) => PgQueryInternals;

/**
 * A named statement that skips the Describe of its portal once this connection knows the
 * statement's row description. node-postgres asks for it and rebuilds the row parsers on
 * every execution; a prepared statement's result columns cannot change (PostgreSQL refuses
 * to run one whose result type would change), so the first description serves for the
 * connection's life. An error forgets it, so the next execution describes again.
 */
class NamedQuery extends PgQuery {
  constructor(
    name: string,
    text: string,
    values: unknown[],
    private readonly shapes: Map<string, RowShape>,
    callback: (err: Error | null, result: pg.QueryResult) => void,
  ) {
    // A text, not a config object: node-postgres copies a config object property by property.
    super(text, values, callback);
    this.name = name;
  }
  override prepare(connection: PgConnection) {
    const shape = this.shapes.get(this.name);
    if (!shape) return super.prepare(connection);
    try {
      connection.bind({ statement: this.name, values: this.values, valueMapper: pgUtils.prepareValue });
    } catch (err) {
      connection.sync();
      this.handleError(err, connection);
      return;
    }
    Object.assign(this._result, shape);
    this._accumulateRows = true;
    connection.execute({ portal: '' });
    connection.sync();
  }
  override handleRowDescription(msg: unknown) {
    super.handleRowDescription(msg);
    const { fields, _parsers, _prebuiltEmptyResultObject } = this._result;
    this.shapes.set(this.name, { fields, _parsers, _prebuiltEmptyResultObject });
  }
  override handleError(err: unknown, connection: PgConnection) {
    this.shapes.delete(this.name);
    super.handleError(err, connection);
  }
}

/**
 * The pool Kysely draws from: statements named (NamedQuery), and a plain read made outside
 * a transaction run once more, on another connection, when its connection broke under it
 * (faults.ts): it repeats nothing, and the request does not see the loss. A write, or any
 * statement of a transaction, fails instead (the request answers 503; nothing half-done
 * was acknowledged).
 */
function preparingPool(pool: pg.Pool) {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED && PREPARABLE.test(text) && !text.includes(';')) {
      name = `fw${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  const wrappers = new WeakMap<pg.PoolClient, Wrapper>();
  const wrap = (client: pg.PoolClient) => wrapClient(client, nameOf, connect);
  const connect = async (): Promise<Wrapper> => {
    // A connection that broke while idle is dropped by the pool when it says so; one that
    // says so only now (between its release and this request) is destroyed, and another taken.
    for (;;) {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      if (!wrapper.broken) return wrapper;
      wrapper.release();
    }
  };
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    await pool.end();
  };
  // One pool, several faces: the owner's and the tenants' (db/tenant.ts).
  return (face: Face) =>
    ({
      connect: async () => (await connect()).handOut(face),
      end,
    }) as unknown as pg.Pool;
}

/** A pooled connection as preparingPool hands it out. */
interface Wrapper {
  /** `retry` false: without the read's second try. */
  query(text: string, values: unknown[], face?: Face, retry?: boolean): Promise<pg.QueryResult>;
  /** Releases the connection; destroys it instead when it broke. */
  release(): void;
  /**
   * The connection as pg's client, its statements `face`'s until released: one object per
   * connection, so that Kysely's driver does not wrap a new one at every acquisition.
   */
  handOut(face: Face): { query(text: string, values: unknown[]): Promise<pg.QueryResult>; release(): void };
  /** The error that broke the connection, if one did. */
  readonly broken: Error | undefined;
}

/**
 * One connection: its statements named once prepared, its tenant set before a statement
 * that needs another, a plain read outside a transaction run again on another connection
 * (`connect`) when this one broke under it.
 */
function wrapClient(
  client: pg.PoolClient,
  nameOf: (text: string) => string | undefined,
  connect: () => Promise<Wrapper>,
): Wrapper {
  const shapes = new Map<string, RowShape>();
  const tenancy = new ConnectionState();
  // The connection broke (a statement said so, or the client did): released, it is
  // destroyed, never handed to the next request (pg's `release(err)`).
  let broken: Error | undefined;
  client.on('error', (err) => {
    broken ??= err;
  });
  const failed = (err: Error) => {
    if (isConnectionLost(err)) broken ??= err;
    return Promise.reject(noteGuardError(err));
  };
  const run = (text: string, values: unknown[]): Promise<pg.QueryResult> => {
    const name = nameOf(text);
    if (!name) return client.query(text, values).catch(failed);
    return new Promise((resolve, reject) => {
      client.query(
        new NamedQuery(name, text, values, shapes, (err, result) =>
          err ? failed(err).catch(reject) : resolve(result),
        ) as unknown as pg.Submittable,
      );
    });
  };
  // Held by one acquirer at a time: the face is the holder's.
  let heldFace: Face = 'system';
  const handed = {
    query: (text: string, values: unknown[]) => wrapper.query(text, values, heldFace),
    release: () => wrapper.release(),
  };
  const wrapper: Wrapper = {
    async query(text, values, face: Face = 'system', retry = true) {
      // The tenant of the statement (db/tenant.ts), set first when the connection is in another.
      const inTransaction = tenancy.inTransaction;
      const prelude = tenancy.before(text, face);
      if (prelude) {
        await run(prelude.text, prelude.values);
        tenancy.after(prelude);
      }
      const once = run(text, values);
      if (inTransaction || tenancy.inTransaction || !retry) return once;
      return once.catch(async (err) => {
        if (!isConnectionLost(err) || !isPlainRead(text)) throw err;
        const other = await connect();
        try {
          return await other.query(text, values, face, false);
        } finally {
          other.release();
        }
      });
    },
    release: () => client.release(broken),
    handOut(face) {
      heldFace = face;
      return handed;
    },
    get broken() {
      return broken;
    },
  };
  return wrapper;
}

/** LISTEN on a dedicated connection, reconnecting after a loss (1 s, then up to 5 s apart). */
async function pgListen(
  config: DbConfig,
  channel: string,
  onNotify: (payload: string) => void,
  onState: (up: boolean) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let delay = 1000;
  const retry = () => {
    if (stopped) return;
    timer = setTimeout(() => void connect(), delay);
    timer.unref();
    delay = Math.min(delay * 2, 5_000);
  };
  async function connect() {
    const c = new pg.Client({
      connectionString: config.databaseUrl,
      application_name: 'fieldwork-listen',
      connectionTimeoutMillis: config.timeoutMs ?? 5000,
      keepAlive: true,
    });
    let up = false;
    c.on('error', () => {});
    c.on('notification', (n) => {
      if (n.channel === channel) onNotify(n.payload ?? '');
    });
    c.on('end', () => {
      if (!up || stopped) return;
      up = false;
      client = undefined;
      onState(false);
      retry();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      await c.end().catch(() => {});
      onState(false);
      retry();
      return;
    }
    if (stopped) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    up = true;
    delay = 1000;
    onState(true);
  }
  await connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const c = client;
    client = undefined;
    await c?.end().catch(() => {});
  };
}

/** A PGlite database, from `template` (a data directory tar) when given, migrated. */
async function openPglite(dataDir: string, template?: Blob) {
  const client = await PGlite.create(dataDir, {
    parsers: { 20: (v: string) => v },
    ...(template ? { loadDataDir: template } : {}),
  });
  const dialect = new PGliteDialect(client);
  const db = new Kysely<Database>({ dialect });
  const tenantDb = new Kysely<Database>({ dialect: dialect.tenantDialect() });
  // PGlite runs multi-statement scripts only through exec (simple protocol); the
  // migration transaction holds PGlite's single connection, so exec runs inside it.
  const migrationsApplied = await migrate(db, async (_trx, text) => {
    await client.exec(text);
  });
  return { client, dialect, db, tenantDb, migrationsApplied };
}

let template: Promise<Blob> | undefined;

/**
 * A PGlite data directory with every migration applied, as a tar Blob, made once per set
 * of migrations and PGlite version and kept in the temporary folder (test processes share
 * it); written to a private name, then renamed, so a reader never sees half of it.
 */
function migratedTemplate(): Promise<Blob> {
  template ??= (async () => {
    const hash = createHash('sha256').update(PGLITE_VERSION);
    for (const file of await migrationFiles()) hash.update(file.name).update(await readFile(file.path));
    const path = join(tmpdir(), `fieldwork-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
    try {
      return new Blob([await readFile(path)]);
    } catch {
      // not made yet
    }
    const { client } = await openPglite('memory://');
    try {
      const blob = await client.dumpDataDir('none');
      const partial = `${path}.${process.pid}`;
      // Kept for the next process when the folder has room; this one has its copy anyway.
      await writeFile(partial, Buffer.from(await blob.arrayBuffer()))
        .then(() => rename(partial, path))
        .catch(() => rm(partial, { force: true }));
      return blob;
    } finally {
      await client.close();
    }
  })();
  return template;
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
  /** The last file to apply (a database of an earlier version, for upgrade tests). */
  upTo?: string,
): Promise<string[]> {
  const files = (await migrationFiles()).filter((f) => upTo === undefined || f.name <= upTo);
  const applied: string[] = [];
  await db.transaction().execute(async (trx) => {
    // One migrator at a time across processes sharing a PostgreSQL server (the service's
    // workers start together): the table too, which two concurrent CREATE IF NOT EXISTS
    // would both try to create.
    // A migration (an index on a large table), or the wait for another process's, may take
    // longer than the service's statement timeout (FIELDWORK_DB_TIMEOUT_MS): lifted first,
    // so that the lock's wait is not cut by it either.
    await sql`SET LOCAL statement_timeout = 0`.execute(trx);
    await sql`SELECT pg_advisory_xact_lock(727274)`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
      trx,
    );
    const done = new Set(
      (await trx.selectFrom('schema_migrations').select('name').execute()).map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file.name)) continue;
      await execScript(trx, await readFile(file.path, 'utf8'));
      await trx.insertInto('schema_migrations').values({ name: file.name }).execute();
      applied.push(file.name);
    }
    if (done.has('090_tenants.sql') || applied.includes('090_tenants.sql')) {
      const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(trx);
      await execScript(trx, tenantGrants(rows[0].schema));
    }
  });
  return applied;
}

/**
 * The tables of the current schema that the current transaction has written (inserted,
 * updated or deleted rows), from PostgreSQL's per-transaction statistics.
 */
export async function tablesWrittenInTransaction(trx: Db): Promise<string[]> {
  const { rows } = await sql<{ relname: string }>`
    SELECT relname FROM pg_stat_xact_user_tables
    WHERE schemaname = current_schema() AND n_tup_ins + n_tup_upd + n_tup_del > 0
    ORDER BY relname`.execute(trx);
  return rows.map((r) => r.relname);
}

/**
 * Fresh planner statistics for tables that just took many rows (an import, the demo
 * dataset): without them PostgreSQL (whose autovacuum may be off or late) and PGlite
 * (which has no autovacuum) plan from the empty tables' estimates, e.g. a customer GET as
 * a scan of the office index discarding every other row of the office.
 */
export async function analyzeTables(db: Db, tables: string[]) {
  for (const table of tables) await sql`ANALYZE ${sql.id(table)}`.execute(db);
}
