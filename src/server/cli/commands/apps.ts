import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { ALL_SCOPES } from '../../../contract/domains.ts';
import {
  deleteApplication,
  type Outcome,
  rotateSecret,
  setDisabled,
} from '../../platform/auth/applications.ts';
import { hashSecret, newClientSecret } from '../../platform/auth/passwords.ts';
import { CliFailure, type CliIo, officeIdOf, parseList, table, withDb } from '../context.ts';

/** `apps ...`: the OAuth 2.0 applications (client_credentials) and their revocation. */
export function appsCommands(program: Command, io: CliIo) {
  const apps = program.command('apps').description('OAuth 2.0 applications (client_credentials)');
  createApp(apps, io);
  listApps(apps, io);
  disableApp(apps, io);
  enableApp(apps, io);
  rotateAppSecret(apps, io);
  deleteApp(apps, io);
}

/** `apps create`: a new application, its secret printed once. */
function createApp(apps: Command, io: CliIo) {
  apps
    .command('create')
    .description('Create an application; prints its client id and secret once')
    .requiredOption('--office <code>', 'office the application belongs to (it sees that office and below)')
    .requiredOption('--name <name>', 'application name (the actor named in events)')
    .option('--scopes <list>', `comma-separated scopes (default: all). Known: ${ALL_SCOPES.join(',')}`)
    .option('--client-id <id>', 'client id to use (default: generated from the name)')
    .option('--json', 'print a JSON object')
    .action(
      async (opts: { office: string; name: string; scopes?: string; clientId?: string; json?: boolean }) => {
        const scopes = opts.scopes ? parseList(opts.scopes) : [...ALL_SCOPES];
        const unknown = scopes.filter((s) => !ALL_SCOPES.includes(s));
        if (unknown.length > 0)
          throw new CliFailure(`unknown scope ${unknown.join(', ')} (known: ${ALL_SCOPES.join(', ')})`);
        if (scopes.length === 0) throw new CliFailure('--scopes lists no scope');
        const clientId = opts.clientId ?? `${slug(opts.name)}-${randomBytes(4).toString('hex')}`;
        if (!/^[A-Za-z0-9._-]{3,128}$/.test(clientId))
          throw new CliFailure('--client-id: 3 to 128 letters, digits, dot, underscore or dash');
        const secret = newClientSecret();
        await withDb(io, 'apps create', async (db) => {
          const office_id = await officeIdOf(db, opts.office);
          const taken = await db
            .selectFrom('applications')
            .select('id')
            .where('client_id', '=', clientId)
            .executeTakeFirst();
          if (taken) throw new CliFailure(`an application with client id ${clientId} exists already`);
          await db
            .insertInto('applications')
            .values({
              client_id: clientId,
              name: opts.name,
              office_id,
              scopes,
              secret_hash: await hashSecret(secret),
            })
            .execute();
        });
        const office = opts.office.toUpperCase();
        if (opts.json) {
          io.stdout(
            `${JSON.stringify({ clientId, clientSecret: secret, name: opts.name, officeCode: office, scopes }, null, 2)}\n`,
          );
        } else {
          io.stdout(
            `client id:     ${clientId}\nclient secret: ${secret}\noffice:        ${office}\nscopes:        ${scopes.join(' ')}\n` +
              'The secret is shown once and stored hashed; keep it now.\n',
          );
        }
      },
    );
}

/** `apps list`: the applications, never their secrets. */
function listApps(apps: Command, io: CliIo) {
  apps
    .command('list')
    .description('List the applications (never their secrets)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await withDb(io, 'apps list', (db) =>
        db
          .selectFrom('applications')
          .innerJoin('offices', 'offices.id', 'applications.office_id')
          .select([
            'applications.client_id as clientId',
            'applications.name',
            'offices.code as officeCode',
            'applications.scopes',
            'applications.created_at as createdAt',
            'applications.disabled_at as disabledAt',
          ])
          .orderBy('applications.client_id')
          .execute(),
      );
      if (opts.json) {
        io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const shown = rows.map((r) => ({
        ...r,
        scopes: r.scopes.length === ALL_SCOPES.length ? 'all' : r.scopes.join(','),
        createdAt: new Date(r.createdAt as unknown as string).toISOString().slice(0, 19).replace('T', ' '),
        state: r.disabledAt ? 'disabled' : 'active',
      }));
      io.stdout(`${table(shown, ['clientId', 'name', 'officeCode', 'scopes', 'createdAt', 'state'])}\n`);
    });
}

/** What a revocation did; each takes effect on the next request, in every process of the service. */
function changed(io: CliIo, clientId: string, outcome: Outcome, done: string, unchanged: string) {
  if (outcome === 'unknown') throw new CliFailure(`no application has client id ${clientId}`);
  io.stdout(`application ${clientId}: ${outcome === 'done' ? done : unchanged}\n`);
}

/** `apps disable`: its tokens refused at once, no new one. */
function disableApp(apps: Command, io: CliIo) {
  apps
    .command('disable')
    .description('Disable an application: its tokens are refused at once and it gets no new one')
    .argument('<clientId>', 'client id of the application')
    .action(async (clientId: string) => {
      const outcome = await withDb(io, 'apps disable', (db) => setDisabled(db, clientId, true));
      changed(io, clientId, outcome, 'disabled; its tokens are refused from now on', 'was disabled already');
    });
}

/** `apps enable`: its unexpired tokens work again. */
function enableApp(apps: Command, io: CliIo) {
  apps
    .command('enable')
    .description('Enable a disabled application again: its unexpired tokens work again')
    .argument('<clientId>', 'client id of the application')
    .action(async (clientId: string) => {
      const outcome = await withDb(io, 'apps enable', (db) => setDisabled(db, clientId, false));
      changed(io, clientId, outcome, 'enabled', 'was enabled already');
    });
}

/** `apps rotate-secret`: a new secret printed once; the old one and its tokens stop working. */
function rotateAppSecret(apps: Command, io: CliIo) {
  apps
    .command('rotate-secret')
    .description(
      'Give an application a new secret, printed once; the old secret and its tokens stop working at once',
    )
    .argument('<clientId>', 'client id of the application')
    .option('--json', 'print a JSON object')
    .action(async (clientId: string, opts: { json?: boolean }) => {
      const secret = await withDb(io, 'apps rotate-secret', (db) => rotateSecret(db, clientId));
      if (!secret) throw new CliFailure(`no application has client id ${clientId}`);
      io.stdout(
        opts.json
          ? `${JSON.stringify({ clientId, clientSecret: secret }, null, 2)}\n`
          : `client id:     ${clientId}\nclient secret: ${secret}\n` +
              'The secret is shown once and stored hashed; keep it now. The old secret and the tokens issued with it no longer work.\n',
      );
    });
}

/** `apps delete`: its tokens refused at once. */
function deleteApp(apps: Command, io: CliIo) {
  apps
    .command('delete')
    .description('Delete an application: its tokens are refused at once')
    .argument('<clientId>', 'client id of the application')
    .action(async (clientId: string) => {
      const outcome = await withDb(io, 'apps delete', (db) => deleteApplication(db, clientId));
      changed(io, clientId, outcome, 'deleted; its tokens are refused from now on', '');
    });
}

/** A client id's readable part, from the application's name. */
function slug(name: string) {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'app'
  );
}
