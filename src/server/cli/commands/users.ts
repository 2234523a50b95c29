import type { Command } from 'commander';
import { ROLE_NAMES } from '../../../contract/roles.ts';
import type { Outcome } from '../../platform/auth/applications.ts';
import { hashSecret, newClientSecret } from '../../platform/auth/passwords.ts';
import {
  deleteUser,
  setPassword,
  setRoles,
  setUserDisabled,
  UnknownRoleError,
  unknownRoles,
} from '../../platform/auth/users.ts';
import { CliFailure, type CliIo, officeIdOf, parseList, table, withDb } from '../context.ts';

const MIN_PASSWORD = 4;
const newPassword = () => newClientSecret().slice(0, 20);

/** The roles of --roles, refused (nothing written) when one is unknown. */
function rolesOf(list: string | undefined): string[] {
  const roles = list ? [...new Set(parseList(list))] : [];
  const unknown = unknownRoles(roles);
  if (unknown.length > 0) throw new CliFailure(new UnknownRoleError(unknown).message);
  return roles;
}

/** `users ...`: the console's users. */
export function usersCommands(program: Command, io: CliIo) {
  const users = program.command('users').description('Console users (sign in to the console)');
  createUser(users, io);
  listUsers(users, io);
  setUserPassword(users, io);
  setUserRoles(users, io);
  disableUser(users, io);
  enableUser(users, io);
  removeUser(users, io);
}

/** What a change did; each takes effect on the next request, in every process of the service (users.ts). */
function changed(io: CliIo, login: string, outcome: Outcome, done: string, unchanged = '') {
  if (outcome === 'unknown') throw new CliFailure(`no user has login ${login}`);
  io.stdout(`user ${login}: ${outcome === 'done' ? done : unchanged}\n`);
}

/** `users create`: a console user, its password printed once when generated. */
function createUser(users: Command, io: CliIo) {
  users
    .command('create')
    .description('Create a console user; without --password one is generated and printed once')
    .requiredOption('--login <login>', 'login')
    .requiredOption('--office <code>', 'office of the user (they see that office and below)')
    .option('--password <password>', 'password (default: generated)')
    .option('--roles <list>', `comma-separated roles (${ROLE_NAMES.join(', ')}; none: viewer)`)
    .option('--json', 'print a JSON object')
    .action(
      async (opts: { login: string; office: string; password?: string; roles?: string; json?: boolean }) => {
        const login = opts.login.trim();
        if (!login) throw new CliFailure('--login is empty');
        if (opts.password !== undefined && opts.password.length < MIN_PASSWORD)
          throw new CliFailure(`--password: at least ${MIN_PASSWORD} characters`);
        const password = opts.password ?? newPassword();
        const roles = rolesOf(opts.roles);
        await withDb(io, 'users create', async (db) => {
          const office_id = await officeIdOf(db, opts.office);
          const taken = await db
            .selectFrom('users')
            .select('id')
            .where('login', '=', login)
            .executeTakeFirst();
          if (taken) throw new CliFailure(`a user with login ${login} exists already`);
          await db
            .insertInto('users')
            .values({ login, office_id, roles, password_hash: await hashSecret(password) })
            .execute();
        });
        const office = opts.office.toUpperCase();
        const generated = opts.password === undefined;
        if (opts.json) {
          io.stdout(
            `${JSON.stringify({ login, officeCode: office, roles, ...(generated ? { password } : {}) }, null, 2)}\n`,
          );
        } else {
          io.stdout(`user ${login} created in office ${office}\n`);
          if (generated) io.stdout(`password: ${password}  (shown once; store it now)\n`);
        }
      },
    );
}

