#!/usr/bin/env node
/**
 * What a request's log line costs in CPU, by where it goes: nowhere (pino's serialization
 * alone), the service's batched destination (platform/logDestination.ts), and sonic-boom
 * batching by itself (`minLength` 16 KiB, what the service used before: it measures the
 * whole waiting text at every line). The line is the service's "request completed" line,
 * from a per-request child logger, with the service's redaction; written to /dev/null,
 * one line per turn of the event loop, as a service serving one connection.
 *
 *   node bench/logLine.mjs            # LINES=100000
 */
import { openSync } from 'node:fs';
import pino from 'pino';
import { register } from 'tsx/esm/api';

register();
const { BatchedDestination, LOG_BATCH_BYTES, LOG_FLUSH_MS } = await import(
  '../src/server/platform/logDestination.ts'
);

const LINES = Number(process.env.LINES ?? 100_000);
const fd = openSync('/dev/null', 'w');
const destinations = {
  'nowhere (serialization only)': () => ({ write() {} }),
  'BatchedDestination (the service)': () => new BatchedDestination(fd),
  'sonic-boom, minLength 16 KiB (before)': () =>
    pino.destination({
      dest: fd,
      sync: false,
      minLength: LOG_BATCH_BYTES,
      maxWrite: 4 * LOG_BATCH_BYTES,
      periodicFlush: LOG_FLUSH_MS,
    }),
  'sonic-boom, a write per line': () => pino.destination({ dest: fd, sync: false }),
};
const request = {
  method: 'GET',
  url: '/eTech/rest/ws/referentials/v1/customers/code:BENCH000001',
  ip: '127.0.0.1',
};

async function run(logger) {
  for (let i = 0; i < LINES; i++) {
    logger
      ?.child({ reqId: `0b6c3f0e-8d0c-4c4e-9f55-${String(i).padStart(12, '0')}` })
      .info({ req: request, res: { statusCode: 200 }, responseTime: 1.5 + i / LINES }, 'request completed');
    await new Promise((r) => setImmediate(r));
  }
}

async function cpuPerLine(logger) {
  await run(logger); // warm-up
  const before = process.cpuUsage();
  await run(logger);
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / LINES;
}

// The loop itself (a turn of the event loop per line), taken from every figure.
const loop = await cpuPerLine(undefined);
const rows = [];
for (const [label, make] of Object.entries(destinations)) {
  const logger = pino(
    {
      level: 'info',
      redact: ['req.headers.authorization'],
      serializers: { req: (r) => ({ method: r.method, url: r.url, remoteAddress: r.ip }) },
    },
    make(),
  );
  rows.push([label, ((await cpuPerLine(logger)) - loop).toFixed(2)]);
}
console.log(
  `\nCPU per "request completed" log line, ${LINES} lines, one per turn of the event loop (Node ${process.version}; the loop's own ${loop.toFixed(2)} µs a turn taken off)\n`,
);
console.log('| destination | CPU µs per line |\n|---|---|');
for (const [label, us] of rows) console.log(`| ${label} | ${us} |`);
process.exit(0);
