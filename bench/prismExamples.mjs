#!/usr/bin/env node
/**
 * A mock of the API made from the document alone (issue 25 §4): Prism (@stoplight/prism-cli,
 * installed into a temporary folder by bench/support/mocks.mjs) serves Fieldwork's own
 * /openapi.json, and every operation is sent to it as its example request. Each must be
 * answered with its example answer (the demo dataset's, src/contract/examples.json): the
 * status and the body. Prints the count and each operation answered otherwise; exits 1 when
 * one is. bench/compare.mjs makes the same check on the Prism it measures.
 *
 *   node bench/prismExamples.mjs
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkExamples, installMocks, spawnTarget } from './support/mocks.mjs';
import { log, startService, stopService } from './support/service.mjs';

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-prism-'));
let service;
let prism;
try {
  const mocks = installMocks();
  service = await startService({
    ...process.env,
    DATA_DIR: join(dir, 'data'),
    DATABASE_URL: '',
    REDIS_URL: '',
  });
  const doc = await (await fetch(`${service.url}/openapi.json`)).json();
  const spec = join(dir, 'openapi.json');
  writeFileSync(spec, JSON.stringify(doc));
  prism = await spawnTarget(
    'Prism',
    (port) => [mocks.prism, 'mock', '-h', '127.0.0.1', '-p', String(port), spec],
    /Prism is listening/,
  );
  const { operations, matched, mismatches } = await checkExamples(prism.url, doc);
  console.log(`\nPrism answered ${matched} of ${operations} operations with their example answer`);
  for (const line of mismatches) console.log(`  ${line}`);
  process.exitCode = mismatches.length > 0 ? 1 : 0;
} finally {
  prism?.child.kill('SIGTERM');
  if (service) await stopService(service.child);
  rmSync(dir, { recursive: true, force: true });
  log('done');
}
