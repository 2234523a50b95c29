import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMe } from '../../../contract/console.ts';
import { buildApp } from '../../app.ts';
import { runCapturedCli } from '../../testing/cli.ts';
import { refreshTokens, signIn } from '../../testing/consoleSignIn.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';

/**
 * Two service processes on one PostgreSQL database (the second built on the first's
 * configuration) and the command line with its own connections: a user's sign-in made
 * through one process ends in both on the next request after `users set-password`,
 * `disable` or `delete`; `set-roles` applies in both at once.
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
const me = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'GET', url: getMe.path, headers: { authorization: `Bearer ${token}` } });

async function expectEndedIn(app: FastifyInstance, tokens: { access_token: string; refresh_token: string }) {
  const res = await me(app, tokens.access_token);
  expect(res.statusCode).toBe(401);
  expect(res.json().errors[0].code).toBe('unauthorized.badcredentials');
  const refreshed = await refreshTokens(app, tokens.refresh_token);
  expect(refreshed.statusCode).toBe(400);
  expect(refreshed.json().error).toBe('invalid_grant');
}

describe('users commands across service processes sharing the database', () => {
  for (const [command, ...args] of [['set-password', '--password', 'another one'], ['disable'], ['delete']]) {
    it(`${command}: the sign-in ends in both processes on the next request`, async () => {
      const login = `two.${command}`;
      await t.createUser(login, 'pw-two', 'NORTH', ['planner']);
      const tokens = await signIn(t.app, login, 'pw-two');
      // Both have the caller cached.
      expect((await me(other, tokens.access_token)).statusCode).toBe(200);
      expect((await me(t.app, tokens.access_token)).statusCode).toBe(200);
      expect(await cli('users', command, login, ...args)).toBe(0);
      expect((await me(other, tokens.access_token)).statusCode).toBe(401);
      await expectEndedIn(t.app, tokens);
    });
  }

  it('set-roles: both processes apply the new roles on the next request', async () => {
    await t.createUser('two.roles', 'pw-two', 'NORTH', ['admin']);
    const { access_token } = await signIn(t.app, 'two.roles', 'pw-two');
    expect((await me(other, access_token)).json().roles).toEqual(['admin']);
    expect(await cli('users', 'set-roles', 'two.roles', '--roles', 'viewer')).toBe(0);
    for (const app of [other, t.app]) {
      const res = await me(app, access_token);
      expect(res.json().roles).toEqual(['viewer']);
      expect(res.json().scopes.every((s: string) => s.endsWith(':read'))).toBe(true);
    }
  });
});
