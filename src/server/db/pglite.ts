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
import { DatabaseBusyError } from './faults.ts';
import { ConnectionState, type Face, noteGuardError } from './tenant.ts';

/**
 * Kysely dialect for PGlite. PGlite has a single connection, so the driver hands it out
 * like a pool of one: a transaction holds it until commit or rollback, and concurrent
 * requests wait their turn instead of slipping statements into someone else's transaction.
 *
 * Why a query costs what it costs, and what this driver does about it (docs/performance.md):
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
 * The backend's answer is taken as raw bytes (`execProtocolRawStream`) and read here:
 * PGlite's own parser copies every field into a fresh ArrayBuffer and builds a message
 * object per row, which cost more than the read it answers. A prepared statement's Bind +
 * Execute + Sync is written in one buffer. Errors are still read by PGlite's parser (the
 * same DatabaseError as before), and since PGlite's parser no longer sees the answers, the
 * driver delivers the notifications itself: `listen()` is the PGlite side of
 * DbHandle.listen, called with each notification of its channel as it arrives with the
 * answer of the statement whose commit sent it.
 *
 * Durability is PGlite's: every write of a committed transaction has reached the operating
 * system (Emscripten's NODEFS writes with `fs.writeSync`) before the COMMIT returns, so a
 * killed process loses nothing (bench/crash.mjs). PGlite runs PostgreSQL with `fsync` off
 * and its NODEFS has no `fsync` at all, so a power cut can lose the last commits; that
 * needs PostgreSQL. `relaxedDurability` only concerns the browser file systems (IndexedDB),
 * whose sync PGlite may then skip: not used, and irrelevant on Node.
 */
export class PGliteDialect implements Dialect {
  private driver: PGliteDriver | undefined;
  /** Longest wait for the session held by another request (FIELDWORK_DB_TIMEOUT_MS); none when unset. */
  acquireTimeoutMs: number | undefined;
  constructor(private readonly client: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    this.driver ??= new PGliteDriver(this.client, () => this.acquireTimeoutMs);
    return this.driver;
  }
  /**
   * The same session, its statements `face`'s: by default outside a tenant, refused on
   * tenant tables; or bound to a tenant (db/tenant.ts).
   */
  tenantDialect(face: Face = 'refused'): Dialect {
    const driver = (this.createDriver() as PGliteDriver).view(face);
    return {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    };
  }
  /** LISTEN on `channel`: `onNotify(payload)` for each notification. Returns the unlisten. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    return (this.createDriver() as PGliteDriver).listen(channel, onNotify);
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

const enc = protocol.serialize;

/** Execute (unnamed portal, every row) then Sync: the same bytes for every statement. */
const EXECUTE_SYNC = Buffer.concat([enc.execute({}), enc.sync()]);

/**
 * Bind (unnamed portal, `statement`, every parameter and result as text) + Execute + Sync,
 * in one buffer: what a prepared statement's execution sends.
 */
function bindExecuteSync(statement: string, values: (string | null)[]): Buffer {
  let valuesLength = 0;
  for (const v of values) valuesLength += 4 + (v === null ? 0 : Buffer.byteLength(v));
  // type, length, portal '' \0, statement \0, 0 formats, n values, values, 0 result formats
  const bindLength = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 + valuesLength + 2;
  const out = Buffer.allocUnsafe(1 + bindLength + EXECUTE_SYNC.length);
  let at = out.writeUInt8(0x42, 0);
  at = out.writeInt32BE(bindLength, at);
  at = out.writeUInt8(0, at);
  at += out.write(statement, at, 'utf8');
  at = out.writeUInt8(0, at);
  at = out.writeInt16BE(0, at);
  at = out.writeInt16BE(values.length, at);
  for (const v of values) {
    if (v === null) at = out.writeInt32BE(-1, at);
    else {
      const n = out.write(v, at + 4, 'utf8');
      at = out.writeInt32BE(n, at) + n;
    }
  }
  at = out.writeInt16BE(0, at);
  EXECUTE_SYNC.copy(out, at);
  return out;
}

/** A C string of `buf` at `at`: its text and the offset after its NUL. */
function cstring(buf: Buffer, at: number): [string, number] {
  const end = buf.indexOf(0, at);
  return [buf.toString('utf8', at, end), end + 1];
}

/** The fields of a RowDescription message body starting at `at`. */
function rowDescription(buf: Buffer, at: number): Field[] {
  const count = buf.readInt16BE(at);
  at += 2;
  const fields: Field[] = [];
  for (let i = 0; i < count; i++) {
    const [name, next] = cstring(buf, at);
    // table oid (4), column (2), type oid (4), size (2), modifier (4), format (2)
    fields.push({ name, dataTypeID: buf.readInt32BE(next + 6) });
    at = next + 18;
  }
  return fields;
}

/** An ErrorResponse message (its whole bytes) as PGlite's parser makes it: a DatabaseError. */
function databaseError(message: Buffer): Error {
  let error: Error | undefined;
  new protocol.Parser().parse(message, (m) => {
    error ??= m as unknown as Error;
  });
  return error ?? new Error('PGlite: an error message that could not be read');
}

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
  private readonly tenancy = new ConnectionState();
  private readonly prepared = new Map<string, Prepared>();
  private release: (() => void) | null = null;
  /** Acquisitions not released yet (the holder and those waiting). */
  private held = 0;
  /** Callbacks of the channels this session listens on (listen()). */
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();

