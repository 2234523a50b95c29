import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { errorMessage } from '../../platform/thrown.ts';
import { CliFailure, type CliIo, table, withDb } from '../context.ts';
import {
  importerRegistry,
  type KeyResult,
  parseImportText,
  runImport,
  validateImport,
} from '../importFile.ts';
import type { GeneratedCredential } from '../platformImporters.ts';

/** `import <file>`: validated whole first, then applied in one transaction. */
export function importCommand(program: Command, io: CliIo) {
  program
    .command('import')
    .description(
      'Import a JSON file (offices, applications, users, customFieldDefinitions, customers, ...): validated whole first, then applied in one transaction',
    )
    .argument('<file>', 'JSON file: an object whose keys are arrays (see docs/operations.md, Import file)')
    .option('--dry-run', 'validate and apply in a transaction that is rolled back; writes nothing')
    .option(
      '--tenant <rootOfficeCode>',
      'the tenant (root office) whose records the file holds (default: the first root office)',
    )
    .action(async (file: string, opts: { dryRun?: boolean; tenant?: string }) => {
      let text: string;
      try {
        text = await readFile(resolve(file), 'utf8');
      } catch (e) {
        throw new CliFailure(`cannot read ${file}: ${errorMessage(e)}`);
      }
      const document = parseImportText(text);
      // Validate before opening the database: a bad file is reported even while the service runs.
      validateImport(document, importerRegistry());
      const generated: GeneratedCredential[] = [];
      const results = await withDb(io, 'import', (db) =>
        runImport(db, document, {
          dryRun: opts.dryRun,
          tenant: opts.tenant,
          onGenerated: (c) => generated.push(c),
        }),
      );
      printResults(io, results, Boolean(opts.dryRun));
      printCredentials(io, generated);
    });
}

/** `keys`: the keys of the import file, in the order they are applied. */
export function keysCommand(program: Command, io: CliIo) {
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
}

export function printResults(io: CliIo, results: KeyResult[], dryRun: boolean) {
  if (results.length === 0) {
    io.stdout('nothing to import: the file holds no key\n');
    return;
  }
  io.stdout(`${table(results, ['key', 'rows', 'created', 'updated'])}\n`);
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
