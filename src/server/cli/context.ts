import { type AppConfig, configFromEnv } from '../config.ts';
import { type Db, openDatabase } from '../db/index.ts';
import { domains } from '../domains/index.ts';
import { asActor } from '../events/changes.ts';
import { awaitCallerListeners } from '../platform/auth/callerCache.ts';
import type { CommandHost } from '../platform/domain.ts';
import { holdDataDir } from './serviceLock.ts';

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

/** A failure to report to the operator in one message, with exit code 1. */
export class CliFailure extends Error {}

/**
 * Opens the service's database for one command. A PGlite directory is taken for the
 * command's duration (the service's lock, serviceLock.ts): a second opener is refused.
 */
export async function withDb<T>(
  io: CliIo,
  command: string,
  fn: (db: Db, config: AppConfig) => Promise<T>,
): Promise<T> {
  // The changes the command commits name it (events/changes.ts).
  return asActor({ type: 'process', identifier: `fieldwork ${command}` }, () => openAndRun(io, command, fn));
}

async function openAndRun<T>(
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
    const sessions = domains.flatMap(
      (d) => d.commandSession?.(dbh, (message) => io.stderr(`fieldwork: warning: ${message}\n`)) ?? [],
    );
    try {
      return await done(dbh.db, await fn(dbh.db, config));
    } finally {
      for (const stop of sessions.reverse()) await stop();
      await dbh.close();
    }
  } finally {
    release();
  }
}

/** What a domain's commands get from the command line (platform/domain.ts). */
export function commandHost(io: CliIo): CommandHost {
  return {
    withDb: (command, fn) => withDb(io, command, (db) => fn(db)),
    stdout: io.stdout,
    failure: (message) => new CliFailure(message),
  };
}

/** Rows as a plain text table, one column per name (a field of the rows), lists joined by commas. */
export function table<T extends object>(rows: readonly T[], columns: readonly (keyof T & string)[]): string {
  const cell = (v: unknown) =>
    Array.isArray(v) ? v.join(',') : v === null || v === undefined ? '' : String(v);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}

export const parseList = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The id of an office named by its code, for the commands that file a record under one. */
export async function officeIdOf(db: Db, code: string) {
  const row = await db
    .selectFrom('offices')
    .select('id')
    .where('code', '=', code.toUpperCase())
    .executeTakeFirst();
  if (!row)
    throw new CliFailure(`office ${code.toUpperCase()} does not exist (import an offices list first)`);
  return row.id;
}
