import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { CODE_PATTERN, foldCode } from '../../contract/common.ts';
import { ALL_SCOPES } from '../../contract/endpoint.ts';
import { type AppConfig, configFromEnv } from '../config.ts';
import { type Db, openDatabase } from '../db/index.ts';
import {
  deleteWorkOrder,
  findWorkOrder,
  type LifecycleOutcome,
  validateWorkOrder,
  type WorkOrderRef,
} from '../domains/fieldService/service.ts';
import { actorOf } from '../events/index.ts';
import { deleteApplication, type Outcome, rotateSecret, setDisabled } from '../platform/auth/applications.ts';
import { awaitCallerListeners } from '../platform/auth/callerCache.ts';
import { hashSecret, newClientSecret } from '../platform/auth/passwords.ts';
import { ApiError } from '../platform/errors.ts';
import type { OfficeScope } from '../platform/officeScope.ts';
import {
  ImportApplyError,
  ImportValidationError,
  importerRegistry,
  type KeyResult,
  parseImportText,
  runImport,
  validateImport,
} from './importFile.ts';
import type { GeneratedCredential } from './platformImporters.ts';
import { LARGE_PLAN, progressPrinter, scaledPlan, seedLarge } from './seedLarge.ts';
import { DataDirHeldError, holdDataDir } from './serviceLock.ts';

/** Where the command writes and what it reads: the process's, or a test's. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** stderr is a terminal: progress is drawn as a bar (else plain lines). */
  stderrIsTTY?: boolean;
  env: NodeJS.ProcessEnv;
  /** Overrides the configuration read from `env` (tests). */
  config?: Partial<AppConfig>;
  /**
   * An open database to work on instead of opening one (tests: the in-memory PGlite of a
   * running test service, which no second opener can reach).
   */
  database?: Db;
}

export const DEMO_FILE = fileURLToPath(new URL('./demo.json', import.meta.url));
export const DEMO_CLIENT_ID = 'demo-integration';

/** A failure to report to the operator in one message, with exit code 1. */
class CliFailure extends Error {}

/**
 * Opens the service's database for one command. A PGlite directory is taken for the
 * command's duration (the service's lock, serviceLock.ts): a second opener is refused.
 */
async function withDb<T>(
  io: CliIo,
  command: string,
  fn: (db: Db, config: AppConfig) => Promise<T>,
): Promise<T> {
  const config = { ...configFromEnv(io.env), ...io.config };
  // A change of applications, users or offices is in force in every running service
  // process when the command returns (platform/auth/callerCache.ts).
  const done = async (db: Db, result: T) => {
    if (!(await awaitCallerListeners(db)))
      io.stderr(
        'fieldwork: warning: a service process has not confirmed the change yet; it applies it when its notification arrives\n',
      );
    return result;
  };
  if (io.database) return done(io.database, await fn(io.database, config));
  const release = holdDataDir(config, command);
  try {
    const dbh = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      schema: config.databaseSchema,
    });
    try {
      return await done(dbh.db, await fn(dbh.db, config));
    } finally {
      await dbh.close();
    }
  } finally {
    release();
  }
}

function table(rows: Record<string, unknown>[], columns: string[]): string {
  const cell = (v: unknown) =>
    Array.isArray(v) ? v.join(',') : v === null || v === undefined ? '' : String(v);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}

function printResults(io: CliIo, results: KeyResult[], dryRun: boolean) {
  if (results.length === 0) {
    io.stdout('nothing to import: the file holds no key\n');
    return;
  }
  io.stdout(
    `${table(results as unknown as Record<string, unknown>[], ['key', 'rows', 'created', 'updated'])}\n`,
  );
  const created = results.reduce((n, r) => n + r.created, 0);
  const updated = results.reduce((n, r) => n + r.updated, 0);
  io.stdout(
    dryRun
      ? `dry run: ${created} would be created, ${updated} updated; nothing was written\n`
      : `imported: ${created} created, ${updated} updated\n`,
  );
}

function printCredentials(io: CliIo, generated: GeneratedCredential[]) {
  for (const c of generated) {
    io.stdout(
      c.kind === 'application'
        ? `application ${c.id}: client secret ${c.secret}  (shown once; store it now)\n`
        : `user ${c.id}: password ${c.secret}  (shown once; store it now)\n`,
    );
  }
}