  constructor(
    private readonly client: PGlite,
    private readonly acquireTimeoutMs: () => number | undefined,
  ) {
    this.connection = this.connectionFor('system');
  }

  private connectionFor(face: Face): DatabaseConnection {
    return {
      executeQuery: async <R>(q: CompiledQuery) => {
        // The tenant of the statement (db/tenant.ts), set first when the session is in another.
        const prelude = this.tenancy.before(q.sql, face);
        if (prelude) {
          await this.run(prelude.text, prelude.values);
          this.tenancy.after(prelude);
        }
        return this.run<R>(q.sql, q.parameters);
      },
      streamQuery: () => {
        throw new Error('PGlite does not support streaming');
      },
    };
  }

  /** This session as a driver whose statements are `face`'s. */
  view(face: Face): Driver {
    const connection = this.connectionFor(face);
    return {
      init: async () => {},
      acquireConnection: async () => {
        await this.acquireConnection();
        return connection;
      },
      releaseConnection: () => this.releaseConnection(),
      beginTransaction: (conn) => this.beginTransaction(conn),
      commitTransaction: (conn) => this.commitTransaction(conn),
      rollbackTransaction: (conn) => this.rollbackTransaction(conn),
      // The owner's handle closes the session.
      destroy: async () => {},
    };
  }

  private async run<R>(text: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    const values = parameters.map(textValue);
    const known = this.prepared.get(text);
    let fresh: Prepared | undefined;
    let request: Uint8Array;
    if (known) request = bindExecuteSync(known.name, values);
    else {
      const name =
        PREPARABLE.test(text) && this.prepared.size < MAX_PREPARED ? `fw${this.prepared.size}` : '';
      fresh = { name, fields: undefined };
      const parts: Uint8Array[] = [enc.parse({ name, text, types: [] })];
      if (name) parts.push(enc.describe({ type: 'S', name }));
      parts.push(enc.bind({ statement: name, values }));
      if (!name) parts.push(enc.describe({ type: 'P' }));
      parts.push(EXECUTE_SYNC);
      request = concat(parts);
    }

    const answer = await this.exchange(request);

    let error: Error | undefined;
    let fields = known?.fields;
    let parsed = false;
    let tag: string | undefined;
    const rows: R[] = [];
    const parsers = this.client.parsers as Record<number, (v: string, t: number) => unknown>;
    for (let at = 0; at + 5 <= answer.length; ) {
      const type = answer[at];
      const end = at + 1 + answer.readInt32BE(at + 1);
      const body = at + 5;
      switch (type) {
        case 0x31: // '1' ParseComplete
          parsed = true;
          break;
        case 0x54: // 'T' RowDescription
          fields = rowDescription(answer, body);
          break;
        case 0x44: {
          // 'D' DataRow: per column, a length (-1: NULL) and the text.
          const f = fields ?? [];
          const row: Record<string, unknown> = {};
          let p = body + 2;
          for (let i = 0; i < f.length; i++) {
            const length = answer.readInt32BE(p);
            p += 4;
            if (length < 0) {
              row[f[i].name] = null;
              continue;
            }
            const v = answer.toString('utf8', p, p + length);
            p += length;
            const parse = parsers[f[i].dataTypeID];
            row[f[i].name] = parse ? parse(v, f[i].dataTypeID) : v;
          }
          rows.push(row as R);
          break;
        }
        case 0x43: // 'C' CommandComplete
          tag = answer.toString('utf8', body, end - 1);
          break;
        case 0x45: // 'E' ErrorResponse
          error ??= databaseError(answer.subarray(at, end));
          break;
        case 0x41: {
          // 'A' NotificationResponse: process id, channel, payload.
          const [channel, next] = cstring(answer, body + 4);
          const [payload] = cstring(answer, next);
          for (const listener of this.listeners.get(channel) ?? []) queueMicrotask(() => listener(payload));
          break;
        }
        // The others (BindComplete, NoData, ParameterDescription, ReadyForQuery, notices,
        // parameter status) say nothing a query's result needs.
      }
      at = end;
    }
    // A statement the backend accepted is kept, even when its execution then failed.
    if (fresh?.name && parsed) {
      fresh.fields = fields;
      this.prepared.set(text, fresh);
    }
    if (error) throw noteGuardError(error);
    return { rows, numAffectedRows: affected(tag) };
  }

