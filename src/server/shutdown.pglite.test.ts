/**
 * Graceful shutdown of the real process (src/server/main.ts as npm start runs it, on a
 * PGlite data directory): on SIGTERM it stops accepting connections, the request in
 * flight (a client still sending its body) completes and is committed, the webhook
 * delivery in flight (a receiver slow to answer) completes and is recorded, then the
 * process exits 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { putAsset, putCustomer } from '../contract/referentials.ts';
import { createSubscription } from '../contract/webhooks.ts';
import { openDatabase } from './db/index.ts';
import { NO_RATE_LIMITS, type Receiver, startReceiver } from './domains/webhooks/testReceiver.ts';
import { pathOf } from './testing/api.ts';
import { runCapturedCli } from './testing/cli.ts';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-shutdown-'));
const dataDir = join(dir, 'data');
const SECRET = `secret-${randomBytes(16).toString('hex')}`;
/** How long the receiver takes to answer the callback that is in flight at SIGTERM. */
const RECEIVER_DELAY_MS = 4000;
let receiver: Receiver;
let child: ChildProcess | undefined;

beforeAll(async () => {
  receiver = await startReceiver(() => ({ delayMs: RECEIVER_DELAY_MS }));
  const file = join(dir, 'import.json');
  writeFileSync(
    file,
    JSON.stringify({
      offices: [{ code: 'HQ', name: 'Head office' }],
      applications: [{ name: 'Shutdown', officeCode: 'HQ', clientId: 'shutdown', clientSecret: SECRET }],
    }),
  );
  const imported = await runCapturedCli(['import', file], { config: { dataDir } });
  expect(imported.code, imported.stderr).toBe(0);
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Sends the head of a request with `Expect: 100-continue` and, once the service has read it
 * (its `100 Continue`), part of the body; `finish()` sends the rest and resolves with the
 * final answer. The client never half-closes (Node's HTTP server takes a FIN as the request
 * aborted); `Connection: close` has the service close the connection once it has answered.
 */
async function slowRequest(port: number, path: string, bearer: string, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  let headRead: () => void;
  const continued = new Promise<void>((resolve) => {
    headRead = resolve;
  });
  socket.on('data', (d) => {
    answer += d;
    if (answer.startsWith('HTTP/1.1 100')) headRead();
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${bearer}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
  );
  await Promise.race([continued, closed]);
  socket.write(body.slice(0, 10));
  return {
    async finish() {
      socket.write(body.slice(10));
      await closed;
      const statuses = [...answer.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
      return { status: statuses.at(-1), text: answer };
    },
  };
}

it('on SIGTERM: stops accepting, finishes the request and the delivery in flight, exits 0', async () => {
  const port = await new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(p));
    });
  });
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      FIELDWORK_NO_DEMO: '1',
      // Room for a loaded machine: the test ends the request in flight itself.
      FIELDWORK_SHUTDOWN_TIMEOUT: '60',
      FIELDWORK_WEBHOOKS_ALLOW_PRIVATE: '1',
      FIELDWORK_RATE_LIMITS: JSON.stringify(NO_RATE_LIMITS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let out = '';
  let err = '';
  proc.stdout?.on('data', (d) => {
    out += d;
  });
  proc.stderr?.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    proc.on('exit', (code) => resolve({ code, at: Date.now() })),
  );
  for (let i = 0; i < 1200 && !err.includes('Fieldwork is running'); i++) {
    if (proc.exitCode !== null) throw new Error(`the service exited: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const base = `http://127.0.0.1:${port}`;
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  const tokenRes = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`shutdown:${SECRET}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  const bearer = (await tokenRes.json()).access_token as string;
  const json = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
  const sub = await fetch(`${base}${createSubscription.path}`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ eventTypes: ['asset.upsert'], callbackUrl: `${receiver.url}/slow` }),
  });
  expect(sub.status).toBe(201);
  const asset = await fetch(`${base}${pathOf(putAsset, { assetCode: 'SHUTDOWN' })}`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({ name: 'In flight at SIGTERM' }),
  });
  expect(asset.status).toBe(201);

  // In flight: the callback (the receiver answers 4 s after it arrived) and a request
  // whose body is not all sent.
  const [callback] = await receiver.waitFor(1, (r) => r.url === '/slow');
  // The service has read the request's head (a connection with no request begun is idle
  // and closed at shutdown); the callback is still in flight (answered after 4 s).
  const slow = await slowRequest(
    port,
    pathOf(putCustomer, { customerCode: 'SHUTDOWN' }),
    bearer,
    JSON.stringify({ name: 'Sent across SIGTERM', addressDetails: { city: 'Lyon' } }),
  );
  proc.kill('SIGTERM');

  // No new connection is accepted, once the signal is handled (a loaded machine may take a
  // while: polled, within the time the request in flight holds the process alive).
  let refused = false;
  for (let i = 0; i < 100 && !refused; i++) {
    refused = await fetch(`${base}/healthz`).then(
      () => false,
      () => true,
    );
    if (!refused) await new Promise((r) => setTimeout(r, 100));
  }
  expect(refused).toBe(true);
  expect(proc.exitCode).toBe(null);

  // The request in flight completes (committed: 201), on the connection it came on.
  const answer = await slow.finish();
  expect(answer.status, `${answer.text}\n${err}${out.slice(-2000)}`).toBe(201);

  const { code, at } = await exited;
  expect(code, `${err}${out.slice(-2000)}`).toBe(0);
  // It waited for the receiver's answer before exiting.
  expect(at - callback.at).toBeGreaterThanOrEqual(RECEIVER_DELAY_MS - 50);
  expect(out).toContain('"msg":"shutting down"');
  // The last request's log line is out too: lines written in batches (app.ts) are flushed
  // before the process exits.
  expect(out).toMatch(
    /"url":"\/eTech\/rest\/ws\/referentials\/v1\/customers\/code:SHUTDOWN"[^\n]*"statusCode":201/,
  );

  // What it left: the customer committed, the callback recorded delivered in one attempt.
  const dbh = await openDatabase({ dataDir });
  try {
    const customer = await dbh.db
      .selectFrom('customers')
      .select('name')
      .where('code', '=', 'SHUTDOWN')
      .executeTakeFirst();
    expect(customer?.name).toBe('Sent across SIGTERM');
    const deliveries = await dbh.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).execute();
    expect(deliveries).toEqual([{ status: 'delivered', attempts: 1 }]);
  } finally {
    await dbh.close();
  }
  expect(receiver.received.filter((r) => r.url === '/slow')).toHaveLength(1);
}, 120_000);
