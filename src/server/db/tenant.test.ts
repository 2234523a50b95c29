/**
 * The tenant guard (db/tenant.ts, migration 090), on both databases: every table but the
 * platform's holds tenant_id under a row-level security policy; a request's statements run
 * as a role the policies bind; a statement outside a tenant is refused; a query that
 * forgets its tenant filter still reads, changes and locks its own tenant's rows only.
 * (That the whole API suite runs with the guard armed: testing/harness.ts fails a test app
 * whose requests made the guard refuse a statement.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint } from '../../contract/endpoint.ts';
import { runImport } from '../cli/importFile.ts';
import { implement, registerRoutes } from '../platform/routes.ts';
import { createTestApp, routeDepsOf, type TestApp } from '../testing/harness.ts';
import type { Db } from './index.ts';
import { asTenant, currentTenant, GUARD_SQLSTATE, guardRefusals, TENANT_ROLE } from './tenant.ts';

/** A test-only row whose handler tells what its statements run as. */
const getSession = endpoint({
  id: 'test.tenantSession',
  method: 'GET',
  path: '/test/v1/tenantSession',
  domain: 'referentials',
  range: 'standard',
  summary: 'test',
  errorPrefix: 'test.session',
  responses: {
    200: z.object({
      role: z.string(),
      tenant: z.string(),
      actor: z.string(),
      items: z.array(z.string()),
      asTenant: z.string().nullable(),
    }),
  },
});

/** Instance-wide tables: the tenants' tree itself, and the platform's secrets and bookkeeping. */
const PLATFORM = [
  'caller_changes',
  'caller_listeners',
  'instance_secrets',
  'oauth_models',
  'offices',
  'revoked_tokens',
  'schema_migrations',
];

