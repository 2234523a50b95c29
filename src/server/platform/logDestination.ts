import { writeSync } from 'node:fs';
import type pino from 'pino';
import { errorCode } from './thrown.ts';

/** Log lines are written when this many bytes wait (about forty request lines)... */
export const LOG_BATCH_BYTES = 16 * 1024;
/** ...or after this many milliseconds at most. */
export const LOG_FLUSH_MS = 100;

/**
 * Where the service's log lines go: a file descriptor (standard output), written in
 * batches (docs/operations.md, Logs). One write carries LOG_BATCH_BYTES of lines instead of one line,
 * so a request pays a fortieth of a system call. Lines wait at most LOG_FLUSH_MS;
 * `flushSync()` writes them at once (the service's close), and so does the process's `exit`
 * (process.exit, a crash on an uncaught error); a SIGKILL loses what is waiting.
 *
 * A batch is written here, synchronously, not in libuv's thread pool: a write queued there
 * (behind the scrypt of a token request, say) is lost when the process exits before it
 * runs, and an exiting process cannot tell whether it ran. Written here, a line is either
 * out or still waiting in this object. A reader that stops reading holds the writer back
 * (pino's default, synchronous destination does the same), for a second at most a batch.
 *
 * The lines wait in an array joined once per batch. sonic-boom can batch by itself
 * (`minLength`), but it measures the whole text waiting at every line it is given: 5.1 µs
 * of CPU a line against 2.6 here, of which 2.0 are pino's serialization (bench/logLine.mjs).
 */
export class BatchedDestination implements pino.DestinationStream {
  private lines: string[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The reader is gone (EPIPE) or the descriptor closed: lines are dropped from then on. */
  private broken = false;
  private readonly atExit = () => this.flushSync();

  constructor(private readonly fd = 1) {
    process.on('exit', this.atExit);
  }

  write(line: string) {
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line);
    if (this.bytes >= LOG_BATCH_BYTES) this.flushSync();
    else this.timer ??= setTimeout(() => this.flushSync(), LOG_FLUSH_MS).unref();
  }

  /** Writes every waiting line before returning. */
  flushSync() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.lines.join('');
    this.lines = [];
    this.bytes = 0;
    if (!text || this.broken) return;
    try {
      writeAllSync(this.fd, Buffer.from(text));
    } catch (error) {
      // Stop writing once the reader is gone, as pino's writer does, instead of failing the
      // request that logged. A reader that took nothing for a second loses this batch only.
      if (errorCode(error) !== 'EAGAIN') this.broken = true;
    }
  }

  /** Writes what waits; the process's exit no longer needs to. */
  close() {
    this.flushSync();
    process.off('exit', this.atExit);
  }
}

/** Writes all of `buffer`, waiting a millisecond at a time while a non-blocking pipe is full. */
function writeAllSync(fd: number, buffer: Buffer) {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let rest = buffer, waits = 0; rest.length > 0; ) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      if (errorCode(error) !== 'EAGAIN' || ++waits > 1000) throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
