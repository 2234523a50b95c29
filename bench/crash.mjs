#!/usr/bin/env node
/**
 * Crash test: nothing acknowledged is lost when the service is killed, and every committed
 * event is delivered.
 *
 * For each database (DATABASES=pglite,postgres; PostgreSQL in a fresh database at
 * BENCH_DATABASE_URL when one answers), KILLS times: start the service, write customer
 * upserts (PUT, a new name each time) from WRITERS concurrent loops as fast as it answers,
 * and SIGKILL it at a random moment (KILL_AFTER_MS, default 300-1500 ms after the first write
 * of the round was answered). Then
 * a last start reads every customer back and checks that each holds the value of its last
 * write answered 201/204, or of a write sent after it that was never answered (it may have
 * committed just before the kill). Each writer owns its own customers and writes
 * them one at a time, so "the last acknowledged value" of a customer is well defined.
 *
 * Events: the application subscribes a webhook receiver on loopback (in this process) to
 * asset.upsert, and each writer also upserts the asset of the same code after each customer
 * write. After the last start, once no callback is pending: every event in the delivery log
 * (committed: written in the transaction of its change) has arrived at the receiver, and
 * each asset has at least as many distinct callbacks as it had writes answered 201/204.
 *
 * Prints a table, then one JSON line per database: {database, kills, acknowledged, lost,
 * eventsCommitted, eventsDelivered, eventsMissing}; exits 1 when a write or an event is
 * lost. src/server/crash.*.test.ts run it with KILLS=3 in CI.
 *
 *   node bench/crash.mjs                  # KILLS=20 WRITERS=8 CUSTOMERS=64
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clientToken,
  importDocument,
  log,
  PG_URL,
  postgresAnswers,
  printTable,
  startService,
  UNLIMITED,
  withScratchDatabase,
} from './support/service.mjs';

const KILLS = Number(process.env.KILLS ?? 20);
const WRITERS = Number(process.env.WRITERS ?? 8);
const CUSTOMERS = Math.max(WRITERS, Number(process.env.CUSTOMERS ?? 64));
const [KILL_MIN, KILL_MAX] = (process.env.KILL_AFTER_MS ?? '300-1500').split('-').map(Number);
const DATABASES = (process.env.DATABASES ?? 'pglite,postgres').split(',');
const PATH = '/eTech/rest/ws/referentials/v1/customers/code:';
const ASSETS = '/eTech/rest/ws/referentials/v1/assets/code:';
const SUBSCRIPTIONS = '/rest/ws/webhooks/v1/subscriptions';
/** How long the last start may take to deliver what is pending (leases of killed deliveries end first). */
const DELIVERY_WAIT_MS = Number(process.env.DELIVERY_WAIT_MS ?? 120_000);
const CLIENT_ID = 'crash';
const CLIENT_SECRET = `crash-${randomBytes(16).toString('hex')}`;
const code = (i) => `CRASH${String(i).padStart(4, '0')}`;