let t: TestApp;
let tenantDb: Db;
let owned: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  tenantDb = t.app.fieldwork.dbh.tenantDb;
  const dataset = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../../e2e/support/dataset.json'), 'utf8'),
  );
  await runImport(t.db, dataset);
  for (const tenant of ['ROOT', 'RIVAL'])
    await runImport(
      t.db,
      {
        items: [
          { itemCode: 'SHARED', name: `${tenant} item` },
          { itemCode: `ONLY-${tenant}`, name: 'x' },
        ],
        skills: [{ skillCode: 'ELEC', name: `${tenant} skill` }],
      },
      { tenant },
    );
  const { rows } = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND column_name = 'tenant_id' ORDER BY table_name`.execute(t.db);
  owned = rows.map((r) => r.table_name);
  registerRoutes(
    t.app,
    [
      implement(getSession, async (_input, { db }) => {
        // A write sets the actor on the connection; a read leaves it as it is.
        await db.transaction().execute(async (trx) => {
          await sql`SELECT 1`.execute(trx);
        });
        const session = await sql<{ role: string; tenant: string; actor: string }>`
          SELECT current_user AS role, current_setting('fieldwork.tenant') AS tenant,
                 current_setting('fieldwork.actor') AS actor`.execute(db);
        const items = await db.selectFrom('items').select('code').orderBy('code').execute();
        return {
          status: 200,
          body: { ...session.rows[0], items: items.map((i) => i.code), asTenant: currentTenant() ?? null },
        };
      }),
    ],
    routeDepsOf(t.app),
  );
});
afterAll(() => t.close());

describe('the tenant guard', () => {
  it('every table but the platform’s holds tenant_id NOT NULL under a policy', async () => {
    const { rows } = await sql<{ name: string; rls: boolean; policies: number; nullable: string | null }>`
      SELECT c.relname AS name, c.relrowsecurity AS rls,
             (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies,
             (SELECT is_nullable FROM information_schema.columns k
               WHERE k.table_schema = current_schema() AND k.table_name = c.relname
                 AND k.column_name = 'tenant_id') AS nullable
      FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
      ORDER BY c.relname`.execute(t.db);
    const tenantTables = rows.filter((r) => !PLATFORM.includes(r.name));
    expect(tenantTables.length).toBeGreaterThan(30);
    for (const r of tenantTables) expect(r, r.name).toMatchObject({ rls: true, policies: 1, nullable: 'NO' });
    expect(owned).toEqual(tenantTables.map((r) => r.name));
  });

  it('a request’s statements run as a role without superuser or BYPASSRLS, in its tenant', async () => {
    const { rows } = await asTenant(t.tenants.RIVAL, () =>
      sql<{ role: string; superuser: boolean; bypass: boolean; tenant: string }>`
        SELECT current_user AS role, r.rolsuper AS superuser, r.rolbypassrls AS bypass,
               current_setting('fieldwork.tenant') AS tenant
        FROM pg_roles r WHERE r.rolname = current_user`.execute(tenantDb),
    );
    expect(rows).toEqual([{ role: TENANT_ROLE, superuser: false, bypass: false, tenant: t.tenants.RIVAL }]);
    // And the owner's handle (command line, workers) is back to the owner on that connection.
    const owner = await sql<{ role: string }>`SELECT current_user AS role`.execute(t.db);
    expect(owner.rows[0].role).not.toBe(TENANT_ROLE);
  });

  it('a handler’s database is bound to its caller’s tenant and actor, with no AsyncLocalStorage on the request path', async () => {
    const res = await t.call('GET', getSession.path, { as: 'rival' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ role: TENANT_ROLE, tenant: t.tenants.RIVAL });
    expect(JSON.parse(body.actor)).toEqual({ type: 'webService', identifier: expect.any(String) });
    // Only the caller's tenant's items, although the query names no tenant.
    expect(body.items).toContain('ONLY-RIVAL');
    expect(body.items).not.toContain('ONLY-ROOT');
    // The tenant came with the handle: the request did not enter asTenant, whose
    // AsyncLocalStorage would run Node 20's hook on every promise (docs/performance.md).
    expect(body.asTenant).toBeNull();
  });

  it('refuses (FW001) a statement on any tenant table made outside a tenant', async () => {
    const before = guardRefusals();
    let refused = 0;
    for (const table of owned) {
      const statement = sql`SELECT 1 FROM ${sql.table(table)} LIMIT 1`;
      const rows = (await statement.execute(t.db)).rows.length;
      const outcome = await statement.execute(tenantDb).then(
        (r) => ({ rows: r.rows.length }),
        (e) => ({ code: (e as { code?: string }).code }),
      );
      // The policy's tenant is read when a row (or an index scan) needs it: an empty table
      // may answer nothing instead, which reveals nothing either.
      if ('code' in outcome || rows > 0) {
        expect(outcome, table).toEqual({ code: GUARD_SQLSTATE });
        refused++;
      } else expect(outcome, table).toEqual({ rows: 0 });
    }
    // Writes are checked row by row: refused even on an empty table.
    await expect(
      sql`INSERT INTO areas (code, name) VALUES ('X', 'x')`.execute(tenantDb),
    ).rejects.toMatchObject({
      code: GUARD_SQLSTATE,
    });
    refused++;
    expect(refused).toBeGreaterThan(20);
    expect(guardRefusals() - before).toBe(refused);
    // The harness would fail this test app at close(): these refusals were made on purpose.
    (t as unknown as { close: () => Promise<void> }).close = closeIgnoringRefusals(t, refused);
  });

  it('a query that forgets its tenant filter reads its own tenant only', async () => {
    const read = (tenant: string) =>
      asTenant(tenant, () =>
        sql<{ code: string; name: string }>`SELECT code, name FROM items ORDER BY code`.execute(tenantDb),
      );
    expect((await read(t.tenants.RIVAL)).rows).toEqual([
      { code: 'ONLY-RIVAL', name: 'x' },
      { code: 'SHARED', name: 'RIVAL item' },
    ]);
    expect((await read(t.tenants.ROOT)).rows.map((r) => r.code)).toEqual([
      'E2E-FILTER',
      'E2E-LABOUR',
      'ONLY-ROOT',
      'SHARED',
    ]);
  });

  it('an UPDATE or DELETE without a tenant filter changes its own tenant only', async () => {
    const changed = await asTenant(t.tenants.RIVAL, () =>
      sql`UPDATE skills SET name = 'renamed by RIVAL'`.execute(tenantDb),
    );
    expect(changed.numAffectedRows).toBe(1n);
    const deleted = await asTenant(t.tenants.RIVAL, () => sql`DELETE FROM skills`.execute(tenantDb));
    expect(deleted.numAffectedRows).toBe(1n);
    const { rows } = await sql<{ tenant_id: string; name: string }>`
      SELECT tenant_id::text, name FROM skills WHERE code = 'ELEC'`.execute(t.db);
    expect(rows).toEqual([{ tenant_id: t.tenants.ROOT, name: 'ROOT skill' }]);
    expect(
      (await sql`SELECT 1 FROM skills WHERE tenant_id = ${t.tenants.ROOT}`.execute(t.db)).rows.length,
    ).toBe(3);
  });

  it('a row written for another tenant is refused, and nothing is written', async () => {
    await expect(
      asTenant(t.tenants.RIVAL, () =>
        sql`INSERT INTO items (tenant_id, code, name) VALUES (${t.tenants.ROOT}, 'PLANTED', 'x')`.execute(
          tenantDb,
        ),
      ),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(
      asTenant(t.tenants.RIVAL, () =>
        sql`UPDATE items SET tenant_id = ${t.tenants.ROOT} WHERE code = 'SHARED'`.execute(tenantDb),
      ),
    ).rejects.toMatchObject({ code: '42501' });
    const { rows } = await sql`SELECT 1 FROM items WHERE code = 'PLANTED'`.execute(t.db);
    expect(rows).toEqual([]);
  });

  it('a keyset page inside a tenant is read from the (tenant_id, code) index, in order (no sort)', async () => {
    const plan = (query: ReturnType<typeof sql>) =>
      asTenant(t.tenants.RIVAL, () =>
        tenantDb.transaction().execute(async (trx) => {
          // Tables this small would be scanned: ask for the index path the planner has.
          await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${query}`.execute(trx);
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        }),
      );
    const items = await plan(sql`SELECT code FROM items WHERE code > 'A' ORDER BY code LIMIT 100`);
    expect(items).toMatch(/Index (Only )?Scan using items_pkey/);
    // The policy's tenant (an InitPlan: `$0` on PostgreSQL 15, `(InitPlan 1).col1` on 17).
    expect(items).toMatch(
      /Index Cond: \(\(tenant_id = (\$\d|\(InitPlan 1\)\.col1)\) AND \(code > 'A'::text\)\)/,
    );
    expect(items).not.toMatch(/Sort/);
    const customers = await plan(
      sql`SELECT code FROM customers WHERE left(code, 512) >= 'A' ORDER BY left(code, 512), code LIMIT 100`,
    );
    expect(customers).toMatch(/customers_code_order/);
    expect(customers).toMatch(/tenant_id = (\$\d|\(InitPlan 1\)\.col1)/);
    // Ties of a 512-character prefix are ordered among themselves (migration 003): no full sort.
    expect(customers).not.toMatch(/->\s+Sort/);
  });

  it('the tenants’ role cannot read the platform’s secrets nor write offices', async () => {
    for (const statement of [
      sql`SELECT * FROM instance_secrets`,
      sql`SELECT * FROM oauth_models`,
      sql`UPDATE offices SET name = name`,
    ])
      await expect(asTenant(t.tenants.ROOT, () => statement.execute(tenantDb))).rejects.toMatchObject({
        code: '42501',
      });
  });
});

/** t.close() without the harness's check for the `expected` refusals this file made. */
function closeIgnoringRefusals(app: TestApp, expected: number) {
  const close = app.close.bind(app);
  return async () => {
    try {
      await close();
    } catch (e) {
      if (!String(e).includes(`tenant guard: ${expected} statement(s)`)) throw e;
    }
  };
}
