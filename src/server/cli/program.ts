import { Command, CommanderError } from 'commander';
import { domains } from '../domains/index.ts';
import { appsCommands } from './commands/apps.ts';
import { importCommand, keysCommand } from './commands/import.ts';
import { officesCommand } from './commands/offices.ts';
import { seedCommand } from './commands/seed.ts';
import { usersCommands } from './commands/users.ts';
import { CliFailure, type CliIo, commandHost } from './context.ts';
import { ImportApplyError, ImportValidationError } from './importFile.ts';
import { DataDirHeldError } from './serviceLock.ts';

export type { CliIo } from './context.ts';

/**
 * The `fieldwork` command: the platform's command groups (one file each in `commands/`),
 * then each domain's own (`DomainModule.commands`), in the order `--help` lists them.
 */
export function buildProgram(io: CliIo): Command {
  const program = new Command('fieldwork')
    .description(
      "Operator command line of Fieldwork. Works on the service's database: DATA_DIR (PGlite, default ./data) or DATABASE_URL (PostgreSQL).",
    )
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride()
    .showHelpAfterError();

  importCommand(program, io);
  officesCommand(program, io);
  appsCommands(program, io);
  usersCommands(program, io);
  seedCommand(program, io);
  const host = commandHost(io);
  for (const domain of domains) domain.commands?.(program, host);
  keysCommand(program, io);
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
    io.stderr(`fieldwork: ${(e instanceof Error ? e.stack : undefined) ?? String(e)}\n`);
    return 1;
  }
}
