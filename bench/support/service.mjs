/**
 * What the benchmarks share: a free port, a scratch PostgreSQL database, an import through
 * `fieldwork import`, the real service (src/server/main.ts) as a child process, a
 * client_credentials token, a table.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { serverBuildIsStale } from '../../scripts/build-server.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const log = (line) => process.stderr.write(`[bench] ${line}\n`);
export const UNLIMITED = JSON.stringify(
  Object.fromEntries(['high', 'standard', 'low'].map((r) => [r, { perMinute: 1e9, perHour: 1e9 }])),
);

/** The PostgreSQL server the benchmarks create their databases on. */
export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether a PostgreSQL server answers at PG_URL (within a second). */
export async function postgresAnswers() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** Runs `fn` with the URL of a new database on PG_URL's server, dropped afterwards. */
export async function withScratchDatabase(prefix, fn) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    return await fn(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

export function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Writes `document` to `dir` and imports it with the command line (env: DATA_DIR or
 * DATABASE_URL) of `checkout` (this one by default: another's migrates its own schema).
 */
export function importDocument(dir, document, env, checkout = root) {
  const file = join(dir, 'bench-import.json');
  writeFileSync(file, JSON.stringify(document));
  const imported = spawnSync(process.execPath, [join(checkout, 'bin/fieldwork.mjs'), 'import', file], {
    cwd: checkout,
    env,
    encoding: 'utf8',
  });
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}${imported.stdout}`);
}

/**
 * The service's entry: the compiled one (`npm run build`, what production runs) when it is
 * built, else the TypeScript through tsx.
 */
export function serviceEntry() {
  const built = join(root, 'dist/server/main.js');
  return existsSync(built) && !serverBuildIsStale()
    ? [built]
    : ['--import', 'tsx', join(root, 'src/server/main.ts')];
}

/**
 * Starts the service on a free port; resolves once it prints its ready line. `checkout`:
 * another checkout's built service (bench/getCpu.mjs: a baseline), this one's by default.
 */
export async function startService(env, { nodeArgs = [], checkout } = {}) {
  const port = await freePort();
  const entry = checkout ? [join(checkout, 'dist/server/main.js')] : serviceEntry();
  const child = spawn(process.execPath, [...nodeArgs, ...entry], {
    cwd: checkout ?? root,
    env: { LOG_LEVEL: 'warn', FIELDWORK_NO_DEMO: '1', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited: ${stderr}`);
    if (stderr.includes('Fieldwork is running')) return { child, url, stderr: () => stderr };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the service did not start in 60 s: ${stderr}`);
}

export async function stopService(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export const basic = (id, secret) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

export async function clientToken(url, clientId, secret) {
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(clientId, secret) },
    body: 'grant_type=client_credentials',
  });
  if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
  return (await res.json()).access_token;
}

/** Prints a title naming the machine, then a Markdown table. */
export function printTable(title, header, rows) {
  const lines = rows.map((r) => r.map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(
    `\n${title} (${cpus().length} cores, Node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the end)\n`,
  );
  console.log(fmt(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(fmt(l));
}

/** autocannon with these options; resolves with its result. */
export function loadTest(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/* The CPU time of processes (/proc/<pid>/stat, clock ticks). */
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

export function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: split after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** The process and every descendant, with their CPU ticks. */
export function treeTicks(rootPid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = procStat(name);
    if (!s) continue;
    if (!children.has(s.ppid)) children.set(s.ppid, []);
    children.get(s.ppid).push(Number(name));
  }
  const ticks = new Map();
  const walk = (pid) => {
    const s = procStat(pid);
    if (!s) return;
    ticks.set(pid, s.ticks);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(rootPid);
  return ticks;
}

/** CPU milliseconds between two samples (a process born in between counts from 0). */
export function cpuMs(before, after) {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return (ticks * 1000) / TICKS;
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
