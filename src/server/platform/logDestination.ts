import { writeSync } from 'node:fs';
import pino from 'pino';

/** Log lines are written when this many bytes wait (about forty request lines)... */
export const LOG_BATCH_BYTES = 16 * 1024;
/** ...or after this many milliseconds at most. */
export const LOG_FLUSH_MS = 100;

/**
 * Where the service's log lines go: a file descriptor (standard output), written
 * asynchronously and in batches (README: Logs). A request does not wait for the write, and
 * one write (a trip through libuv's thread pool) carries LOG_BATCH_BYTES of lines instead of
 * one line. Lines wait at most LOG_FLUSH_MS; `flushSync()` writes them at once (the
 * service's close) and so does the process's `exit` (process.exit, a crash on an uncaught
 * error); a SIGKILL loses what is waiting.
 *
 * The lines wait here, in an array joined once per batch, and go to pino's sonic-boom
 * writer as one text. sonic-boom can batch by itself (`minLength`), but it measures the
 * whole text waiting at every line it is given: 8.5 µs of CPU a line against 6.5 here, of
 * which 5 are pino's serialization (bench/logLine.mjs).
 */
export class BatchedDestination implements pino.DestinationStream {
  private lines: string[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly out: ReturnType<typeof pino.destination>;
  private readonly atExit = () => this.flushSync();

  constructor(private readonly fd = 1) {
    // pino's writer: it stops writing, instead of failing, once the reader is gone (EPIPE).
    this.out = pino.destination({ dest: fd, sync: false });
    process.on('exit', this.atExit);
  }

  write(line: string) {
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line);
    if (this.bytes >= LOG_BATCH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), LOG_FLUSH_MS).unref();
  }

  /** Hands the waiting lines to the writer, which writes them asynchronously. */
  flush() {
    const text = this.take();
    if (text) this.out.write(text);
  }

  /**
   * Writes every waiting line before returning: what the writer holds, then the lines
   * waiting here, written directly (handed to the writer, they would go out in a write of
   * libuv's thread pool, which an exiting process does not wait for).
   */
  flushSync() {
    const text = this.take();
    try {
      this.out.flushSync();
      if (text) writeAllSync(this.fd, Buffer.from(text));
    } catch {
      // The descriptor is closed already: nothing more can be written.
    }
  }

  private take(): string {
    clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.lines.join('');
    this.lines = [];
    this.bytes = 0;
    return text;
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
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || ++waits > 1000) throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
