import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * PGlite opens its data directory in one process only: a second process writing to it
 * would corrupt it. The service writes its process id to `DATA_DIR/fieldwork.pid` while it
 * runs; the command line (and a second service) refuses to open a directory held by a live
 * process. With DATABASE_URL (PostgreSQL) there is no such restriction.
 */
export const PID_FILE = 'fieldwork.pid';

export function pidFile(dataDir: string) {
  return join(dataDir, PID_FILE);
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The id of the live process (other than this one) holding `dataDir`, if any. */
export function dataDirHolder(dataDir: string): number | undefined {
  if (dataDir.startsWith('memory://')) return undefined;
  const file = pidFile(dataDir);
  if (!existsSync(file)) return undefined;
  const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  return isAlive(pid) ? pid : undefined;
}

export class DataDirHeldError extends Error {
  constructor(
    readonly pid: number,
    readonly dataDir: string,
  ) {
    super(`the service (pid ${pid}) holds DATA_DIR=${resolve(dataDir)}; stop it first or use the API`);
  }
}

/** Throws DataDirHeldError when a live service holds the PGlite directory. */
export function assertDataDirFree(config: { dataDir: string; databaseUrl?: string }) {
  if (config.databaseUrl) return;
  const pid = dataDirHolder(config.dataDir);
  if (pid !== undefined) throw new DataDirHeldError(pid, config.dataDir);
}

/** Marks `dataDir` as held by this process; returns the release function. */
export function holdDataDir(config: { dataDir: string; databaseUrl?: string }): () => void {
  if (config.databaseUrl || config.dataDir.startsWith('memory://')) return () => {};
  assertDataDirFree(config);
  mkdirSync(config.dataDir, { recursive: true });
  const file = pidFile(config.dataDir);
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
    } catch {
      // already gone
    }
  };
}
