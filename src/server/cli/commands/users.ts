import type { Command } from 'commander';
import { hashSecret, newClientSecret } from '../../platform/auth/passwords.ts';
import { CliFailure, type CliIo, officeIdOf, parseList, table, withDb } from '../context.ts';

/** `users ...`: the console's users. */
export function usersCommands(program: Command, io: CliIo) {
  const users = program.command('users').description('Console users (sign in to the console)');
  users
    .command('create')
    .description('Create a console user; without --password one is generated and printed once')
    .requiredOption('--login <login>', 'login')
    .requiredOption('--office <code>', 'office of the user (they see that office and below)')
    .option('--password <password>', 'password (default: generated)')
    .option('--roles <list>', 'comma-separated roles')
    .option('--json', 'print a JSON object')
    .action(
      async (opts: { login: string; office: string; password?: string; roles?: string; json?: boolean }) => {
        const login = opts.login.trim();
        if (!login) throw new CliFailure('--login is empty');
        if (opts.password !== undefined && opts.password.length < 4)
          throw new CliFailure('--password: at least 4 characters');
        const password = opts.password ?? newClientSecret().slice(0, 20);
        const roles = opts.roles ? parseList(opts.roles) : [];
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
  users
    .command('list')
    .description('List the console users')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await withDb(io, 'users list', (db) =>
        db
          .selectFrom('users')
          .innerJoin('offices', 'offices.id', 'users.office_id')
          .select(['users.login', 'offices.code as officeCode', 'users.roles'])
          .orderBy('users.login')
          .execute(),
      );
      io.stdout(
        opts.json
          ? `${JSON.stringify(rows, null, 2)}\n`
          : `${table(rows, ['login', 'officeCode', 'roles'])}\n`,
      );
    });
}
