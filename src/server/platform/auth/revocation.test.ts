import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCustomers } from '../../../contract/referentials.ts';
import { pathOf } from '../../testing/api.ts';
import { runCapturedCli } from '../../testing/cli.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';

/**
 * `fieldwork apps disable|enable|rotate-secret|delete` against the database of a running
 * service: the same token is refused from the next request on. On PostgreSQL the command
 * opens its own connections, as another process would; the in-memory PGlite of the test
 * service is handed to it (no second opener can reach it).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const cli = (...argv: string[]) =>
  runCapturedCli(argv, { config: t.config, database: t.config.databaseUrl ? undefined : t.db });

/** A request with this very token (a revoked one, or one the harness did not issue). */
function get(token: string) {
  return t.app.inject({
    method: listCustomers.method,
    url: pathOf(listCustomers),
    headers: { authorization: `Bearer ${token}` },
  });
}

async function newToken(clientId: string, secret: string) {
  return t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
    },
    payload: 'grant_type=client_credentials',
  });
}

async function expectRefused(token: string) {
  const res = await get(token);
  expect(res.statusCode).toBe(401);
  expect(res.json().errors[0].code).toBe('unauthorized.badcredentials');
  expect(res.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
}

describe('revoking an application with the command line', () => {
  it('disable refuses its tokens at once and issues no new one; enable restores them', async () => {
    const token = await t.token('north');
    expect((await get(token)).statusCode).toBe(200);

    const disabled = await cli('apps', 'disable', 'north');
    expect(disabled).toMatchObject({ code: 0, stderr: '' });
    expect(disabled.stdout).toContain('application north: disabled');
    await expectRefused(token);
    const refused = await newToken('north', t.secrets.north);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe('invalid_client');
    expect((await cli('apps', 'list')).stdout).toMatch(
      /north\s+Test north\s+NORTH\s+all\s+\S+ \S+\s+disabled/,
    );

    expect((await cli('apps', 'enable', 'north')).code).toBe(0);
    expect((await get(token)).statusCode).toBe(200);
    expect((await newToken('north', t.secrets.north)).statusCode).toBe(200);
  });

  it('rotate-secret prints the new secret once; the old secret and its tokens stop working', async () => {
    const token = await t.token('south');
    expect((await get(token)).statusCode).toBe(200);

    const rotated = await cli('apps', 'rotate-secret', 'south', '--json');
    expect(rotated.code).toBe(0);
    const { clientSecret } = JSON.parse(rotated.stdout) as { clientSecret: string };
    expect(clientSecret).toMatch(/^[\w-]{43}$/);
    expect((await cli('apps', 'list', '--json')).stdout).not.toContain(clientSecret);

    await expectRefused(token);
    expect((await newToken('south', t.secrets.south)).json().error).toBe('invalid_client');
    const fresh = await newToken('south', clientSecret);
    expect(fresh.statusCode).toBe(200);
    expect((await get(fresh.json().access_token)).statusCode).toBe(200);
  });

  it('delete refuses its tokens at once, also after an application of the same client id is created again', async () => {
    const token = await t.token('northA');
    expect((await get(token)).statusCode).toBe(200);

    const deleted = await cli('apps', 'delete', 'northA');
    expect(deleted.code).toBe(0);
    await expectRefused(token);
    expect((await cli('apps', 'list')).stdout).not.toContain('northA');

    const again = await cli(
      'apps',
      'create',
      '--office',
      'NORTH-A',
      '--name',
      'Again',
      '--client-id',
      'northA',
    );
    expect(again.code).toBe(0);
    await expectRefused(token);
  });

  it('a row deleted outside the command line (SQL) refuses its tokens once the service is notified', async () => {
    const token = await t.token('readonly');
    expect((await get(token)).statusCode).toBe(200);
    await t.db.deleteFrom('applications').where('client_id', '=', 'readonly').execute();
    // PGlite notifies before the DELETE returns; PostgreSQL's NOTIFY reaches the service's
    // listening connection a moment after the commit (the command line waits for every
    // process to have seen it, plain SQL cannot).
    await expect.poll(async () => (await get(token)).statusCode, { timeout: 5000, interval: 20 }).toBe(401);
    await expectRefused(token);
    const again = await newToken('readonly', t.secrets.readonly);
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe('invalid_client');
  });

  it('names an unknown client id', async () => {
    for (const command of ['disable', 'enable', 'rotate-secret', 'delete']) {
      const res = await cli('apps', command, 'nobody');
      expect(res.code).toBe(1);
      expect(res.stderr).toBe('fieldwork: no application has client id nobody\n');
    }
  });

  it('documents each command in --help', async () => {
    const help = await cli('apps', '--help');
    for (const command of ['disable', 'enable', 'rotate-secret', 'delete'])
      expect(help.stdout).toContain(command);
  });
});
