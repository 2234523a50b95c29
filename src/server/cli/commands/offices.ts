import type { Command } from 'commander';
import { type CliIo, table, withDb } from '../context.ts';

/** `offices`: the office tree, the codes the other commands and the import file name. */
export function officesCommand(program: Command, io: CliIo) {
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
}