const dataset = () => ({
  offices: [{ code: 'CRASH', name: 'Crash test office' }],
  applications: [
    { name: 'Crash test', officeCode: 'CRASH', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
  ],
});

/**
 * Per customer: the last acknowledged value (`v<n>`, n increasing with every write sent)
 * and the number of writes sent. A write sent after the last acknowledged one and never
 * answered may have committed (the kill came between its commit and its answer): the
 * customer then holds a later value, which is not a loss.
 */
function newLedger() {
  return Array.from({ length: CUSTOMERS }, () => ({ acked: undefined, seq: 0, assetAcked: 0 }));
}

/** The webhook receiver: distinct callback ids, and per asset code the distinct ids of its callbacks. */
async function startReceiver() {
  const ids = new Set();
  const byAsset = new Map();
  let duplicates = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        if (ids.has(body.id)) duplicates++;
        ids.add(body.id);
        const code = body.data?.assetCode;
        if (code) {
          if (!byAsset.has(code)) byAsset.set(code, new Set());
          byAsset.get(code).add(body.id);
        }
      } catch {}
      res.writeHead(200).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/crash`,
    ids,
    byAsset,
    duplicates: () => duplicates,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

/** Every delivery of the subscription in the log (all pages), once none is pending. */
async function deliveryLog(url, bearer, subscriptionId) {
  const headers = { authorization: `Bearer ${bearer}` };
  const deadline = Date.now() + DELIVERY_WAIT_MS;
  for (;;) {
    const res = await fetch(`${url}${SUBSCRIPTIONS}/${subscriptionId}/deliveries?status=pending`, {
      headers,
    });
    if ((await res.json()).data.length === 0) break;
    if (Date.now() > deadline) break; // what is still pending counts as missing
    await new Promise((r) => setTimeout(r, 200));
  }
  const all = [];
  let token;
  do {
    const q = token ? `?continuationToken=${encodeURIComponent(token)}` : '';
    const res = await fetch(`${url}${SUBSCRIPTIONS}/${subscriptionId}/deliveries${q}`, { headers });
    if (res.status !== 200) throw new Error(`delivery log: ${res.status} ${await res.text()}`);
    const page = await res.json();
    all.push(...page.data);
    token = page.continuationToken;
  } while (token);
  return all;
}
const seqOf = (value) =>
  typeof value === 'string' && /^v\d+$/.test(value) ? Number(value.slice(1)) : undefined;

async function writeUntilKilled(url, bearer, ledger, stats) {
  let alive = true;
  const writer = async (w) => {
    for (let i = w; alive; i = i + WRITERS >= CUSTOMERS ? w : i + WRITERS) {
      const entry = ledger[i];
      const value = `v${++entry.seq}`;
      let res;
      try {
        res = await fetch(`${url}${PATH}${code(i)}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: value, addressDetails: { city: 'Lyon' } }),
        });
        await res.arrayBuffer();
      } catch {
        // The service died with this write in flight: it may or may not have committed.
        alive = false;
        return;
      }
      if (res.status === 201 || res.status === 204) {
        entry.acked = value;
        stats.acknowledged++;
      } else stats.refused++;
      // The asset of the same code: its event is committed with it.
      try {
        res = await fetch(`${url}${ASSETS}${code(i)}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: value }),
        });
        await res.arrayBuffer();
      } catch {
        alive = false;
        return;
      }
      if (res.status === 201 || res.status === 204) {
        entry.assetAcked++;
        stats.assetsAcknowledged++;
      } else stats.refused++;
    }
  };
  return {
    done: Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w))),
    stop: () => {
      alive = false;
    },
  };
}

async function run(database, dbEnv, dir) {
  // As fast as the service answers: the rate limits are lifted; callbacks to loopback.
  const env = { ...dbEnv, FIELDWORK_RATE_LIMITS: UNLIMITED, FIELDWORK_WEBHOOKS_ALLOW_PRIVATE: '1' };
  importDocument(dir, dataset(), env);
  const ledger = newLedger();
  const stats = { acknowledged: 0, assetsAcknowledged: 0, refused: 0 };
  const receiver = await startReceiver();
  let subscriptionId;
  try {
    for (let k = 0; k < KILLS; k++) {
      const { child, url } = await startService(env);
      const bearer = await clientToken(url, CLIENT_ID, CLIENT_SECRET);
      if (!subscriptionId) {
        const res = await fetch(`${url}${SUBSCRIPTIONS}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({ eventTypes: ['asset.upsert'], callbackUrl: receiver.url }),
        });
        if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
        subscriptionId = (await res.json()).subscriptionId;
      }
      const acknowledgedBefore = stats.acknowledged;
      const writing = await writeUntilKilled(url, bearer, ledger, stats);
      // The kill lands while writes are being answered: after the first one of this round
      // (a start on a loaded machine can take longer than the kill delay), then a random delay.
      for (let i = 0; i < 200 && stats.acknowledged === acknowledgedBefore; i++)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, KILL_MIN + Math.random() * (KILL_MAX - KILL_MIN)));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      await writing.done;
      writing.stop();
      log(`${database}: kill ${k + 1}/${KILLS}, ${stats.acknowledged} writes acknowledged so far`);
    }
    // Read everything back from a service started on what the kills left.
    const { child, url } = await startService(env);
    let lost = 0;
    const events = { committed: 0, delivered: 0, missing: 0, lostForAcknowledged: 0, failed: 0 };
    try {
      const bearer = await clientToken(url, CLIENT_ID, CLIENT_SECRET);
      // Events: what the log holds was committed; each must have reached the receiver.
      const log_ = await deliveryLog(url, bearer, subscriptionId);
      events.committed = log_.length;
      events.failed = log_.filter((d) => d.status === 'failed').length;
      for (const d of log_) {
        if (receiver.ids.has(d.deliveryId)) events.delivered++;
        else {
          events.missing++;
          if (events.missing <= 5) log(`${database}: event ${d.deliveryId} (${d.status}) never arrived`);
        }
      }
      // And each acknowledged asset write has its event among them.
      for (let i = 0; i < CUSTOMERS; i++) {
        const got = receiver.byAsset.get(code(i))?.size ?? 0;
        if (got < ledger[i].assetAcked) {
          events.lostForAcknowledged += ledger[i].assetAcked - got;
          log(
            `${database}: asset ${code(i)}: ${ledger[i].assetAcked} writes acknowledged, ${got} events delivered`,
          );
        }
      }
      for (let i = 0; i < CUSTOMERS; i++) {
        const { acked, seq } = ledger[i];
        if (acked === undefined) continue; // nothing acknowledged, nothing to lose
        const res = await fetch(`${url}${PATH}${code(i)}`, {
          headers: { authorization: `Bearer ${bearer}` },
        });
        const stored = res.status === 200 ? (await res.json()).name : undefined;
        const n = seqOf(stored);
        // Lost: missing, older than the last acknowledged write, or a value never sent.
        if (n !== undefined && n >= seqOf(acked) && n <= seq) continue;
        lost++;
        log(`${database}: ${code(i)} holds ${stored ?? 'nothing'}, last acknowledged ${acked}`);
      }
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    return {
      database,
      kills: KILLS,
      acknowledged: stats.acknowledged + stats.assetsAcknowledged,
      refused: stats.refused,
      lost,
      eventsCommitted: events.committed,
      eventsDelivered: events.delivered,
      eventsMissing: events.missing + events.lostForAcknowledged,
      redelivered: receiver.duplicates(),
    };
  } finally {
    await receiver.close();
  }
}

