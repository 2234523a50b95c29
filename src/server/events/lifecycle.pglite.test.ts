/**
 * The worker's life with the service, on a PGlite data directory:
 *  - a graceful close waits for the delivery in flight and records it before the database
 *    closes;
 *  - after a SIGKILL of the service (src/server/main.ts as npm start runs it) and a restart,
 *    every committed event is delivered: those never attempted at once, those that were in
 *    flight once their lease is over (again, with the same callback id).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../contract/endpoint.ts';
import { putAsset } from '../../contract/referentials.ts';
import { createSubscription } from '../../contract/webhooks.ts';
import { buildApp } from '../app.ts';
import { NO_RATE_LIMITS, type Receiver, startReceiver } from '../domains/webhooks/testReceiver.ts';
import { type ApiOptions, urlOf } from '../testing/api.ts';
import { createTestApp } from '../testing/harness.ts';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-webhooks-'));
const dataDir = join(dir, 'data');
const children: ChildProcess[] = [];
let receiver: Receiver;
/** Answers of the receiver: 'hang' keeps requests waiting (a slow receiver). */
let mode: 'ok' | 'slow' | 'hang' = 'ok';

beforeAll(async () => {
  receiver = await startReceiver(() =>
    mode === 'hang' ? { delayMs: 120_000 } : mode === 'slow' ? { delayMs: 400 } : { status: 200 },
  );
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('delivery worker lifecycle', () => {
  it('a graceful close finishes and records the delivery in flight', async () => {
    const t = await createTestApp({
      dataDir,
      rateLimits: NO_RATE_LIMITS,
      webhooks: { worker: true, allowPrivate: true, timeScale: 1, concurrency: 4 },
    });
    const sub = await t.api(createSubscription, {
      body: { eventTypes: ['asset.upsert'], callbackUrl: `${receiver.url}/graceful` },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    mode = 'slow';
    expect((await t.api(putAsset, { params: { assetCode: 'GRACE' }, body: { name: 'g' } })).statusCode).toBe(
      201,
    );
    const [got] = await receiver.waitFor(1, (r) => r.url === '/graceful');
    await t.app.close();
    // The close waited for the answer (400 ms after the request arrived).
    expect(Date.now() - got.at).toBeGreaterThanOrEqual(350);

    const reopened = await buildApp({ ...t.config, webhooks: undefined }, { logger: false });
    try {
      const row = await reopened.fieldwork.dbh.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status', 'attempts', 'last_status_code'])
        .where('subscription_id', '=', sub.json().subscriptionId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ id: got.json.id, status: 'delivered', attempts: 1, last_status_code: 200 });
    } finally {
      await reopened.close();
    }
  }, 120_000);

  it('after a SIGKILL and a restart, every committed event is delivered', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const url = `http://127.0.0.1:${port}`;
    const start = () => {
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          PORT: String(port),
          PUBLIC_URL: url,
          LOG_LEVEL: 'warn',
          FIELDWORK_RATE_LIMITS: JSON.stringify(NO_RATE_LIMITS),
          FIELDWORK_WEBHOOKS_ALLOW_PRIVATE: '1',
          // Timeout 1 s, lease 7 s.
          FIELDWORK_WEBHOOKS_TIME_SCALE: '0.2',
          FIELDWORK_WEBHOOKS_CONCURRENCY: '2',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      children.push(child);
      let stderr = '';
      child.stderr?.on('data', (d) => {
        stderr += d;
      });
      const ready = (async () => {
        for (let i = 0; i < 1200; i++) {
          if (stderr.includes('Fieldwork is running')) return;
          if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${stderr}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`not ready: ${stderr}`);
      })();
      return { child, ready };
    };
    /** A row of the contract, called over HTTP on the child process (it has no t.api). */
    const api = async <E extends Endpoint>(token: string, endpoint: E, opts: ApiOptions<E>) =>
      fetch(`${url}${urlOf(endpoint, opts)}`, {
        method: endpoint.method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
    const token = async () => {
      const res = await fetch(`${url}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from('root:secret-root').toString('base64')}`,
        },
        body: 'grant_type=client_credentials',
      });
      expect(res.status).toBe(200);
      return (await res.json()).access_token as string;
    };

    const first = start();
    await first.ready;
    const bearer = await token();
    const sub = await api(bearer, createSubscription, {
      body: { eventTypes: ['asset.upsert'], callbackUrl: `${receiver.url}/crash` },
    });
    expect(sub.status).toBe(201);
    mode = 'hang';
    const codes = Array.from({ length: 6 }, (_, i) => `CRASH-${i}`);
    for (const code of codes)
      expect(
        (await api(bearer, putAsset, { params: { assetCode: code }, body: { name: code } })).status,
      ).toBe(201);
    // Two callbacks in flight (concurrency 2), four waiting: kill the service now.
    const inFlight = await receiver.waitFor(2, (r) => r.url === '/crash');
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    mode = 'ok';

    const second = start();
    await second.ready;
    const all = await receiver.waitFor(6 + inFlight.length, (r) => r.url === '/crash', 60_000);
    const delivered = new Map(all.map((r) => [r.json.data.assetCode as string, r.json.id as string]));
    expect([...delivered.keys()].sort()).toEqual(codes);
    // The ones in flight at the kill came again with the same callback id.
    for (const r of inFlight) expect(delivered.get(r.json.data.assetCode)).toBe(r.json.id);
    expect(new Set(all.map((r) => r.json.id)).size).toBe(6);

    second.child.kill('SIGTERM');
    expect(await new Promise((r) => second.child.once('exit', r))).toBe(0);
  }, 240_000);
});
