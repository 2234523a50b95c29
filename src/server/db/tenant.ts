/**
 * The tenant guard (issue 24, 4; migration 090): every statement a request sends runs as
 * the role `fieldwork_tenant` with `fieldwork.tenant` set to the caller's tenant, so
 * PostgreSQL's row-level security keeps it inside that tenant whatever its WHERE clause
 * says: a forgotten tenant filter reads, changes and locks nothing of another tenant.
 *
 * The tenant travels with the handle a request's handler gets (`DbHandle.tenantDbFor`,
 * bound by platform/routes.ts to the caller's tenant and actor), or, for the command line
 * and tests, with `asTenant` (AsyncLocalStorage); the connection is switched to it before
 * the statement (or the transaction) that needs it, and only when its state differs, so a
 * run of requests of one tenant costs no extra round trip. The handles share the
 * connections: `DbHandle.tenantDb` runs a statement made outside any tenant with no tenant
 * at all, which the guard refuses (SQLSTATE FW001) on any tenant-owned table; `DbHandle.db`
 * (the command line, the workers, authentication) runs it as the tables' owner, which the
 * policies do not restrict.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'kysely';
import { errorCode } from '../platform/thrown.ts';
import { isPlainRead } from './faults.ts';
import type { Db } from './index.ts';

/** The role of a tenant's statements (migration 090). */
export const TENANT_ROLE = 'fieldwork_tenant';
/** The error the guard raises for a statement without a tenant. */
export const GUARD_SQLSTATE = 'FW001';

const context = new AsyncLocalStorage<string>();
const actors = new AsyncLocalStorage<string>();

/** Runs `fn` with every statement it sends (on either handle) inside `tenant`. */
export function asTenant<T>(tenant: string, fn: () => T): T {
  return context.run(tenant, fn);
}

/**
 * Runs `fn` with `actor` (the change log's JSON `{type, identifier}`) as the author of what
 * its statements write: the connection carries it as `fieldwork.actor` (the log's trigger
 * reads it at COMMIT), set with the tenant, so a run of writes of one caller costs no extra
 * round trip (events/changes.ts).
 */
export function asActor<T>(actor: string, fn: () => T): T {
  return actors.run(actor, fn);
}

let refusals = 0;
/** Statements the guard refused (FW001) in this process: the test harness fails on any. */
export const guardRefusals = () => refusals;
/** Counts `err` when it is the guard's refusal; returns it. */
export function noteGuardError<E>(err: E): E {
  if (errorCode(err) === GUARD_SQLSTATE) refusals++;
  return err;
}

/** The tenant of the request being served, if any. */
export const currentTenant = (): string | undefined => context.getStore();

/** What a handle falls back to outside asTenant: the owner (`system`) or no tenant at all. */
export type Outside = 'system' | 'refused';

/**
 * A handle bound to a tenant and an actor (DbHandle.tenantDbFor): a request's statements
 * carry them with the handle, not through asTenant, so that no AsyncLocalStorage is in use
 * while the service serves requests (on Node 20 it runs a hook on every promise of the
 * process: a quarter of a GET's CPU; docs/performance.md).
 */
export interface Binding {
  tenant: string;
  /** The change log's JSON `{type, identifier}` (events/changes.ts actorState). */
  actor: string;
}

/** Whose a handle's statements are: a binding's, or asTenant's with `Outside` as the fallback. */
export type Face = Outside | Binding;

/** A connection's state: 'system', or `t:<tenant>` ('t:' = none). */
export function wantedState(face: Face): string {
  if (typeof face === 'object') return `t:${face.tenant}`;
  const tenant = context.getStore();
  if (tenant !== undefined) return `t:${tenant}`;
  return face === 'system' ? 'system' : 't:';
}

