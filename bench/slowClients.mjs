#!/usr/bin/env node
/**
 * Slow clients (issue 25 §2): the latency of normal requests while IDLE connections sit
 * open without sending anything and TRICKLE connections send their request a byte at a
 * time, against the real service over HTTP.
 *
 *   1. quiet: autocannon GETs one customer for DURATION seconds (CONNECTIONS connections);
 *   2. under siege: the same, while IDLE idle connections and TRICKLE trickling ones are
 *      kept open (half of the tricklers announce a 100,000-byte body without a token, half
 *      with one; each sends a byte every TRICKLE_EVERY ms). A connection the service closes
 *      (408 after its timeouts, 401 at once without a token) is opened again TRICKLE_EVERY ms
 *      later, so the siege holds for the whole measure.
 *
 * Prints p50/p99 of both and their ratio (goal: p99 under siege within 2x of quiet), and
 * what the service did to the siege's connections. Figures mean something on a quiet
 * machine only (look at the load average printed with the table).
 *
 *   node bench/slowClients.mjs     # DURATION=10 CONNECTIONS=10 IDLE=500 TRICKLE=100 TRICKLE_EVERY=1000
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clientToken,
  importDocument,
  loadTest,
  log,
  printTable,
  startService,
  stopService,
  UNLIMITED,
} from './support/service.mjs';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const IDLE = Number(process.env.IDLE ?? 500);
const TRICKLE = Number(process.env.TRICKLE ?? 100);
const TRICKLE_EVERY = Number(process.env.TRICKLE_EVERY ?? 1000);
const CUSTOMER = '/eTech/rest/ws/referentials/v1/customers/code:C1';

/** Keeps `count` connections of one kind open; returns its counters and a stop. */
function siege(port, count, start) {
  const stats = { opened: 0, closed: 0, answers: new Map() };
  const sockets = new Set();
  let stopping = false;
  const open = () => {
    if (stopping) return;
    const socket = net.connect(port, '127.0.0.1');
    stats.opened++;
    sockets.add(socket);
    let timer;
    socket.on('data', (d) => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(d.toString('latin1'))?.[1];
      if (status) stats.answers.set(status, (stats.answers.get(status) ?? 0) + 1);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      stats.closed++;
      // Opened again at the trickling pace: the siege keeps its size without turning into
      // a flood of new connections.
      setTimeout(open, TRICKLE_EVERY);
    });
    socket.on('connect', () => {
      timer = start(socket);
    });
  };
  for (let i = 0; i < count; i++) open();
  return {
    stats,
    stop() {
      stopping = true;
      for (const s of sockets) s.destroy();
    },
  };
}

/** Writes the head, then one byte of `body` every TRICKLE_EVERY ms. */
const trickler = (head, body) => (socket) => {
  socket.write(head);
  let i = 0;
  return setInterval(() => {
    if (i < body.length && !socket.destroyed) socket.write(body[i++]);
  }, TRICKLE_EVERY);
};

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-slow-'));
let service;
try {
  const env = {
    ...process.env,
    DATA_DIR: join(dir, 'data'),
    DATABASE_URL: '',
    REDIS_URL: '',
    FIELDWORK_RATE_LIMITS: UNLIMITED,
  };
  importDocument(
    dir,
    {
      offices: [{ code: 'HQ', name: 'Head office' }],
      applications: [
        {
          name: 'Bench',
          officeCode: 'HQ',
          clientId: 'bench',
          clientSecret: 'bench-secret-of-at-least-32-characters',
        },
      ],
      customers: [
        { customerCode: 'C1', name: 'Customer 1', officeCode: 'HQ', addressDetails: { city: 'Lyon' } },
      ],
    },
    env,
  );
  service = await startService(env);
  const port = Number(new URL(service.url).port);
  const token = await clientToken(service.url, 'bench', 'bench-secret-of-at-least-32-characters');
  const measure = () =>
    loadTest({
      url: `${service.url}${CUSTOMER}`,
      connections: CONNECTIONS,
      duration: DURATION,
      headers: { authorization: `Bearer ${token}` },
    });

  log(`quiet: ${DURATION} s`);
  await measure();
  const quiet = await measure();

  log(`siege: ${IDLE} idle and ${TRICKLE} trickling connections`);
  const body = JSON.stringify({ name: 'x'.repeat(99_970), addressDetails: { city: 'L' } });
  const announce = (auth) =>
    `PUT /eTech/rest/ws/referentials/v1/customers/code:SLOW HTTP/1.1\r\nHost: bench\r\n${auth}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
  const sieges = {
    idle: siege(port, IDLE, () => undefined),
    'trickling, no token': siege(port, Math.ceil(TRICKLE / 2), trickler(announce(''), body)),
    'trickling, with a token': siege(
      port,
      Math.floor(TRICKLE / 2),
      trickler(announce(`authorization: Bearer ${token}\r\n`), body),
    ),
  };
  // Let every connection open and the first byte go out.
  await new Promise((r) => setTimeout(r, 2000));
  const under = await measure();
  for (const s of Object.values(sieges)) s.stop();

  const ms = (v) => `${v.toFixed(1)} ms`;
  printTable(
    'Normal GETs of one customer, quiet and with slow clients connected',
    ['run', 'requests/s', 'p50', 'p99', 'non-2xx'],
    [
      [
        'quiet',
        Math.round(quiet.requests.average),
        ms(quiet.latency.p50),
        ms(quiet.latency.p99),
        quiet.non2xx,
      ],
      [
        `${IDLE} idle + ${TRICKLE} trickling`,
        Math.round(under.requests.average),
        ms(under.latency.p50),
        ms(under.latency.p99),
        under.non2xx,
      ],
    ],
  );
  const ratio = under.latency.p99 / quiet.latency.p99;
  console.log(`\np99 under siege / quiet: ${ratio.toFixed(2)} (goal: at most 2)\n`);
  printTable(
    'What the service did to the slow connections during the measure',
    ['connections', 'opened', 'closed by the service', 'answers'],
    Object.entries(sieges).map(([name, s]) => [
      name,
      s.stats.opened,
      s.stats.closed,
      [...s.stats.answers].map(([status, n]) => `${n}x ${status}`).join(', ') || 'none',
    ]),
  );
} finally {
  if (service) await stopService(service.child);
  rmSync(dir, { recursive: true, force: true });
}
