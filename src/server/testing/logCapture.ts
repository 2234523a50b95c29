import { Writable } from 'node:stream';

/** A pino destination that keeps every line: pass `logger` to buildApp / createTestApp. */
export function captureLog() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    logger: { stream },
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown> & { msg?: string }),
  };
}