const results = [];
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-crash-'));
try {
  if (DATABASES.includes('pglite')) {
    const env = {
      ...process.env,
      DATA_DIR: join(dir, 'data'),
      DATABASE_URL: '',
      FIELDWORK_WORKERS: '',
      LOG_LEVEL: 'warn',
    };
    results.push(await run('PGlite', env, dir));
  }
  if (DATABASES.includes('postgres')) {
    if (await postgresAnswers()) {
      await withScratchDatabase('fieldwork_crash', async (url) => {
        const env = { ...process.env, DATABASE_URL: url, FIELDWORK_WORKERS: '', LOG_LEVEL: 'warn' };
        results.push(await run('PostgreSQL', env, dir));
      });
    } else log(`no PostgreSQL answers at ${PG_URL}: PGlite only`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `Crash test: ${WRITERS} writers, SIGKILL after ${KILL_MIN}-${KILL_MAX} ms of writing, ${KILLS} times`,
  [
    'database',
    'kills',
    'writes acknowledged',
    'refused',
    'lost',
    'events committed',
    'delivered',
    'missing',
    'sent again (same id)',
  ],
  results.map((r) => [
    r.database,
    r.kills,
    r.acknowledged,
    r.refused,
    r.lost,
    r.eventsCommitted,
    r.eventsDelivered,
    r.eventsMissing,
    r.redelivered,
  ]),
);
for (const r of results) console.log(JSON.stringify(r));
process.exitCode = results.some((r) => r.lost > 0 || r.eventsMissing > 0 || r.eventsCommitted === 0) ? 1 : 0;
