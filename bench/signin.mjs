#!/usr/bin/env node
/**
 * A flood of wrong passwords at the console's sign-in form, over HTTP against the real
 * service (issue 24, 3), while an integration asks for tokens.
 *
 *   1. Quiet: SAMPLES sequential client_credentials token requests; their p50.
 *   2. Flood: CLIENTS guessers, each from its own address (X-Forwarded-For, believed from
 *      loopback as from a proxy on the same machine), post wrong passwords for the demo
 *      logins and a few unknown ones during DURATION seconds, each on its own sign-in page;
 *      meanwhile the same token requests. Prints the guesses checked (401), the guesses
 *      refused unchecked (429) and the token endpoint's p50 during the flood.
 *
 * With the limits (FIELDWORK_LOGIN_LIMITS, default 5 a minute per login and 20 per
 * address) a guesser gets few checks: the p50 under the flood stays near the quiet one
 * (a refused guess costs no scrypt).
 *
 *   node bench/signin.mjs        # DURATION=10 CLIENTS=16 SAMPLES=30
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  basic,
  importDocument,
  log,
  median,
  printTable,
  startService,
  stopService,
} from './support/service.mjs';

const DURATION = Number(process.env.DURATION ?? 10);
const CLIENTS = Number(process.env.CLIENTS ?? 16);
const SAMPLES = Number(process.env.SAMPLES ?? 30);
const CLIENT_ID = 'bench-signin';
const CLIENT_SECRET = `bench-${randomBytes(16).toString('hex')}`;
const LOGINS = ['demo', 'viewer', 'planner', 'admin', 'backoffice', 'alice', 'bob', 'root', 'ops'];

/** A sign-in page of the console: its form's action and the browser's cookies. */
async function signInPage(url) {
  const verifier = randomBytes(32).toString('base64url');
  const q = new URLSearchParams({
    client_id: 'fieldwork-console',
    response_type: 'code',
    redirect_uri: `${url}/auth/callback`,
    scope: 'referentials:read',
    state: 's',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const res = await fetch(`${url}/oauth/auth?${q}`, { redirect: 'manual' });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { action: new URL(res.headers.get('location'), url).href, cookie };
}

async function tokenTime(url) {
  const started = performance.now();
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(CLIENT_ID, CLIENT_SECRET),
    },
    body: 'grant_type=client_credentials',
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`token: ${res.status}`);
  return performance.now() - started;
}

async function guesser(url, n, until, counts) {
  const page = await signInPage(url);
  const address = `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  for (let i = 0; Date.now() < until; i++) {
    const res = await fetch(page.action, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        cookie: page.cookie,
        'x-forwarded-for': address,
      },
      body: new URLSearchParams({ login: LOGINS[(n + i) % LOGINS.length], password: `guess-${i}` }),
    });
    await res.arrayBuffer();
    counts[res.status] = (counts[res.status] ?? 0) + 1;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-signin-'));
const rows = [];
try {
  const env = { ...process.env, DATA_DIR: join(dir, 'data'), DATABASE_URL: '', REDIS_URL: '' };
  importDocument(
    dir,
    {
      offices: [{ code: 'HQ', name: 'Head office' }],
      applications: [{ name: 'Bench', officeCode: 'HQ', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }],
      users: LOGINS.slice(0, 5).map((login) => ({ login, password: `${login}-password`, officeCode: 'HQ' })),
    },
    env,
  );
  const { child, url } = await startService(env);
  try {
    log('quiet token requests');
    await tokenTime(url);
    const quiet = [];
    for (let i = 0; i < SAMPLES; i++) quiet.push(await tokenTime(url));

    log(`flood: ${CLIENTS} guessers for ${DURATION} s`);
    const counts = {};
    const until = Date.now() + DURATION * 1000;
    const flood = Promise.all(Array.from({ length: CLIENTS }, (_, n) => guesser(url, n, until, counts)));
    const during = [];
    while (Date.now() < until) during.push(await tokenTime(url));
    await flood;

    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    rows.push(['wrong passwords posted', total]);
    rows.push(['checked (401)', counts[401] ?? 0]);
    rows.push(['refused unchecked (429)', counts[429] ?? 0]);
    rows.push(['other answers', total - (counts[401] ?? 0) - (counts[429] ?? 0)]);
    rows.push(['token endpoint p50, quiet, ms', median(quiet).toFixed(1)]);
    rows.push(['token endpoint p50 under the flood, ms', median(during).toFixed(1)]);
  } finally {
    await stopService(child);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `Sign-in flood: ${CLIENTS} guessers (one address each) for ${DURATION} s, default FIELDWORK_LOGIN_LIMITS`,
  ['figure', 'value'],
  rows,
);
