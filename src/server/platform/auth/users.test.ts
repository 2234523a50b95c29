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

describe('the import and applications', () => {
  it('refuses a clientSecret shorter than 32 characters (too short not to be guessed); nothing is written', async () => {
    const app = (clientSecret: string) => ({
      name: 'Short',
      officeCode: 'NORTH',
      clientId: 'short-secret',
      clientSecret,
    });
    const res = await cli('import', importFile({ applications: [app('x'.repeat(31))] }));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('nothing was written');
    expect(res.stderr).toMatch(/clientSecret: .*32/);
    const none = await t.db
      .selectFrom('applications')
      .select('id')
      .where('client_id', '=', 'short-secret')
      .execute();
    expect(none).toEqual([]);
    expect((await cli('import', importFile({ applications: [app('x'.repeat(32))] }))).code).toBe(0);
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

describe('fieldwork users ...', () => {
  it('create refuses an unknown role, naming it and the known ones; nothing is written', async () => {
    const res = await cli(
      'users',
      'create',
      '--login',
      'cli.bad',
      '--office',
      'NORTH',
      '--roles',
      'planner,boss',
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('unknown role boss (known: viewer, backOffice, planner, admin)');
    expect(
      await t.db.selectFrom('users').select('id').where('login', '=', 'cli.bad').executeTakeFirst(),
    ).toBe(undefined);
  });

  it('set-password (given) ends every sign-in; the new password signs in, the old one not', async () => {
    await t.createUser('cli.pw', 'old password', 'NORTH');
    const tokens = await signIn(t.app, 'cli.pw', 'old password');
    const res = await cli('users', 'set-password', 'cli.pw', '--password', 'new password');
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toContain('password changed');
    expect(res.stdout).not.toContain('new password');
    await expectEnded(tokens);
    const f = await openSignInForm(t.app);
    expect((await postSignIn(t.app, f, 'cli.pw', 'old password')).statusCode).toBe(401);
    await signIn(t.app, 'cli.pw', 'new password');
  });

  it('set-password without --password prints a generated one, once', async () => {
    await t.createUser('cli.gen', 'old password', 'NORTH');
    const res = await cli('users', 'set-password', 'cli.gen', '--json');
    expect(res.code).toBe(0);
    const { password } = JSON.parse(res.stdout) as { password: string };
    expect(password).toHaveLength(20);
    await signIn(t.app, 'cli.gen', password);
    expect((await cli('users', 'set-password', 'nobody')).code).toBe(1);
  });

  it('set-roles applies on the next request and keeps the sign-in; an unknown role changes nothing', async () => {
    await t.createUser('cli.roles', 'pw-roles', 'ROOT', ['admin']);
    const tokens = await signIn(t.app, 'cli.roles', 'pw-roles');
    const refused = await cli('users', 'set-roles', 'cli.roles', '--roles', 'viewer,root');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unknown role root (known: viewer, backOffice, planner, admin)');
    expect((await me(tokens.access_token)).json().roles).toEqual(['admin']);
    expect((await cli('users', 'set-roles', 'cli.roles', '--roles', 'planner')).code).toBe(0);
    const now = await me(tokens.access_token);
    expect(now.statusCode).toBe(200);
    expect(now.json().roles).toEqual(['planner']);
    expect(now.json().scopes).not.toContain('webhooks:write');
    expect((await refreshTokens(t.app, tokens.refresh_token)).statusCode).toBe(200);
  });

  it('disable ends every sign-in and refuses the next; enable lets it sign in again', async () => {
    await t.createUser('cli.dis', 'pw-dis', 'NORTH');
    const tokens = await signIn(t.app, 'cli.dis', 'pw-dis');
    const res = await cli('users', 'disable', 'cli.dis');
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toContain('user cli.dis: disabled');
    await expectEnded(tokens);
    expect((await cli('users', 'list')).stdout).toMatch(/cli\.dis\s+NORTH\s+disabled/);
    const f = await openSignInForm(t.app);
    expect((await postSignIn(t.app, f, 'cli.dis', 'pw-dis')).statusCode).toBe(401);
    expect((await cli('users', 'disable', 'cli.dis')).stdout).toContain('was disabled already');
    expect((await cli('users', 'enable', 'cli.dis')).code).toBe(0);
    await signIn(t.app, 'cli.dis', 'pw-dis');
  });

  it('delete ends every sign-in', async () => {
    await t.createUser('cli.del', 'pw-del', 'NORTH');
    const tokens = await signIn(t.app, 'cli.del', 'pw-del');
    expect((await cli('users', 'delete', 'cli.del')).code).toBe(0);
    await expectEnded(tokens);
    const again = await cli('users', 'delete', 'cli.del');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no user has login cli.del');
  });
});
