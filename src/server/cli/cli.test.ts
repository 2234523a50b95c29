import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { AppConfig } from '../config.ts';
import { openDatabase } from '../db/index.ts';
import { DEFAULT_RATE_LIMITS } from '../platform/rateLimit.ts';
import { runCapturedCli } from '../testing/cli.ts';
import { importerRegistry } from './importFile.ts';

/**
 * The command line against a real database: a PGlite directory (the CLI reopens it on
 * every command, as in production) or a private schema of TEST_DATABASE_URL.
 */
const databaseUrl = process.env.TEST_DATABASE_URL || undefined;
let dir: string;
let config: Partial<AppConfig>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldwork-cli-'));
  config = databaseUrl
    ? { databaseUrl, databaseSchema: `cli_${randomBytes(6).toString('hex')}` }
    : { dataDir: join(dir, 'data'), databaseUrl: undefined };
  // Make the database (migrations) here, under the hook's longer time limit: a command that
  // outlived a timed-out test would still hold the data directory for the next ones.
  expect(await count('offices')).toBe(0);
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${config.databaseSchema}" CASCADE`);
    await client.end();
  }
});

const cli = (...argv: string[]) => runCapturedCli(argv, { config });

let fileNo = 0;
function file(content: unknown) {
  const path = join(dir, `import-${++fileNo}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

async function count(table: 'offices' | 'applications' | 'users' | 'custom_field_definitions') {
  const dbh = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    schema: config.databaseSchema,
  });
  try {
    const row = await dbh.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await dbh.close();
  }
}

const OFFICES = [
  // A child before its parent: the importer orders the tree itself.
  { code: 'hq-north', name: 'North', parentCode: 'HQ' },
  { code: 'HQ', name: 'Head office' },
];

describe('fieldwork import', () => {
  it('reports every validation error by JSON path and writes nothing', async () => {
    const res = await cli(
      'import',
      file({
        offices: [{ code: 'A', name: 'A' }, { name: 'no code' }],
        applications: [
          { name: 'x', officeCode: 'A', clientId: 'abc', scopes: ['referentials:read', 'nope:read'] },
        ],
        customFieldDefinitions: [{ entity: 'customer', code: 'C', type: 'dropDownValue', mandatory: false }],
        users: [{ login: 'u', officeCode: 'A', extra: 1 }],
        surprise: [],
      }),
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('offices[1].code: required');
    expect(res.stderr).toContain('applications[0].scopes[1]: unknown scope');
    expect(res.stderr).toContain('customFieldDefinitions[0].values: required for dropDownValue');
    expect(res.stderr).toContain('users[0]: unknown field extra');
    expect(res.stderr).toContain('surprise: unknown key');
    expect(await count('offices')).toBe(0);
  });

  it('refuses malformed JSON and a duplicated key', async () => {
    expect((await cli('import', file('{"offices": ['))).stderr).toContain('invalid JSON');
    const dup = await cli('import', file('{"offices": [{"code": "A", "code": "B", "name": "x"}]}'));
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('Duplicated key "code"');
  });

  it('refuses a record given twice in one key, whatever the case of its code, before writing', async () => {
    const res = await cli(
      'import',
      file({
        offices: [{ code: 'HQ', name: 'Head office' }],
        customers: [
          { customerCode: 'ACME', name: 'Acme', addressDetails: { city: 'Lille' } },
          { customerCode: 'acme', name: 'Acme bis', addressDetails: { city: 'Lille' } },
        ],
      }),
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('customers[1]: ACME is already given at customers[0]');
    expect(await count('offices')).toBe(0);
  });

  it('every key of the registry says which record an element writes', () => {
    for (const i of importerRegistry()) expect(typeof i.keyOf, i.key).toBe('function');
  });

  it('refuses a file whose last customer is invalid, offices included', async () => {
    const customers = Array.from({ length: 3 }, (_, i) => ({
      customerCode: `C${i}`,
      name: `Customer ${i}`,
      officeCode: 'HQ',
      addressDetails: { city: 'Lyon' },
    }));
    customers.push({
      customerCode: 'C3',
      name: 'Bad',
      officeCode: 'HQ',
      addressDetails: {} as { city: string },
    });
    const res = await cli('import', file({ offices: OFFICES, customers }));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('customers[3].addressDetails.city: required');
    expect(await count('offices')).toBe(0);
  });

  it('is all-or-nothing: a failure while applying a later key rolls back the earlier ones', async () => {
    const res = await cli(
      'import',
      file({
        offices: OFFICES,
        users: [{ login: 'late', officeCode: 'NOWHERE', password: 'secret1' }],
      }),
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('nothing was written');
    expect(res.stderr).toContain('users: office NOWHERE does not exist');
    expect(await count('offices')).toBe(0);
    expect(await count('users')).toBe(0);
  });

  it('dry run applies nothing', async () => {
    const res = await cli('import', '--dry-run', file({ offices: OFFICES }));
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('dry run: 2 would be created');
    expect(await count('offices')).toBe(0);
  });

  it('imports, then a second run creates nothing (idempotent)', async () => {
    const content = {
      offices: OFFICES,
      customFieldDefinitions: [
        { entity: 'site', code: 'zone', type: 'dropDownValue', mandatory: false, values: ['A', 'B'] },
        { entity: 'asset', code: 'serial', label: 'Serial', type: 'textValue', mandatory: false },
      ],
      applications: [
        {
          name: 'ERP',
          officeCode: 'hq',
          clientId: 'erp',
          clientSecret: 'erp-secret-1-of-at-least-32-characters',
        },
      ],
      users: [{ login: 'alice', officeCode: 'HQ-NORTH', password: 'alice-pw', roles: ['planner'] }],
    };
    const first = await cli('import', file(content));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('imported: 6 created, 0 updated');
    const second = await cli('import', file(content));
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('imported: 0 created, 0 updated');
    content.offices = [{ ...OFFICES[1], name: 'Headquarters' }];
    const third = await cli('import', file(content));
    expect(third.stdout).toContain('imported: 0 created, 1 updated');
    expect(await count('offices')).toBe(2);
    const offices = await cli('offices');
    expect(offices.stdout).toMatch(/HQ\s+Headquarters/);
    expect(offices.stdout).toMatch(/ {2}HQ-NORTH\s+North\s+HQ/);
  });
});

describe('fieldwork apps and users', () => {
  it('apps create prints a secret once, and it obtains a token', async () => {
    const res = await cli(
      'apps',
      'create',
      '--office',
      'hq',
      '--name',
      'Billing',
      '--scopes',
      'referentials:read',
      '--json',
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const created = JSON.parse(res.stdout) as { clientId: string; clientSecret: string; scopes: string[] };
    expect(created.clientId).toMatch(/^billing-/);
    expect(created.scopes).toEqual(['referentials:read']);

    const list = await cli('apps', 'list');
    expect(list.stdout).toContain(created.clientId);
    expect(list.stdout).not.toContain(created.clientSecret);

    const app = await buildApp(
      {
        host: '127.0.0.1',
        port: 0,
        publicUrl: 'http://localhost',
        dataDir: 'memory://',
        rateLimits: structuredClone(DEFAULT_RATE_LIMITS),
        accessTokenTtl: 3600,
        logLevel: 'silent',
        ...config,
      },
      { logger: false },
    );
    try {
      const token = await app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${created.clientId}:${created.clientSecret}`).toString('base64')}`,
        },
        payload: 'grant_type=client_credentials',
      });
      expect(token.statusCode).toBe(200);
      expect(token.json().access_token).toBeTruthy();
    } finally {
      await app.close();
    }
  });

  it('apps create refuses an unknown office or scope', async () => {
    const office = await cli('apps', 'create', '--office', 'mars', '--name', 'X');
    expect(office.code).toBe(1);
    expect(office.stderr).toContain('office MARS does not exist');
    const scope = await cli('apps', 'create', '--office', 'hq', '--name', 'X', '--scopes', 'everything');
    expect(scope.code).toBe(1);
    expect(scope.stderr).toContain('unknown scope everything');
  });

  it('users create generates a password when none is given', async () => {
    const res = await cli('users', 'create', '--login', 'bob', '--office', 'hq', '--json');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).password).toMatch(/^\S{12,}$/);
    expect((await cli('users', 'list')).stdout).toContain('bob');
    expect((await cli('users', 'create', '--login', 'bob', '--office', 'hq')).code).toBe(1);
  });
});

describe('fieldwork seed', () => {
  it('loads the demo dataset once (--if-empty skips a database with data)', async () => {
    const skipped = await cli('seed', '--if-empty');
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toContain('demo dataset not loaded');
    const res = await cli('seed', '--json');
    expect(res.stderr).toBe('');
    const out = JSON.parse(res.stdout);
    expect(out.clientId).toBe('demo-integration');
    expect(out.clientSecret).toBeTruthy();
    const again = await cli('seed');
    expect(again.stdout).toContain('imported: 0 created, 0 updated');
    expect(again.stdout).toContain('unchanged');
  });
});
