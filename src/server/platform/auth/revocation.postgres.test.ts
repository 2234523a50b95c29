import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCustomers } from '../../../contract/referentials.ts';
import { buildApp } from '../../app.ts';
import { pathOf } from '../../testing/api.ts';
import { runCapturedCli } from '../../testing/cli.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';

/**
 * Two service processes on one PostgreSQL database (the second built on the first's
 * configuration) and the command line with its own connections: a revocation made
 * through one is seen by every other on the next request.
 */
let t: TestApp;
let other: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  other = await buildApp(t.config, { logger: false });
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const cli = async (...argv: string[]) => (await runCapturedCli(argv, { config: t.config })).code;

const status = async (app: FastifyInstance, token: string) =>
  (
    await app.inject({
      method: listCustomers.method,
      url: pathOf(listCustomers),
      headers: { authorization: `Bearer ${token}` },
    })
  ).statusCode;

describe('revocation across service processes sharing the database', () => {
  it('a token issued by one process is refused by both after disable and rotate-secret', async () => {
    const token = await t.token('north');
    expect(await status(other, token)).toBe(200);
    expect(await cli('apps', 'disable', 'north')).toBe(0);
    expect(await status(other, token)).toBe(401);
    expect(await status(t.app, token)).toBe(401);
    expect(await cli('apps', 'enable', 'north')).toBe(0);
    expect(await status(other, token)).toBe(200);
    expect(await cli('apps', 'rotate-secret', 'north')).toBe(0);
    expect(await status(other, token)).toBe(401);
    expect(await status(t.app, token)).toBe(401);
  });

  it('an access token revoked at one process (RFC 7009) is refused by both on the next request', async () => {
    const issued = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`south:${t.secrets.south}`).toString('base64')}`,
      },
      payload: 'grant_type=client_credentials',
    });
    const token = issued.json().access_token as string;
    expect(await status(other, token)).toBe(200);
    expect(await status(t.app, token)).toBe(200);
    const revoked = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`south:${t.secrets.south}`).toString('base64')}`,
      },
      payload: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    expect(await status(other, token)).toBe(401);
    expect(await status(t.app, token)).toBe(401);
  });
});
