/**
 * Migration 090 (tenants) upgrades a database made at the previous level (080) with data:
 * each record goes to its office's tenant (or its parent's), the instance-wide catalog is
 * copied to every tenant, references stay valid inside each tenant, and the policies are on.
 * On PGlite, or on a private schema of TEST_DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrate } from './index.ts';
import { PGliteDialect } from './pglite.ts';
import type { Database } from './schema.ts';

const PREVIOUS = '080_user_sessions.sql';

let db: Db;
let exec: (trx: Db, text: string) => Promise<unknown>;
let close: () => Promise<void>;
const ids: Record<string, string> = {};

async function open() {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` });
    await pool.query(`CREATE SCHEMA "${schema}"`);
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    exec = (trx, text) => sql.raw(text).execute(trx);
    close = async () => {
      await db.destroy();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    };
  } else {
    const client = await PGlite.create('memory://');
    db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
    exec = async (_trx, text) => {
      await client.exec(text);
    };
    close = () => db.destroy();
  }
}

const one = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(db)).rows;

beforeAll(async () => {
  await open();
  expect((await migrate(db, exec, PREVIOUS)).at(-1)).toBe(PREVIOUS);
  // Two tenants (A with a sub-office, B) and data of every kind, as version 080 stored it.
  await exec(
    db,
    `
    INSERT INTO offices (code, name, path) VALUES ('A', 'A', 'p:A'), ('B', 'B', 'p:B');
    UPDATE offices SET path = '/' || id || '/';
    INSERT INTO offices (code, name, parent_id, path) SELECT 'A1', 'A1', id, 'p:A1' FROM offices WHERE code = 'A';
    UPDATE offices c SET path = p.path || c.id || '/' FROM offices p WHERE c.code = 'A1' AND p.code = 'A';
    INSERT INTO applications (client_id, secret_hash, name, office_id, scopes)
      SELECT 'app-b', 'x', 'App B', id, '{}' FROM offices WHERE code = 'B';
    INSERT INTO users (login, password_hash, office_id) SELECT 'user-a', 'x', id FROM offices WHERE code = 'A1';
    INSERT INTO custom_field_definitions (entity, code, type) VALUES ('customer', 'TIER', 'textValue');
    INSERT INTO items (code, name, serial_number_pattern) VALUES ('I1', 'Item', '^X');
    INSERT INTO skills (code, name) VALUES ('S1', 'Skill');
    INSERT INTO characteristics (code, name) VALUES ('C1', 'Characteristic');
    INSERT INTO work_order_types (code, name, duration_minutes, skills) VALUES ('T1', 'Type', 60, '{S1}');
    INSERT INTO activity_types (code, name) VALUES ('AT', 'Activity');
    INSERT INTO flags (flag_id, label) VALUES (1, 'Urgent');
    INSERT INTO areas (code, name, zip_codes) VALUES ('AR', 'Area', '{59000}');
    INSERT INTO geocoding_entries (zip_code, city, country, latitude, longitude) VALUES ('59000', 'lille', 'FR', 50, 3);
    INSERT INTO technicians (code, name, office_id, skills, areas)
      SELECT 'TA', 'Tech A', id, '{S1}', '{AR}' FROM offices WHERE code = 'A1';
    INSERT INTO technicians (code, name, office_id) SELECT 'TB', 'Tech B', id FROM offices WHERE code = 'B';
    INSERT INTO crews (code, members) VALUES ('CR', '[]');
    INSERT INTO crew_members (crew_code, technician_code, is_main, from_date) VALUES ('CR', 'TB', true, '2025-01-01');
    INSERT INTO customer_portal_users (login, office_id) SELECT 'portal', id FROM offices WHERE code = 'B';
    INSERT INTO work_orders (uuid, code, type_code, status, office_id, technician_code)
      SELECT '00000000-0000-4000-8000-00000000000a', 'WA', 'T1', 'NEW', id, 'TA' FROM offices WHERE code = 'A1';
    INSERT INTO work_orders (uuid, code, type_code, status, office_id, technician_code, crew_code)
      SELECT '00000000-0000-4000-8000-00000000000b', 'WB', 'T1', 'NEW', id, 'TB', 'CR' FROM offices WHERE code = 'B';
    INSERT INTO used_items (used_item_id, work_order_id, kind, item_code, quantity, invoice_mode, technician_code)
      SELECT 'U1', id, 'part', 'I1', 1, 'external', 'TB' FROM work_orders WHERE code = 'WB';
    INSERT INTO activities (activity_id, work_order_id, type_code, agent_code, start_time, end_time, billable)
      SELECT 'A1', id, 'AT', 'TA', now(), now(), true FROM work_orders WHERE code = 'WA';
    INSERT INTO work_order_flags (work_order_id, flag_id) SELECT id, 1 FROM work_orders WHERE code = 'WB';
    INSERT INTO work_order_notes (work_order_id, note_code, content) SELECT id, 'N', 'x' FROM work_orders WHERE code = 'WA';
    INSERT INTO technician_positions (technician_code, recorded_at, latitude, longitude) VALUES ('TB', now(), 50, 3);
    INSERT INTO projects (code, name, office_id) SELECT 'PA', 'Project', id FROM offices WHERE code = 'A';
    INSERT INTO project_jobs (project_id, rank, job_type, work_order_id)
      SELECT p.id, 65536, 'workOrder', w.id FROM projects p, work_orders w WHERE w.code = 'WA';
    INSERT INTO service_orders (code, kind, office_id, status) SELECT 'SB', 'standard', id, 'open' FROM offices WHERE code = 'B';
    INSERT INTO service_order_work_orders (service_order_id, work_order_id, rank)
      SELECT s.id, w.id, 65536 FROM service_orders s, work_orders w WHERE w.code = 'WB';
    INSERT INTO webhook_subscriptions (application_id, event_types, callback_url)
      SELECT id, '{asset.upsert}', 'https://example.com/' FROM applications;
    INSERT INTO webhook_deliveries (subscription_id, event_type, data)
      SELECT id, 'asset.upsert', '{}' FROM webhook_subscriptions;
    INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, succeeded, worker)
      SELECT id, 1, now(), 1, true, 'w' FROM webhook_deliveries;`,
  );
  for (const r of await one(sql<{ code: string; id: string }>`SELECT code, id::text FROM offices`))
    ids[r.code] = r.id;
  expect(await migrate(db, exec)).toContain('090_tenants.sql');
});
afterAll(() => close?.());

const tenantsOf = async (table: string, key: string) =>
  (
    await one(
      sql<{ k: string; tenant: string }>`SELECT ${sql.ref(key)}::text AS k, tenant_id::text AS tenant
        FROM ${sql.table(table)} ORDER BY 1, 2`,
    )
  ).map((r) => `${r.k}@${r.tenant}`);

describe('migration 090 on a database of version 080', () => {
  it('copies the instance-wide catalog to every tenant', async () => {
    const both = (k: string) => [`${k}@${ids.A}`, `${k}@${ids.B}`];
    expect(await tenantsOf('items', 'code')).toEqual(both('I1'));
    expect(await tenantsOf('skills', 'code')).toEqual(both('S1'));
    expect(await tenantsOf('characteristics', 'code')).toEqual(both('C1'));
    expect(await tenantsOf('work_order_types', 'code')).toEqual(both('T1'));
    expect(await tenantsOf('activity_types', 'code')).toEqual(both('AT'));
    expect(await tenantsOf('flags', 'flag_id')).toEqual(both('1'));
    expect(await tenantsOf('areas', 'code')).toEqual(both('AR'));
    expect(await tenantsOf('custom_field_definitions', 'code')).toEqual(both('TIER'));
    expect(await tenantsOf('geocoding_entries', 'zip_code')).toEqual(both('59000'));
    // Every column copied (the generated search column recomputed).
    const items = await one(sql<{ pattern: string; search: string }>`
      SELECT serial_number_pattern AS pattern, search FROM items`);
    expect(items).toEqual([
      { pattern: '^X', search: 'i1\nitem\n\n' },
      { pattern: '^X', search: 'i1\nitem\n\n' },
    ]);
  });

  it("gives each record its office's tenant, or its parent's", async () => {
    const { A, B } = ids;
    expect(await tenantsOf('technicians', 'code')).toEqual([`TA@${A}`, `TB@${B}`]);
    expect(await tenantsOf('crews', 'code')).toEqual([`CR@${B}`]);
    expect(await tenantsOf('crew_members', 'crew_code')).toEqual([`CR@${B}`]);
    expect(await tenantsOf('customer_portal_users', 'login')).toEqual([`portal@${B}`]);
    expect(await tenantsOf('work_orders', 'code')).toEqual([`WA@${A}`, `WB@${B}`]);
    expect(await tenantsOf('used_items', 'used_item_id')).toEqual([`U1@${B}`]);
    expect(await tenantsOf('activities', 'activity_id')).toEqual([`A1@${A}`]);
    expect(await tenantsOf('work_order_flags', 'flag_id')).toEqual([`1@${B}`]);
    expect(await tenantsOf('work_order_notes', 'note_code')).toEqual([`N@${A}`]);
    expect(await tenantsOf('technician_positions', 'technician_code')).toEqual([`TB@${B}`]);
    expect(await tenantsOf('projects', 'code')).toEqual([`PA@${A}`]);
    expect(await tenantsOf('project_jobs', 'job_type')).toEqual([`workOrder@${A}`]);
    expect(await tenantsOf('service_orders', 'code')).toEqual([`SB@${B}`]);
    expect(await tenantsOf('service_order_work_orders', 'rank')).toEqual([`65536@${B}`]);
    expect(await tenantsOf('applications', 'client_id')).toEqual([`app-b@${B}`]);
    expect(await tenantsOf('users', 'login')).toEqual([`user-a@${A}`]);
    expect(await tenantsOf('webhook_subscriptions', 'callback_url')).toEqual([`https://example.com/@${B}`]);
    expect(await tenantsOf('webhook_deliveries', 'event_type')).toEqual([`asset.upsert@${B}`]);
    expect(await tenantsOf('webhook_attempts', 'worker')).toEqual([`w@${B}`]);
  });

  it('keeps references inside the tenant, and codes unique per tenant only', async () => {
    // A's work order cannot name B's technician: the foreign key is (tenant_id, code).
    await expect(
      sql`UPDATE work_orders SET technician_code = 'TB' WHERE code = 'WA'`.execute(db),
    ).rejects.toMatchObject({ code: '23503' });
    // B may now hold a technician TA of its own.
    await sql`INSERT INTO technicians (code, name, office_id) VALUES ('TA', 'B''s TA', ${ids.B})`.execute(db);
    expect(await tenantsOf('technicians', 'code')).toEqual([`TA@${ids.A}`, `TA@${ids.B}`, `TB@${ids.B}`]);
  });

  it('turns the policies on', async () => {
    const rows = await one(sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_class
      WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r' AND relrowsecurity`);
    expect(rows[0].n).toBeGreaterThan(30);
  });
});
