import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { CliFailure, type CliIo, withDb } from '../context.ts';
import { runImport } from '../importFile.ts';
import type { GeneratedCredential } from '../platformImporters.ts';
import { LARGE_PLAN, progressPrinter, scaledPlan, seedLarge } from '../seedLarge.ts';
import { printResults } from './import.ts';

export const DEMO_FILE = fileURLToPath(new URL('../demo.json', import.meta.url));
export const DEMO_CLIENT_ID = 'demo-integration';

/** Loads the demo dataset; returns the generated credentials (empty when it was loaded before). */
export async function seedDemo(db: Db) {
  const document = JSON.parse(await readFile(DEMO_FILE, 'utf8')) as Record<string, unknown>;
  const generated: GeneratedCredential[] = [];
  const results = await runImport(db, document, { onGenerated: (c) => generated.push(c) });
  return { results, generated };
}

/** `seed`: the demo dataset, and with `--size large` the large one. */
export function seedCommand(program: Command, io: CliIo) {
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
    .action(async (opts: SeedOptions) => {
      const plan = planOf(opts);
      const outcome = await withDb(io, 'seed', (db, config) => load(db, config, io, opts, plan));
      if (outcome.skipped) {
        if (!opts.json) io.stdout('the database holds data already; demo dataset not loaded\n');
        else io.stdout(`${JSON.stringify({ seeded: false })}\n`);
        return;
      }
      const secret = outcome.generated.find(
        (c) => c.kind === 'application' && c.id === DEMO_CLIENT_ID,
      )?.secret;
      if (opts.json) printJson(io, outcome, secret);
      else printText(io, outcome, secret);
    });
}

interface SeedOptions {
  ifEmpty?: boolean;
  json?: boolean;
  size: string;
  scale?: string;
}

/** The large dataset's plan from --size and --scale (refused when they do not go together). */
function planOf(opts: SeedOptions) {
  if (opts.size !== 'demo' && opts.size !== 'large')
    throw new CliFailure(`--size: demo or large, not ${opts.size}`);
  if (opts.scale !== undefined && opts.size !== 'large')
    throw new CliFailure('--scale goes with --size large');
  const scale = opts.scale === undefined ? 1 : Number(opts.scale);
  if (!(scale > 0 && scale <= 1)) throw new CliFailure('--scale: a number greater than 0, at most 1');
  return scale === 1 ? LARGE_PLAN : scaledPlan(scale);
}

/** The demo dataset, then the large one when asked; nothing on a database holding an office with --if-empty. */
async function load(db: Db, config: AppConfig, io: CliIo, opts: SeedOptions, plan: typeof LARGE_PLAN) {
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
}

type Loaded = Extract<Awaited<ReturnType<typeof load>>, { skipped: false }>;

function printJson(io: CliIo, outcome: Loaded, secret: string | undefined) {
  const { large } = outcome;
  io.stdout(
    `${JSON.stringify(
      {
        seeded: true,
        clientId: DEMO_CLIENT_ID,
        clientSecret: secret ?? null,
        consoleUrl: `${outcome.config.publicUrl}/`,
        login: 'demo',
        password: 'demo',
        ...(large ? { large: { loaded: large.loaded, ...large.counts, seconds: large.seconds } } : {}),
      },
      null,
      2,
    )}\n`,
  );
}

function printText(io: CliIo, outcome: Loaded, secret: string | undefined) {
  const url = outcome.config.publicUrl;
  const large = outcome.large;
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
      '  one user per role:  viewer, backoffice, planner, admin (password = login)',
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
}