const parseList = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

async function officeIdOf(db: Db, code: string) {
  const row = await db
    .selectFrom('offices')
    .select('id')
    .where('code', '=', code.toUpperCase())
    .executeTakeFirst();
  if (!row)
    throw new CliFailure(`office ${code.toUpperCase()} does not exist (import an offices list first)`);
  return row.id;
}

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

/** Loads the demo dataset; returns the generated credentials (empty when it was loaded before). */
export async function seedDemo(db: Db) {
  const document = JSON.parse(await readFile(DEMO_FILE, 'utf8')) as Record<string, unknown>;
  const generated: GeneratedCredential[] = [];
  const results = await runImport(db, document, { onGenerated: (c) => generated.push(c) });
  return { results, generated };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid names that work order; anything else is a code (the live work order carrying it). */
function workOrderRefOf(name: string): WorkOrderRef {
  if (UUID.test(name)) return { uuid: name.toLowerCase() };
  if (!CODE_PATTERN.test(name) || name.length > 200)
    throw new CliFailure(`${name} is neither a work order code nor a uuid`);
  return { code: foldCode(name) };
}

export function buildProgram(io: CliIo): Command {
  const program = new Command('fieldwork')
    .description(
      "Operator command line of Fieldwork. Works on the service's database: DATA_DIR (PGlite, default ./data) or DATABASE_URL (PostgreSQL).",
    )
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride()
    .showHelpAfterError();

  program
    .command('import')
    .description(
      'Import a JSON file (offices, applications, users, customFieldDefinitions, customers, ...): validated whole first, then applied in one transaction',
    )
    .argument('<file>', 'JSON file: an object whose keys are arrays (see docs/operations.md, Import file)')
    .option('--dry-run', 'validate and apply in a transaction that is rolled back; writes nothing')
    .action(async (file: string, opts: { dryRun?: boolean }) => {
      let text: string;
      try {
        text = await readFile(resolve(file), 'utf8');
      } catch (e) {
        throw new CliFailure(`cannot read ${file}: ${(e as Error).message}`);
      }
      const document = parseImportText(text);
      // Validate before opening the database: a bad file is reported even while the service runs.
      validateImport(document, importerRegistry());
      const generated: GeneratedCredential[] = [];
      const results = await withDb(io, 'import', (db) =>
        runImport(db, document, { dryRun: opts.dryRun, onGenerated: (c) => generated.push(c) }),
      );
      printResults(io, results, Boolean(opts.dryRun));
      printCredentials(io, generated);
    });

  program
    .command('offices')
    .description('List the office tree (codes to give to apps create, users create and imports)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await withDb(io, 'offices', (db) =>
        db
          .selectFrom('offices as o')
          .leftJoin('offices as p', 'p.id', 'o.parent_id')
          .select(['o.code', 'o.name', 'p.code as parentCode', 'o.path'])
          .orderBy('o.path')
          .execute(),
      );
      if (opts.json) {
        io.stdout(
          `${JSON.stringify(
            rows.map(({ path: _path, ...r }) => r),
            null,
            2,
          )}\n`,
        );
        return;
      }
      const depth = (path: string) => path.split('/').filter(Boolean).length - 1;
      const shown = rows.map((r) => ({ ...r, code: `${'  '.repeat(depth(r.path))}${r.code}` }));
      io.stdout(`${table(shown, ['code', 'name', 'parentCode'])}\n`);
    });

  const apps = program.command('apps').description('OAuth 2.0 applications (client_credentials)');
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

  // Revocation: each takes effect on the next request, in every process of the service.
  const changed = (clientId: string, outcome: Outcome, done: string, unchanged: string) => {
    if (outcome === 'unknown') throw new CliFailure(`no application has client id ${clientId}`);
    io.stdout(`application ${clientId}: ${outcome === 'done' ? done : unchanged}\n`);
  };
  apps
    .command('disable')
    .description('Disable an application: its tokens are refused at once and it gets no new one')
    .argument('<clientId>', 'client id of the application')
    .action(async (clientId: string) => {
      const outcome = await withDb(io, 'apps disable', (db) => setDisabled(db, clientId, true));
      changed(clientId, outcome, 'disabled; its tokens are refused from now on', 'was disabled already');
    });
  apps
    .command('enable')
    .description('Enable a disabled application again: its unexpired tokens work again')
    .argument('<clientId>', 'client id of the application')
    .action(async (clientId: string) => {
      const outcome = await withDb(io, 'apps enable', (db) => setDisabled(db, clientId, false));
      changed(clientId, outcome, 'enabled', 'was enabled already');
    });
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
  apps
    .command('delete')
    .description('Delete an application: its tokens are refused at once')
    .argument('<clientId>', 'client id of the application')
    .action(async (clientId: string) => {
      const outcome = await withDb(io, 'apps delete', (db) => deleteApplication(db, clientId));
      changed(clientId, outcome, 'deleted; its tokens are refused from now on', '');
    });

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

  program
    .command('seed')
    .description(
      `Load the demo dataset (offices, demo application ${DEMO_CLIENT_ID}, console user demo, custom fields, customers, sites, assets, work orders, activities...); --size large adds the large dataset`,
    )
    .option('--if-empty', 'do nothing when the database holds an office already (npm start uses it)')
    .option(
      '--size <size>',
      'demo (default), or large: the demo dataset plus 50,000 work orders, 2,000,000 activities, 500,000 used items and 5,000,000 positions (minutes; progress on stderr)',
      'demo',
    )
    .option(
      '--scale <fraction>',
      'with --size large: a fraction (0 < f <= 1) of the volume, for a quick benchmark; heavy work orders and busy technicians keep their size',
    )
    .option('--json', 'print the generated credentials as JSON')
    .action(async (opts: { ifEmpty?: boolean; json?: boolean; size: string; scale?: string }) => {
      if (opts.size !== 'demo' && opts.size !== 'large')
        throw new CliFailure(`--size: demo or large, not ${opts.size}`);
      if (opts.scale !== undefined && opts.size !== 'large')
        throw new CliFailure('--scale goes with --size large');
      const scale = opts.scale === undefined ? 1 : Number(opts.scale);
      if (!(scale > 0 && scale <= 1)) throw new CliFailure('--scale: a number greater than 0, at most 1');
      const plan = scale === 1 ? LARGE_PLAN : scaledPlan(scale);
      const outcome = await withDb(io, 'seed', async (db, config) => {
        if (opts.ifEmpty) {
          const any = await db.selectFrom('offices').select('id').limit(1).executeTakeFirst();
          if (any) return { skipped: true as const, config };
        }
        const demo = await seedDemo(db);
        if (opts.size !== 'large') return { skipped: false as const, config, ...demo, large: undefined };
        const bar = progressPrinter(io.stderr, Boolean(io.stderrIsTTY));
        try {
          const large = await seedLarge(db, plan, (p) => bar.update(p));
          return { skipped: false as const, config, ...demo, large };
        } finally {
          bar.end();
        }
      });
      if (outcome.skipped) {
        if (!opts.json) io.stdout('the database holds data already; demo dataset not loaded\n');
        else io.stdout(`${JSON.stringify({ seeded: false })}\n`);
        return;
      }
      const secret = outcome.generated.find(
        (c) => c.kind === 'application' && c.id === DEMO_CLIENT_ID,
      )?.secret;
      const url = outcome.config.publicUrl;
      const large = outcome.large;
      if (opts.json) {
        io.stdout(
          `${JSON.stringify(
            {
              seeded: true,
              clientId: DEMO_CLIENT_ID,
              clientSecret: secret ?? null,
              consoleUrl: `${url}/`,
              login: 'demo',
              password: 'demo',
              ...(large ? { large: { loaded: large.loaded, ...large.counts, seconds: large.seconds } } : {}),
            },
            null,
            2,
          )}\n`,
        );
        return;
      }
      printResults(io, outcome.results, false);
      if (large) {
        const n = (x: number) => x.toLocaleString('en-US');
        const c = large.counts;
        io.stdout(
          large.loaded
            ? `large dataset loaded in ${large.seconds.toFixed(0)} s: ${n(c.technicians)} technicians (LT-0001...), ${n(c.workOrders)} work orders (LWO-000001...), ${n(c.activities)} activities, ${n(c.usedItems)} used items, ${n(c.positions)} positions\n`
            : 'the large dataset is loaded already (work order LWO-000001 exists); nothing added\n',
        );
      }
      io.stdout(
        [
          '',
          'Demo dataset loaded.',
          `  console:            ${url}/  (login demo / password demo)`,
          `  API docs:           ${url}/docs`,
          `  demo client id:     ${DEMO_CLIENT_ID}`,
          secret
            ? `  demo client secret: ${secret}  (shown once; stored hashed)`
            : '  demo client secret: unchanged (the application existed already)',
          secret
            ? `  token:              curl -s -u '${DEMO_CLIENT_ID}:${secret}' -d grant_type=client_credentials ${url}/oauth/token`
            : '',
          '',
        ]
          .filter((l, i, a) => l !== '' || i === 0 || i === a.length - 1)
          .join('\n'),
      );
    });

  const workOrders = program
    .command('workorders')
    .description('Work order lifecycle: validate or delete a work order (the webhooks announce both)');
  const lifecycle = (
    verb: 'validate' | 'delete',
    description: string,
    run: typeof validateWorkOrder,
    done: (o: LifecycleOutcome) => string,
  ) =>
    workOrders
      .command(verb)
      .description(description)
      .argument('<codeOrUuid>', 'work order uuid, or code (the live work order carrying it)')
      .option('--json', 'print a JSON object')
      .action(async (name: string, opts: { json?: boolean }) => {
        const ref = workOrderRefOf(name);
        const outcome = await withDb(io, `workorders ${verb}`, async (db) => {
          // Every office: the operator's command sees the whole tree.
          const scope: OfficeScope = { officeId: '0', officeCode: '', path: '/' };
          const found = await findWorkOrder(db, scope, ref);
          if ('missing' in found) throw new CliFailure(`no work order ${name}`);
          if ('ambiguous' in found)
            throw new CliFailure(
              `several live work orders carry ${name.toUpperCase()}; give the uuid of one:\n${found.ambiguous
                .map((w) => `  ${w.uuid}  ${w.status}  ${w.office_code}`)
                .join('\n')}`,
            );
          try {
            return await run(
              db,
              scope,
              { uuid: found.found.uuid },
              actorOf({ process: 'fieldwork workorders' }),
            );
          } catch (e) {
            if (e instanceof ApiError)
              throw new CliFailure(e.errors.map((x) => `${x.message} (${x.code})`).join('; '));
            throw e;
          }
        });
        io.stdout(opts.json ? `${JSON.stringify(outcome, null, 2)}\n` : `${done(outcome)}\n`);
      });
  lifecycle(
    'validate',
    'Set the status VALIDATED (refused for a CANCELLED or VALIDATED work order); records workorder.validation',
    validateWorkOrder,
    (o) => `work order ${o.workOrderCode} (${o.uuid}, office ${o.officeCode}) validated at ${o.at}`,
  );
  lifecycle(
    'delete',
    'Delete the work order with its activities, used items, flags, notes and links; records workorder.deletion',
    deleteWorkOrder,
    (o) =>
      `work order ${o.workOrderCode} (${o.uuid}, office ${o.officeCode}) deleted with ${o.activities} activities and ${o.usedItems} used items`,
  );

  program
    .command('keys')
    .description('List the keys the import file accepts, in the order they are applied')
    .action(() => {
      io.stdout(
        `${importerRegistry()
          .map((i) => i.key)
          .join('\n')}\n`,
      );
    });

  return program;
}

/** Runs the command line; returns the exit code (0 on success). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    if (e instanceof ImportValidationError) {
      io.stderr(
        `import refused, nothing was written:\n${e.problems.map((p) => `  ${p.path ? `${p.path}: ` : ''}${p.message}`).join('\n')}\n`,
      );
      return 1;
    }
    if (e instanceof ImportApplyError) {
      io.stderr(`import failed, nothing was written: ${e.message}\n`);
      return 1;
    }
    if (e instanceof DataDirHeldError || e instanceof CliFailure) {
      io.stderr(`fieldwork: ${e.message}\n`);
      return 1;
    }
    io.stderr(`fieldwork: ${(e as Error)?.stack ?? String(e)}\n`);
    return 1;
  }
}
