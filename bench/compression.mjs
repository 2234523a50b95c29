#!/usr/bin/env node
/**
 * Bytes on the wire and latency of an API list page per Accept-Encoding, over HTTP against
 * the real service: a page of the customer list (CUSTOMERS customers imported) and, for
 * the cost of a small answer, one customer. For each encoding: the body's bytes as sent,
 * then autocannon for DURATION seconds on CONNECTIONS connections.
 *
 *   node bench/compression.mjs        # CUSTOMERS=300 DURATION=5 CONNECTIONS=10
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
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

const CUSTOMERS = Number(process.env.CUSTOMERS ?? 300);
const DURATION = Number(process.env.DURATION ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const SECRET = 'bench-compression-secret-of-32-characters';
const BASE = '/eTech/rest/ws/referentials/v1/customers';
const PATHS = { 'customer list page': BASE, 'one customer': `${BASE}/code:C000001` };
const ENCODINGS = ['identity', 'gzip', 'br'];

/** The body as sent (not decoded) and its Content-Encoding. */
function raw(url, path, bearer, encoding) {
  return new Promise((resolve, reject) => {
    http
      .get(
        `${url}${path}`,
        { headers: { authorization: `Bearer ${bearer}`, 'accept-encoding': encoding } },
        (res) => {
          let bytes = 0;
          res.on('data', (d) => {
            bytes += d.length;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode, bytes, sent: res.headers['content-encoding'] ?? 'identity' }),
          );
        },
      )
      .on('error', reject);
  });
}

const load = (url, path, bearer, encoding, duration = DURATION) =>
  loadTest({
    url: `${url}${path}`,
    connections: CONNECTIONS,
    duration,
    headers: { authorization: `Bearer ${bearer}`, 'accept-encoding': encoding },
  });

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-compression-'));
const rows = [];
try {
  const env = {
    ...process.env,
    DATA_DIR: join(dir, 'data'),
    DATABASE_URL: '',
    FIELDWORK_RATE_LIMITS: UNLIMITED,
  };
  importDocument(
    dir,
    {
      offices: [{ code: 'BENCH', name: 'Bench office' }],
      applications: [
        { name: 'Bench', officeCode: 'BENCH', clientId: 'bench-compression', clientSecret: SECRET },
      ],
      customers: Array.from({ length: CUSTOMERS }, (_, i) => ({
        customerCode: `C${String(i).padStart(6, '0')}`,
        name: `Customer ${i}`,
        officeCode: 'BENCH',
        addressDetails: { address: `${i} bench street`, zipCode: '69002', city: 'Lyon', country: 'FR' },
        contact: { name: 'Desk', details: [{ type: 'Phone', value: '+33 4 00 00 00 00' }] },
      })),
    },
    env,
  );
  const { child, url } = await startService(env);
  try {
    const bearer = await clientToken(url, 'bench-compression', SECRET);
    await load(url, BASE, bearer, 'identity', 2); // warm-up: JIT, connection pool
    for (const [what, path] of Object.entries(PATHS)) {
      for (const encoding of ENCODINGS) {
        const one = await raw(url, path, bearer, encoding);
        if (one.status !== 200) throw new Error(`${path}: ${one.status}`);
        log(`${what} ${encoding}`);
        const r = await load(url, path, bearer, encoding);
        rows.push([
          what,
          encoding,
          one.sent,
          one.bytes,
          Math.round(r.requests.average),
          r.latency.p50,
          r.latency.p99,
        ]);
      }
    }
  } finally {
    await stopService(child);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `API answers per Accept-Encoding, ${CONNECTIONS} connections for ${DURATION} s each`,
  ['answer', 'Accept-Encoding', 'sent as', 'bytes', 'req/s', 'p50 ms', 'p99 ms'],
  rows,
);
