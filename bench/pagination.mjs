#!/usr/bin/env node
/**
 * Keyset pagination depth: page 1000 of the items list must cost what page 1 costs.
 *
 * Builds the service in-process (the test harness: real routes, auth, validation, tokens)
 * on a temporary PGlite data directory, and on PostgreSQL too when one answers at
 * 127.0.0.1:5432 (or BENCH_DATABASE_URL), bulk-inserts 200 000 items, walks the
 * continuationTokens to pages 10, 100 and 1000, then times each of pages 1, 10, 100 and
 * 1000 separately, interleaved (REPS requests each after 3 warm-up rounds; median and p95). For contrast it also times the
 * same page read with OFFSET straight in SQL, which the service never does.
 *
 *   node bench/pagination.mjs            # ITEMS=200000 REPS=50 by default
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { register } from 'tsx/esm/api';

register();
const { createTestApp } = await import('../src/server/testing/harness.ts');
const { sql } = await import('kysely');

const ITEMS = Number(process.env.ITEMS ?? 200_000);
const REPS = Number(process.env.REPS ?? 50);
const PAGE_SIZE = 200;
const PAGES = [1, 10, 100, 1000].filter((p) => (p - 1) * PAGE_SIZE < ITEMS);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const UNLIMITED = Object.fromEntries(
  ['high', 'standard', 'low'].map((r) => [r, { perMinute: 1e9, perHour: 1e9 }]),
);
const PATH = '/eTech/rest/ws/businessOrganization/v1/items';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const ms = (x) => x.toFixed(2).padStart(8);

function portOpen(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 500 }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

async function run(label, overrides) {
  const t0 = performance.now();
  const t = await createTestApp({ ...overrides, rateLimits: UNLIMITED });
  try {
    await sql`
      INSERT INTO items (code, name, category, unit, unit_price, reference, custom_fields)
      SELECT 'IT' || lpad(g::text, 7, '0'), 'Item ' || g, (ARRAY['Tools','Parts','Pumps'])[1 + g % 3],
             'piece', (g % 1000) / 10.0, 'REF-' || g, '{}'::jsonb
      FROM generate_series(1, ${ITEMS}::int) g`.execute(t.db);
    await sql`ANALYZE items`.execute(t.db);
    const loaded = performance.now();

    // Walk the tokens once to learn the token of each measured page.
    const tokenOf = new Map([[1, undefined]]);
    let token;
    const last = Math.max(...PAGES);
    for (let page = 1; page < last; page++) {
      const res = await t.call(
        'GET',
        token ? `${PATH}?continuationToken=${encodeURIComponent(token)}` : PATH,
      );
      token = res.json().continuationToken;
      if (PAGES.includes(page + 1)) tokenOf.set(page + 1, token);
    }
    const walked = performance.now();

    // Interleaved: each round requests every measured page once, so a load spike on the
    // machine lands on all pages alike instead of on whichever page was being timed.
    const url = (page) =>
      tokenOf.get(page) ? `${PATH}?continuationToken=${encodeURIComponent(tokenOf.get(page))}` : PATH;
    const after = (page) => (page === 1 ? '' : `IT${String((page - 1) * PAGE_SIZE).padStart(7, '0')}`);
    const m = Object.fromEntries(PAGES.map((p) => [p, { http: [], keyset: [], offset: [], first: '' }]));
    const time = async (fn) => {
      const start = performance.now();
      await fn();
      return performance.now() - start;
    };
    for (let round = 0; round < REPS + 3; round++) {
      const warm = round < 3;
      for (const page of PAGES) {
        const http = await time(async () => {
          const res = await t.call('GET', url(page));
          if (res.statusCode !== 200) throw new Error(`page ${page}: ${res.statusCode} ${res.body}`);
          m[page].first ||= res.json().data[0].itemCode;
        });
        const keyset = await time(() =>
          sql`SELECT * FROM items WHERE code > ${after(page)} ORDER BY code LIMIT ${PAGE_SIZE + 1}`.execute(
            t.db,
          ),
        );
        const offset =
          round < 13
            ? await time(() =>
                sql`SELECT * FROM items ORDER BY code LIMIT ${PAGE_SIZE + 1} OFFSET ${(page - 1) * PAGE_SIZE}`.execute(
                  t.db,
                ),
              )
            : undefined;
        if (warm) continue;
        m[page].http.push(http);
        m[page].keyset.push(keyset);
        if (offset !== undefined) m[page].offset.push(offset);
      }
    }
    const rows = PAGES.map((page) => ({
      page,
      first: m[page].first,
      median: median(m[page].http),
      p95: p95(m[page].http),
      keyset: median(m[page].keyset),
      offset: median(m[page].offset),
    }));
    // The console's extensions on the same data (not part of the depth claim).
    const ext = [
      ['items?category=Tools (page 1)', `${PATH}?category=Tools`],
      ['items?q=IT01999 (substring, rare)', `${PATH}?q=IT01999`],
      ['items?q=item (substring, common)', `${PATH}?q=item`],
      ['items?active=false (no match: full walk)', `${PATH}?active=false`],
      ['itemCategories', '/eTech/rest/ws/businessOrganization/v1/itemCategories'],
    ];
    const extRows = [];
    for (const [name, u] of ext) {
      const times = [];
      for (let i = 0; i < Math.min(REPS, 15) + 2; i++) {
        const elapsed = await time(async () => {
          const res = await t.call('GET', u);
          if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
        });
        if (i >= 2) times.push(elapsed);
      }
      extRows.push([name, median(times)]);
    }
    const plan =
      await sql`EXPLAIN SELECT * FROM items WHERE code > ${'IT0199800'} ORDER BY code LIMIT 201`.execute(
        t.db,
      );

    console.log(
      `\n${label}: ${ITEMS} items (setup ${((loaded - t0) / 1000).toFixed(1)} s, token walk to page ${last} ${((walked - loaded) / 1000).toFixed(1)} s)`,
    );
    console.log(
      '  page | first itemCode | HTTP median ms | HTTP p95 ms | SQL keyset median ms | SQL OFFSET median ms (contrast)',
    );
    for (const r of rows)
      console.log(
        `  ${String(r.page).padStart(4)} | ${r.first.padEnd(14)} | ${ms(r.median)}       | ${ms(r.p95)}    | ${ms(r.keyset)}             | ${ms(r.offset)}`,
      );
    for (const [name, med] of extRows) console.log(`  extension ${name.padEnd(42)} median ${ms(med)} ms`);
    console.log(`  keyset plan: ${plan.rows.map((r) => r['QUERY PLAN']).join(' / ')}`);
  } finally {
    await t.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-'));
const savedUrl = process.env.TEST_DATABASE_URL;
try {
  delete process.env.TEST_DATABASE_URL;
  await run('PGlite (temp data dir)', { dataDir: dir });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const url = new URL(PG_URL);
if (await portOpen(url.hostname, Number(url.port || 5432))) {
  process.env.TEST_DATABASE_URL = PG_URL;
  await run(`PostgreSQL (${url.host})`, {});
  if (savedUrl === undefined) delete process.env.TEST_DATABASE_URL;
} else {
  console.log(`\nPostgreSQL: nothing answers at ${url.host}, skipped`);
}
process.exit(0);