  /**
   * Sends `request` to the backend; resolves with every byte of its answer. Not under
   * PGlite's own lock (`runExclusive`, whose generator-based promises cost 4 % of a GET):
   * statements reach this driver one at a time (acquireConnection), the exchange runs
   * synchronously from start to end, and the client's only other user, the migrations'
   * `exec`, runs while the migration's transaction holds this driver's connection.
   */
  private async exchange(request: Uint8Array): Promise<Buffer> {
    // Without the lock nothing waits for a close in progress: say so, not a TypeError.
    if (this.client.closed) throw new Error('PGlite: the database is closed');
    const chunks: Buffer[] = [];
    // Each chunk is a view of the WebAssembly memory, reused after the call: copied.
    await this.client.execProtocolRawStream(request, {
      syncToFs: false,
      onRawData: (data) => chunks.push(Buffer.from(data)),
    });
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  }

  /** LISTEN on `channel` in this session; the returned function stops listening. */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let callbacks = this.listeners.get(channel);
    const first = !callbacks;
    if (!callbacks) {
      callbacks = new Set();
      this.listeners.set(channel, callbacks);
    }
    callbacks.add(onNotify);
    const quoted = `"${channel.replaceAll('"', '""')}"`;
    if (first)
      await this.statement(`LISTEN ${quoted}`).catch((e) => {
        this.listeners.delete(channel);
        throw e;
      });
    const set = callbacks;
    return async () => {
      set.delete(onNotify);
      if (set.size > 0 || this.listeners.get(channel) !== set) return;
      this.listeners.delete(channel);
      if (!this.client.closed) await this.statement(`UNLISTEN ${quoted}`);
    };
  }

  /** One statement on the session, in its turn (never inside someone else's transaction). */
  private async statement(text: string) {
    const connection = await this.acquireConnection();
    try {
      await connection.executeQuery(CompiledQuery.raw(text));
    } finally {
      await this.releaseConnection();
    }
  }

  async init() {}

  /**
   * The session, in turn. A wait longer than the timeout gives up (DatabaseBusyError: a
   * 503), and its turn, when it comes, is passed on at once. The timer is armed only when
   * the session is taken (the common case, a free session, costs no timer).
   */
  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    const wait = this.held++ > 0 ? this.acquireTimeoutMs() : undefined;
    if (wait) {
      let timer: NodeJS.Timeout | undefined;
      let gaveUp = false;
      const turn = previous.then(() => {
        clearTimeout(timer);
        if (gaveUp) {
          this.held--;
          release();
        }
      });
      await Promise.race([
        turn,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            gaveUp = true;
            reject(new DatabaseBusyError(wait));
          }, wait);
        }),
      ]);
    } else await previous;
    this.release = release;
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = null;
    this.held--;
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
