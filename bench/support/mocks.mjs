/**
 * The mocks the benchmarks compare Fieldwork with (bench/compare.mjs, bench/prismExamples.mjs):
 * Prism mocking Fieldwork's own /openapi.json and json-server, installed with
 * `npm install --prefix <tmp>` (kept in $TMPDIR/fieldwork-bench-mocks for the next run), and
 * the check that Prism answers every operation with the document's example.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { freePort, log } from './service.mjs';

const PRISM_VERSION = process.env.PRISM_VERSION ?? '5';
const JSON_SERVER_VERSION = process.env.JSON_SERVER_VERSION ?? '0.17';

export function installMocks() {
  const dir = join(tmpdir(), 'fieldwork-bench-mocks');
  const prism = join(dir, 'node_modules/@stoplight/prism-cli/dist/index.js');
  const jsonServer = join(dir, 'node_modules/json-server/lib/cli/bin.js');
  if (!existsSync(prism) || !existsSync(jsonServer)) {
    mkdirSync(dir, { recursive: true });
    log(
      `installing @stoplight/prism-cli@${PRISM_VERSION} and json-server@${JSON_SERVER_VERSION} into ${dir}`,
    );
    const res = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        dir,
        '--no-audit',
        '--no-fund',
        '--no-save',
        `@stoplight/prism-cli@${PRISM_VERSION}`,
        `json-server@${JSON_SERVER_VERSION}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    if (res.status !== 0) throw new Error('npm install of the mocks failed');
  }
  return { prism, jsonServer };
}

async function waitFor(child, text, what) {
  let out = '';
  const collect = (d) => {
    out += d;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited: ${out}`);
    if (text.test(out)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start in 120 s: ${out.slice(-2000)}`);
}

/** Starts `node <args(port)>` on a free port; resolves once its output matches `ready`. */
export async function spawnTarget(name, args, ready, env = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, args(port), {
    cwd: tmpdir(),
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitFor(child, ready, name);
  // Keep reading its output so it never blocks on a full pipe.
  child.stdout.resume();
  child.stderr.resume();
  return { child, url: `http://127.0.0.1:${port}` };
}

/**
 * Sends every operation of `doc` to the mock at `url` as its example request (path and
 * query parameters' `example`, the body's `examples.demo`) and compares the answer with the
 * example answer (the status that carries it, or the only success status, and its body).
 * Resolves with the counts and a line per operation answered otherwise.
 */
export async function checkExamples(url, doc) {
  let operations = 0;
  let matched = 0;
  const mismatches = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      operations++;
      const params = op.parameters ?? [];
      const filled = path.replace(/\{(\w+)\}/g, (_m, name) =>
        encodeURIComponent(String(params.find((p) => p.in === 'path' && p.name === name)?.example)),
      );
      const query = new URLSearchParams();
      for (const p of params)
        if (p.in === 'query' && p.example !== undefined) query.set(p.name, String(p.example));
      const body = op.requestBody?.content?.['application/json']?.examples?.demo?.value;
      const successes = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
      const [status, answer] =
        successes.find(([, r]) => r.content?.['application/json']?.examples) ?? successes[0];
      const expected = answer.content?.['application/json']?.examples?.demo?.value;
      const res = await fetch(`${url}${filled}${query.size ? `?${query}` : ''}`, {
        method: method.toUpperCase(),
        headers: {
          authorization: 'Bearer mock',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let got;
      try {
        got = text ? JSON.parse(text) : undefined;
      } catch {
        got = text;
      }
      if (String(res.status) === status && isDeepStrictEqual(got, expected)) matched++;
      else
        mismatches.push(
          `${op.operationId}: expected ${status} ${JSON.stringify(expected)?.slice(0, 80)}, got ${res.status} ${text.slice(0, 160)}`,
        );
    }
  }
  return { operations, matched, mismatches };
}
