import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { errorCode } from '../platform/thrown.ts';

/**
 * PGlite opens its data directory in one process only: a second opener would corrupt it.
 * Whoever opens a PGlite directory (the service for its lifetime, each command of the
 * command line for its duration) first creates `DATA_DIR/fieldwork.pid`, atomically
 * (O_EXCL), and removes it when done; a second opener finds it and refuses.
 *
 * The file names its holder by a start token, not by a process id alone: process ids are
 * reused, so a file left by a crash may name a live, unrelated process. The token is the
 * process's start time read from /proc (with the boot id), which no other process shares;
 * a file whose process is gone, or now runs with another start time, is stale and taken
 * over. Where /proc is missing the process id alone decides. With DATABASE_URL
 * (PostgreSQL) there is no such restriction and no file.
 */
export const PID_FILE = 'fieldwork.pid';

export function pidFile(dataDir: string) {
  return join(dataDir, PID_FILE);
}

/** What the lock file holds. `holder` is `service` or the command's name. */
export interface LockHolder {
  pid: number;
  /** Start time of the process (clock ticks after boot, /proc/<pid>/stat field 22). */
  start?: string;
  boot?: string;
  holder: string;
  /** Random: tells this opener's file from another's when releasing. */
  nonce: string;
}

const readOr = (path: string) => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
};

/** The start time of a live process, or undefined (no such process, or no /proc). */
export function processStart(pid: number): string | undefined {
  const stat = readOr(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // Fields after the command name (which may hold spaces and parentheses): state is field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[22 - 3];
}

const bootId = () => readOr('/proc/sys/kernel/random/boot_id');

function pidAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(e) === 'EPERM';
  }
}

/** Whether the file's holder still runs. A file of an older version holds a bare pid. */
export function holderAlive(h: Pick<LockHolder, 'pid' | 'start' | 'boot'>): boolean {
  if (!pidAlive(h.pid)) return false;
  const boot = bootId();
  if (h.boot && boot && h.boot !== boot) return false;
  const start = processStart(h.pid);
  return !(h.start && start && h.start !== start);
}

function parse(text: string): LockHolder | undefined {
  if (/^\d+$/.test(text)) return { pid: Number(text), holder: 'service', nonce: '' };
  try {
    const h = JSON.parse(text) as LockHolder;
    return Number.isSafeInteger(h.pid) && h.pid > 0 ? h : undefined;
  } catch {
    return undefined;
  }
}

export class DataDirHeldError extends Error {
  constructor(
    readonly holder: LockHolder,
    readonly dataDir: string,
  ) {
    const where = `DATA_DIR=${resolve(dataDir)}`;
    super(
      holder.holder === 'service'
        ? `the service (pid ${holder.pid}) holds ${where}; stop it first or use the API`
        : `fieldwork ${holder.holder} (pid ${holder.pid}) holds ${where}; wait for it to finish`,
    );
  }
}

/**
 * Takes the PGlite directory for this process (`holder`: `service` or the command's name);
 * returns the release function. Throws DataDirHeldError when a live process holds it.
 */
export function holdDataDir(
  config: { dataDir: string; databaseUrl?: string },
  holder = 'service',
): () => void {
  if (config.databaseUrl || config.dataDir.startsWith('memory://')) return () => {};
  mkdirSync(config.dataDir, { recursive: true });
  const file = pidFile(config.dataDir);
  const mine: LockHolder = {
    pid: process.pid,
    start: processStart(process.pid),
    boot: bootId(),
    holder,
    nonce: randomBytes(8).toString('hex'),
  };
  const text = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, text, { flag: 'wx' });
      break;
    } catch (e) {
      if (errorCode(e) !== 'EEXIST' || attempt >= 3) throw e;
    }
    const found = readOr(file);
    if (found === undefined) continue; // released meanwhile
    const other = parse(found);
    if (other && holderAlive(other)) throw new DataDirHeldError(other, config.dataDir);
    // Stale: remove it unless another opener replaced it meanwhile, then try again.
    if (readOr(file) === found) rmSync(file, { force: true });
  }
  return () => {
    if (readOr(file) === text.trim()) rmSync(file, { force: true });
  };
}
