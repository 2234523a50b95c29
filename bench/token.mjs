#!/usr/bin/env node
/**
 * What an attacker gets from POST /oauth/token, over HTTP against the real service.
 *
 *   1. Guessing: CONNECTIONS connections from one address post wrong secrets for a known
 *      client id during DURATION seconds. Prints the secrets the service actually checked
 *      per second (401 invalid_client answers) and the refusals (429) per second.
 *   2. Probing: ATTEMPTS sequential failed attempts with a known client id and with an
 *      unknown one (limits raised so that none is refused); prints the median answer time
 *      of each. Equal medians mean the timing does not reveal which client ids exist.
 *
 *   node bench/token.mjs        # DURATION=10 CONNECTIONS=10 ATTEMPTS=30
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  basic,
  importDocument,
  loadTest,
  log,
  median,
  printTable,
  startService,
  stopService,
} from './support/service.mjs';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const ATTEMPTS = Number(process.env.ATTEMPTS ?? 30);
const CLIENT_ID = 'bench-token';
const RAISED = JSON.stringify({
  perAddress: { failures: 1e6, windowSeconds: 60 },
});

const guess = (url) =>
  loadTest({
    url: `${url}/oauth/token`,
    connections: CONNECTIONS,
    duration: DURATION,
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(CLIENT_ID, 'not-the-secret'),
    },
    body: 'grant_type=client_credentials',
  });

async function timeOf(url, clientId) {
  const started = performance.now();
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(clientId, 'not-the-secret'),
    },
    body: 'grant_type=client_credentials',
  });
  await res.arrayBuffer();
  if (res.status !== 401) throw new Error(`expected 401, got ${res.status}`);
  return performance.now() - started;
}

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-token-'));
const rows = [];
try {
  const env = { ...process.env, DATA_DIR: join(dir, 'data'), DATABASE_URL: '', REDIS_URL: '' };
  importDocument(
    dir,
    {
      offices: [{ code: 'BENCH', name: 'Bench office' }],
      applications: [
        {
          name: 'Bench',
          officeCode: 'BENCH',
          clientId: CLIENT_ID,
          clientSecret: 'bench-token-secret-of-at-least-32-characters',
        },
      ],
    },
    env,
  );

  log('guessing with the default limits');
  {
    const { child, url } = await startService(env);
    try {
      const r = await guess(url);
      const of = (status) => r.statusCodeStats?.[status]?.count ?? 0;
      rows.push(['secrets checked (401) per second', (of(401) / DURATION).toFixed(1)]);
      rows.push(['refused unchecked (429) per second', (of(429) / DURATION).toFixed(1)]);
      rows.push(['p50 answer time, ms', r.latency.p50]);
    } finally {
      await stopService(child);
    }
  }

  log('probing client ids with the limits raised');
  {
    const { child, url } = await startService({ ...env, FIELDWORK_TOKEN_LIMITS: RAISED });
    try {
      await timeOf(url, CLIENT_ID); // warm-up
      const known = [];
      const unknown = [];
      for (let i = 0; i < ATTEMPTS; i++) {
        known.push(await timeOf(url, CLIENT_ID));
        unknown.push(await timeOf(url, `ghost-${i}`));
      }
      rows.push(['median ms, known client id, wrong secret', median(known).toFixed(1)]);
      rows.push(['median ms, unknown client id', median(unknown).toFixed(1)]);
    } finally {
      await stopService(child);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `POST /oauth/token under attack from one address, ${CONNECTIONS} connections for ${DURATION} s; ${ATTEMPTS} probes`,
  ['figure', 'value'],
  rows,
);
