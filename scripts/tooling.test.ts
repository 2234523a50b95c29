import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runnerEnv } from './runnerEnv.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** npm's own range matching (semver ships with every install, without types). */
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
};
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const ESC = '\u001b[';

function runVitest(args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [vitest, ...args], { cwd: root, env, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('test runner output in CI (scripts/runnerEnv.mjs)', () => {
  it.each([
    ['CI with FORCE_COLOR=0', { CI: 'true', FORCE_COLOR: '0' }],
    ['CI alone', { CI: 'true' }],
    ['NO_COLOR', { NO_COLOR: '1', FORCE_COLOR: '1' }],
  ])(
    '%s: plain text, no ANSI colour codes',
    (_label, asked) => {
      const env = runnerEnv({ PATH: process.env.PATH, HOME: process.env.HOME, ...asked });
      expect(env.NO_COLOR).toBe('1');
      expect(env.FORCE_COLOR).toBeUndefined();
      const run = runVitest(['run', '--config', 'scripts/fixtures/vitest.config.ts'], env);
      expect(run.status).toBe(0);
      expect(run.output).toContain('1 passed');
      expect(run.output).not.toContain(ESC);
    },
    60_000,
  );

  it('keeps colours on a terminal outside CI', () => {
    expect(runnerEnv({}).FORCE_COLOR).toBe('1');
    expect(runnerEnv({}).NO_COLOR).toBeUndefined();
  });
});

describe('files that make sense on one database run in that runner only', () => {
  function listed(env: NodeJS.ProcessEnv) {
    const run = runVitest(['list', '--filesOnly', '--json'], env);
    expect(run.status).toBe(0);
    const start = run.output.indexOf('[');
    return (JSON.parse(run.output.slice(start)) as { file: string }[]).map((f) => relative(root, f.file));
  }

  it('the PostgreSQL run leaves out *.pglite.test.ts and the PGlite run *.postgres.test.ts', () => {
    const base = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };
    const pglite = listed(base);
    const postgres = listed({ ...base, TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
    expect(pglite).toContain('src/server/cli/main.pglite.test.ts');
    expect(pglite.some((f) => f.endsWith('.postgres.test.ts'))).toBe(false);
    expect(postgres).toContain('src/server/platform/auth/revocation.postgres.test.ts');
    expect(postgres.some((f) => f.endsWith('.pglite.test.ts'))).toBe(false);
  }, 60_000);

  it('no test file skips tests (describe.skipIf, it.skip...): it is named for its database instead', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.test\.tsx?$/.test(entry.name)) files.push(path);
      }
    };
    walk(join(root, 'src'));
    expect(files.length).toBeGreaterThan(10);
    const skipping = files.filter((f) =>
      /\b(describe|it|test)\.(skip|skipIf|runIf|todo)\b/.test(readFileSync(f, 'utf8')),
    );
    expect(skipping.map((f) => relative(root, f))).toEqual([]);
  });
});

describe('npm install on Node 20 (issue 27, 12)', () => {
  it('every locked package supports the Node the README asks for: no EBADENGINE', () => {
    const wanted = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node as string;
    const [major, minor = '0', patch = '0'] = (/\d+(\.\d+){0,2}/.exec(wanted)?.[0] ?? '').split('.');
    const lowest = `${major}.${minor}.${patch}`;
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    const refused = Object.entries(lock.packages)
      .filter(([, p]) => !Array.isArray(p.engines) && p.engines?.node)
      .filter(
        ([, p]) =>
          !semver.satisfies(
            `${lowest}${lowest.split('.').length === 2 ? '.0' : ''}`,
            (p.engines as { node: string }).node,
          ),
      )
      .map(([name, p]) => `${name} ${(p.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });
});