/** The statement that puts a connection in `state` with `actor` (outside a transaction: for the session). */
export function stateStatement(state: string, actor: string): { text: string; values: string[] } {
  return state === 'system'
    ? {
        text: "SELECT set_config('role', 'none', false), set_config('fieldwork.tenant', '', false), set_config('fieldwork.actor', $1, false)",
        values: [actor],
      }
    : {
        text: `SELECT set_config('role', '${TENANT_ROLE}', false), set_config('fieldwork.tenant', $1, false), set_config('fieldwork.actor', $2, false)`,
        values: [state.slice(2), actor],
      };
}

/** A statement to send before another, and the connection's state once it has run. */
export interface Prelude {
  text: string;
  values: string[];
  next: string;
  actor: string;
}

/**
 * Inside a transaction of the owner (an import), the rest of the transaction runs as
 * `tenant`: the policies apply until COMMIT or ROLLBACK, as for a request.
 */
export async function enterTenant(trx: Db, tenant: string) {
  await sql`SELECT set_config('role', ${TENANT_ROLE}, true), set_config('fieldwork.tenant', ${tenant}, true)`.execute(
    trx,
  );
}

/**
 * Inside a transaction of the owner that entered a tenant (an import), the rest of the
 * transaction runs as the owner again: reads see every tenant (an import row's references
 * name its tenant before it is written there).
 */
export async function leaveTenant(trx: Db) {
  await sql`SELECT set_config('role', 'none', true), set_config('fieldwork.tenant', '', true)`.execute(trx);
}

/**
 * What the tenants' role may touch in `schema`, given again after every migration run (a
 * new table is covered without its migration saying so): the tables and sequences, less
 * the platform's secrets and sessions; offices only read (the command line writes them).
 */
export function tenantGrants(schema: string): string {
  const s = `"${schema.replaceAll('"', '""')}"`;
  return `
    GRANT USAGE ON SCHEMA ${s} TO ${TENANT_ROLE};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${TENANT_ROLE};
    GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${TENANT_ROLE};
    REVOKE ALL ON ${s}.instance_secrets, ${s}.oauth_models, ${s}.revoked_tokens, ${s}.caller_listeners,
      ${s}.schema_migrations FROM ${TENANT_ROLE};
    REVOKE INSERT, UPDATE, DELETE ON ${s}.offices FROM ${TENANT_ROLE};`;
}

/** A statement that opens or closes a transaction (Kysely's own texts). */
export const BEGINS = /^(?:begin|start transaction)/i;
export const ENDS = /^(?:commit|rollback)$/i;

/** The state a connection is in, kept per connection by the drivers. */
export class ConnectionState {
  state = 'system';
  /** The connection's `fieldwork.actor` ('' none, undefined unknown). */
  actor: string | undefined = '';
  inTransaction = false;
  /**
   * Before `text` runs: the statement to send first (or undefined); `after` once it ran. A
   * transaction keeps the state it began with: a statement of another tenant inside it is
   * a defect. The actor matters to what writes: a transaction, or a statement that is not
   * a plain read (a read leaves the connection's actor as it is).
   */
  before(text: string, face: Face): Prelude | undefined {
    const want = wantedState(face);
    if (this.inTransaction) {
      if (ENDS.test(text)) this.inTransaction = false;
      else if (want !== this.state)
        throw new Error(`tenant guard: a statement for ${want} inside a transaction of ${this.state}`);
      return undefined;
    }
    const begins = BEGINS.test(text);
    if (begins) this.inTransaction = true;
    const actor =
      begins || !isPlainRead(text)
        ? typeof face === 'object'
          ? face.actor
          : (actors.getStore() ?? '')
        : this.actor;
    if (want === this.state && actor === this.actor) return undefined;
    this.state = 'unknown';
    this.actor = undefined;
    return { ...stateStatement(want, actor ?? ''), next: want, actor: actor ?? '' };
  }

  /** The prelude `before` gave has run. */
  after(prelude: Prelude) {
    this.state = prelude.next;
    this.actor = prelude.actor;
  }
}