/** `users list`: the console users, their roles and state. */
function listUsers(users: Command, io: CliIo) {
  users
    .command('list')
    .description('List the console users')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await withDb(io, 'users list', (db) =>
        db
          .selectFrom('users')
          .innerJoin('offices', 'offices.id', 'users.office_id')
          .select(['users.login', 'offices.code as officeCode', 'users.roles', 'users.disabled_at'])
          .orderBy('users.login')
          .execute(),
      );
      const shown = rows.map(({ disabled_at, ...r }) => ({
        ...r,
        state: disabled_at ? 'disabled' : 'active',
      }));
      io.stdout(
        opts.json
          ? `${JSON.stringify(shown, null, 2)}\n`
          : `${table(shown, ['login', 'officeCode', 'roles', 'state'])}\n`,
      );
    });
}

/** `users set-password`: a new password; every sign-in of the user ends. */
function setUserPassword(users: Command, io: CliIo) {
  users
    .command('set-password')
    .description(
      'Give a user a new password (without --password one is generated and printed once); every sign-in of the user ends',
    )
    .argument('<login>', 'login of the user')
    .option('--password <password>', 'the new password (default: generated)')
    .option('--json', 'print a JSON object')
    .action(async (login: string, opts: { password?: string; json?: boolean }) => {
      if (opts.password !== undefined && opts.password.length < MIN_PASSWORD)
        throw new CliFailure(`--password: at least ${MIN_PASSWORD} characters`);
      const password = opts.password ?? newPassword();
      const generated = opts.password === undefined;
      const outcome = await withDb(io, 'users set-password', (db) => setPassword(db, login, password));
      if (outcome === 'unknown') throw new CliFailure(`no user has login ${login}`);
      if (opts.json) {
        io.stdout(`${JSON.stringify({ login, ...(generated ? { password } : {}) }, null, 2)}\n`);
        return;
      }
      io.stdout(`user ${login}: password changed; every sign-in of the user has ended\n`);
      if (generated) io.stdout(`password: ${password}  (shown once; store it now)\n`);
    });
}

/** `users set-roles`: the roles replaced, in force on its next request. */
function setUserRoles(users: Command, io: CliIo) {
  users
    .command('set-roles')
    .description('Replace the roles of a user; applies on its next request (no new sign-in needed)')
    .argument('<login>', 'login of the user')
    .requiredOption('--roles <list>', `comma-separated roles (${ROLE_NAMES.join(', ')}); empty: viewer`)
    .action(async (login: string, opts: { roles: string }) => {
      const roles = rolesOf(opts.roles);
      const outcome = await withDb(io, 'users set-roles', (db) => setRoles(db, login, roles));
      changed(io, login, outcome, `roles ${roles.length ? roles.join(',') : '(none: viewer)'}`);
    });
}

/** `users disable`: its sign-ins end and it cannot sign in. */
function disableUser(users: Command, io: CliIo) {
  users
    .command('disable')
    .description('Disable a user: every sign-in of the user ends and it cannot sign in')
    .argument('<login>', 'login of the user')
    .action(async (login: string) => {
      const outcome = await withDb(io, 'users disable', (db) => setUserDisabled(db, login, true));
      changed(io, login, outcome, 'disabled; its sign-ins have ended', 'was disabled already');
    });
}

/** `users enable`: it can sign in again. */
function enableUser(users: Command, io: CliIo) {
  users
    .command('enable')
    .description('Enable a disabled user: it can sign in again')
    .argument('<login>', 'login of the user')
    .action(async (login: string) => {
      const outcome = await withDb(io, 'users enable', (db) => setUserDisabled(db, login, false));
      changed(io, login, outcome, 'enabled', 'was enabled already');
    });
}

/** `users delete`: its sign-ins end. */
function removeUser(users: Command, io: CliIo) {
  users
    .command('delete')
    .description('Delete a user: every sign-in of the user ends')
    .argument('<login>', 'login of the user')
    .action(async (login: string) => {
      const outcome = await withDb(io, 'users delete', (db) => deleteUser(db, login));
      changed(io, login, outcome, 'deleted; its sign-ins have ended');
    });
}
