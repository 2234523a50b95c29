/**
 * Where each kind of record the console finds and counts lives (contract/console.ts
 * RECORD_KINDS): its table, its code and name, and the condition that keeps a caller to
 * its own records: its office tree (`inScope`), its own subscriptions, or nothing for the
 * instance-wide catalog (items, skills, characteristics). Read-only SQL fragments: the
 * search and Home's counts put each kind in one UNION ALL, one round trip.
 */
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import { RECORD_KIND_NAMES, RECORD_KINDS, type RecordKind } from '../../../contract/console.ts';
import type { Caller } from '../caller.ts';
import { inScope } from '../officeScope.ts';

export interface KindSource {
  /** `FROM ...` (with its joins), the table aliased `r`. */
  from: RawBuilder<unknown>;
  code: RawBuilder<string>;
  name: RawBuilder<string>;
  /** A second key when codes repeat (a work order's uuid): the keyset's tie-breaker. */
  tie: RawBuilder<string>;
  /** The caller's own records. */
  mine: (caller: Caller) => Expression<SqlBool>;
  /** Whether `q` matches: a code starting with it, or (unless `codeOnly`) a name containing it. */
  codeOnly?: boolean;
  /** Codes in lower case (a uuid): `q` is lowered, not uppercased, to match their start. */
  lowerCode?: boolean;
}

const everyone = () => sql<SqlBool>`true`;
const inTree = (caller: Caller) => inScope(caller.scope, 'r.office_id');
const table = (name: string) => sql`${sql.table(name)} r`;

export const KIND_SOURCES: { readonly [K in RecordKind]: KindSource } = {
  customer: {
    from: table('customers'),
    code: sql`r.code`,
    name: sql`r.name`,
    tie: sql`r.code`,
    mine: inTree,
  },
  site: { from: table('sites'), code: sql`r.code`, name: sql`r.name`, tie: sql`r.code`, mine: inTree },
  asset: { from: table('assets'), code: sql`r.code`, name: sql`r.name`, tie: sql`r.code`, mine: inTree },
  item: { from: table('items'), code: sql`r.code`, name: sql`r.name`, tie: sql`r.code`, mine: everyone },
  skill: { from: table('skills'), code: sql`r.code`, name: sql`r.name`, tie: sql`r.code`, mine: everyone },
  characteristic: {
    from: table('characteristics'),
    code: sql`r.code`,
    name: sql`r.name`,
    tie: sql`r.code`,
    mine: everyone,
  },
  // A work order is found by the start of its code (its type names thousands of them).
  workOrder: {
    from: sql`work_orders r JOIN work_order_types t ON t.code = r.type_code`,
    code: sql`r.code`,
    name: sql`t.name`,
    tie: sql`r.uuid::text`,
    mine: inTree,
    codeOnly: true,
  },
  technician: {
    from: table('technicians'),
    code: sql`r.code`,
    name: sql`r.name`,
    tie: sql`r.code`,
    mine: inTree,
  },
  project: { from: table('projects'), code: sql`r.code`, name: sql`r.name`, tie: sql`r.code`, mine: inTree },
  standardServiceOrder: {
    from: sql`service_orders r`,
    code: sql`r.code`,
    name: sql`''`,
    tie: sql`r.code`,
    mine: (caller) => sql<SqlBool>`r.kind = 'standard' AND ${inTree(caller)}`,
    codeOnly: true,
  },
  routeServiceOrder: {
    from: sql`service_orders r`,
    code: sql`r.code`,
    name: sql`''`,
    tie: sql`r.code`,
    mine: (caller) => sql<SqlBool>`r.kind = 'route' AND ${inTree(caller)}`,
    codeOnly: true,
  },
  // A subscription is its caller's own (webhooks, ownerOf); found by its callback URL.
  subscription: {
    from: table('webhook_subscriptions'),
    code: sql`r.id::text`,
    name: sql`r.callback_url`,
    tie: sql`r.id::text`,
    lowerCode: true,
    mine: (caller) =>
      caller.kind === 'application'
        ? sql<SqlBool>`r.application_id = ${caller.id}`
        : sql<SqlBool>`r.user_id = ${caller.id}`,
  },
};

/** The kinds the caller may read (it holds their read scope), in the contract's order. */
export const readableKinds = (caller: Caller): RecordKind[] =>
  RECORD_KIND_NAMES.filter((kind) => caller.scopes.has(RECORD_KINDS[kind]));
