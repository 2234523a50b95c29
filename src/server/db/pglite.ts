import { type PGlite, protocol } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import utils from 'pg/lib/utils.js';

/**
 * Kysely dialect for PGlite. PGlite has a single connection, so the driver hands it out
 * like a pool of one: a transaction holds it until commit or rollback, and concurrent
 * requests wait their turn instead of slipping statements into someone else's transaction.
 *
 * Why a query costs what it costs, and what this driver does about it (README: Performance):
 * PGlite's own `query()` enters the WebAssembly backend six times per statement (Parse,
 * Describe statement, Bind, Describe portal, Execute, Sync, each a separate call), and
 * every Parse re-plans: planning reads the size of every table and index involved, which
 * PGlite's Node file system answers with an `fstat` per file (`lseek(SEEK_END)`), the top
 * native frame of a profile. Here a statement is sent in ONE call, as a named prepared
 * statement the first time (Parse + Describe + Bind + Execute + Sync) and as Bind + Execute
 * + Sync afterwards, its row description kept from the first time; PostgreSQL then reuses
 * its plan (a generic plan after five executions), so the planner and its `fstat`s are
 * skipped. Parameters are sent as text, serialized as node-postgres does (`prepareValue`),
 * so both databases see the same values.
 *
 * Durability is PGlite's: every write of a committed transaction has reached the operating
 * system (Emscripten's NODEFS writes with `fs.writeSync`) before the COMMIT returns, so a
 * killed process loses nothing (bench/crash.mjs). PGlite runs PostgreSQL with `fsync` off
 * and its NODEFS has no `fsync` at all, so a power cut can lose the last commits; that
 * needs PostgreSQL. `relaxedDurability` only concerns the browser file systems (IndexedDB),
 * whose sync PGlite may then skip: not used, and irrelevant on Node.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.client);
  }
  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/** Statements kept prepared at most; the others are sent unnamed (parsed each time). */
export const MAX_PREPARED = 1000;
/** What is worth preparing: plain DML. Transaction control and DDL go unnamed. */
const PREPARABLE = /^\s*(?:select|insert|update|delete|with)\b/i;

interface Field {
  name: string;
  dataTypeID: number;
}
interface Prepared {
  name: string;
  /** undefined: the statement returns no rows (NoData). */
  fields: Field[] | undefined;
}

type Message = { name: string } & Record<string, unknown>;

const enc = protocol.serialize;

function concat(parts: Uint8Array[]) {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** node-postgres's text form of a parameter (dates, arrays, buffers, JSON objects). */
function textValue(v: unknown): string | null {
  const prepared = utils.prepareValue(v) as string | Buffer | null;
  if (prepared === null || prepared === undefined) return null;
  // A Buffer (bytea) in the hex form PostgreSQL reads as text.
  return typeof prepared === 'string' ? prepared : `\\x${prepared.toString('hex')}`;
}

/** Rows affected, from the command tag ("UPDATE 3", "INSERT 0 1"); undefined for SELECT. */
function affected(tag: string | undefined): bigint | undefined {
  if (!tag) return undefined;
  const m = /^(INSERT \d+|UPDATE|DELETE|MERGE) (\d+)$/.exec(tag);
  return m ? BigInt(m[2]) : undefined;
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: DatabaseConnection;
  private readonly prepared = new Map<string, Prepared>();
  private release: (() => void) | null = null;

  constructor(private readonly client: PGlite) {
    this.connection = {
      executeQuery: <R>(q: CompiledQuery) => this.run<R>(q.sql, q.parameters),
      streamQuery: () => {
        throw new Error('PGlite does not support streaming');
      },
    };
  }

  private async run<R>(text: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    const values = parameters.map(textValue);
    let known = this.prepared.get(text);
    let fresh: Prepared | undefined;
    const parts: Uint8Array[] = [];
    if (!known) {
      const name =
        PREPARABLE.test(text) && this.prepared.size < MAX_PREPARED ? `fw${this.prepared.size}` : '';
      fresh = { name, fields: undefined };
      parts.push(enc.parse({ name, text, types: [] }));
      if (name) parts.push(enc.describe({ type: 'S', name }));
    }
    const statement = known?.name ?? fresh?.name ?? '';
    parts.push(enc.bind({ statement, values }));
    if (fresh && !fresh.name) parts.push(enc.describe({ type: 'P' }));
    parts.push(enc.execute({}), enc.sync());

    const { messages } = (await this.client.runExclusive(() =>
      this.client.execProtocol(concat(parts), { syncToFs: false, throwOnError: false }),
    )) as unknown as { messages: Message[] };

    let error: Message | undefined;
    let fields = known?.fields;
    let parsed = false;
    let tag: string | undefined;
    const raw: (string | null)[][] = [];
    for (const m of messages) {
      switch (m.name) {
        case 'parseComplete':
          parsed = true;
          break;
        case 'rowDescription':
          fields = (m.fields as Field[]).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
          break;
        case 'dataRow':
          raw.push(m.fields as (string | null)[]);
          break;
        case 'commandComplete':
          tag = m.text as string;
          break;
        case 'error':
          error ??= m;
          break;
      }
    }
    // A statement the backend accepted is kept, even when its execution then failed.
    if (fresh?.name && parsed) {
      fresh.fields = fields;
      this.prepared.set(text, fresh);
      known = fresh;
    }
    if (error) throw error;

    const parsers = this.client.parsers as Record<number, (v: string, t: number) => unknown>;
    const rows = raw.map((r) => {
      const row: Record<string, unknown> = {};
      const f = fields ?? [];
      for (let i = 0; i < f.length; i++) {
        const v = r[i];
        const parse = parsers[f[i].dataTypeID];
        row[f[i].name] = v === null ? null : parse ? parse(v, f[i].dataTypeID) : v;
      }
      return row as R;
    });
    return { rows, numAffectedRows: affected(tag) };
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.release = release;
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = null;
    release?.();
  }

  async beginTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('BEGIN'));
  }
  async commitTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('COMMIT'));
  }
  async rollbackTransaction(conn: DatabaseConnection) {
    await conn.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }
  async destroy() {
    await this.client.close();
  }
}
