/**
 * Console users' sessions end when their password changes, when they are disabled or
 * deleted (issue 24, 3): their access tokens are refused and their refresh tokens answer
 * `invalid_grant` on the next request; a role change applies on the next request; an
 * unknown role is refused with nothing written. Through the import and the command line,
 * against the database of a running service (on PostgreSQL the command opens its own
 * connections, as another process would).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMe } from '../../../contract/console.ts';
import { runCapturedCli } from '../../testing/cli.ts';
import { openSignInForm, postSignIn, refreshTokens, signIn } from '../../testing/consoleSignIn.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { awaitCallerListeners } from './callerCache.ts';
import { endSessions, setUserDisabled } from './users.ts';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(join(tmpdir(), 'fieldwork-users-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

const cli = (...argv: string[]) =>
  runCapturedCli(argv, { config: t.config, database: t.config.databaseUrl ? undefined : t.db });

let fileNo = 0;
function importFile(content: unknown) {
  const path = join(dir, `users-${++fileNo}.json`);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

const me = (token: string) =>
  t.app.inject({ method: 'GET', url: getMe.path, headers: { authorization: `Bearer ${token}` } });

async function expectEnded(tokens: { access_token: string; refresh_token: string }) {
  const api = await me(tokens.access_token);
  expect(api.statusCode).toBe(401);
  expect(api.json().errors[0].code).toBe('unauthorized.badcredentials');
  expect(api.headers['www-authenticate']).toMatch(/error="invalid_token"/);
  const refreshed = await refreshTokens(t.app, tokens.refresh_token);
  expect(refreshed.statusCode).toBe(400);
  expect(refreshed.json().error).toBe('invalid_grant');
}

const userRow = (login: string, extra: Record<string, unknown> = {}) => ({
  login,
  password: 'first password',
  officeCode: 'NORTH',
  ...extra,
});

describe('the import and users', () => {
  it('refuses an unknown role, naming it and the known ones; nothing is written', async () => {
    const res = await cli(
      'import',
      importFile({ users: [userRow('imp.ok'), userRow('imp.bad', { roles: ['planner', 'superuser'] })] }),
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('nothing was written');
    expect(res.stderr).toContain('unknown role superuser (known: viewer, backOffice, planner, admin)');
    const rows = await t.db.selectFrom('users').select('login').where('login', 'like', 'imp.%').execute();
    expect(rows).toEqual([]);
  });

  it('a password changed by an import ends the sign-ins; a role change applies at once', async () => {
    expect(
      (await cli('import', importFile({ users: [userRow('imp.user', { roles: ['admin'] })] }))).code,
    ).toBe(0);
    const tokens = await signIn(t.app, 'imp.user', 'first password');
    expect((await me(tokens.access_token)).json().roles).toEqual(['admin']);
    // Roles only: the sign-in goes on, with the new rights.
    const roles = await cli('import', importFile({ users: [userRow('imp.user', { roles: ['viewer'] })] }));
    expect(roles.code).toBe(0);
    const now = await me(tokens.access_token);
    expect(now.statusCode).toBe(200);
    expect(now.json().roles).toEqual(['viewer']);
    expect(now.json().scopes.every((s: string) => s.endsWith(':read'))).toBe(true);
    // A new password: every sign-in ends.
    const pw = await cli(
      'import',
      importFile({ users: [userRow('imp.user', { password: 'second password' })] }),
    );
    expect(pw.code).toBe(0);
    await expectEnded(tokens);
    await signIn(t.app, 'imp.user', 'second password');
  });
});

describe('ending sessions', () => {
  it('a disabled user cannot sign in, its sign-ins end; enabled, it signs in again', async () => {
    await t.createUser('dis.user', 'pw-dis', 'NORTH', ['planner']);
    const tokens = await signIn(t.app, 'dis.user', 'pw-dis');
    expect((await me(tokens.access_token)).statusCode).toBe(200);
    expect(await setUserDisabled(t.db, 'dis.user', true)).toBe('done');
    // As the command does: every process has dropped its cached callers (PostgreSQL).
    expect(await awaitCallerListeners(t.db)).toBe(true);
    await expectEnded(tokens);
    const f = await openSignInForm(t.app);
    const refused = await postSignIn(t.app, f, 'dis.user', 'pw-dis');
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('Login or password is incorrect.');
    expect(await setUserDisabled(t.db, 'dis.user', false)).toBe('done');
    await signIn(t.app, 'dis.user', 'pw-dis');
  });

  it("endSessions leaves other users' sign-ins alone", async () => {
    const a = await t.createUser('end.a', 'pw-a', 'NORTH');
    await t.createUser('end.b', 'pw-b', 'NORTH');
    const ta = await signIn(t.app, 'end.a', 'pw-a');
    const tb = await signIn(t.app, 'end.b', 'pw-b');
    await endSessions(t.db, a);
    expect(await awaitCallerListeners(t.db)).toBe(true);
    await expectEnded(ta);
    expect((await me(tb.access_token)).statusCode).toBe(200);
    expect((await refreshTokens(t.app, tb.refresh_token)).statusCode).toBe(200);
  });
});
