import { readdirSync, readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

// Files that only make sense on one database are named for it, and run only in that
// runner (scripts/test.mjs) instead of showing as skipped in the other:
// `*.pglite.test.ts` (a PGlite data directory: the service's lock, the process entry)
// and `*.postgres.test.ts` (several service processes on one database).
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const include = [
  'src/**/*.test.ts',
  'src/**/*.test.tsx',
  // The tooling: the test runner's environment, the e2e server's clean-up.
  'scripts/*.test.ts',
  'e2e/support/*.test.ts',
];
const exclude = [...configDefaults.exclude, onPostgres ? '**/*.pglite.test.ts' : '**/*.postgres.test.ts'];

// A test file that replaces a module (vi.mock) needs a module graph of its own: it runs
// isolated. Every other file shares its worker's process with the files before it
// (isolate: false), so the service, PGlite's WebAssembly and the contract are loaded once
// per worker instead of once per file: the PGlite runner took 303 s instead of 459.
const mocking = [...new Set(include.map((pattern) => pattern.split('/*')[0]))].flatMap((dir) =>
  (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => `${dir}/${file}`)
    .filter((file) => /\bvi\.mock\(/.test(readFileSync(file, 'utf8'))),
);

export default defineConfig({
  test: {
    exclude,
    environment: 'node',
    // Generous: a shared machine under load makes a PGlite start or a scrypt several times slower.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores: one on CI's two. Most of a test's
    // time is spent waiting (scrypt, a PostgreSQL server, a child service), so two overlap.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'shared', include, isolate: false, exclude: [...exclude, ...mocking] },
      },
      ...(mocking.length ? [{ extends: true as const, test: { name: 'isolated', include: mocking } }] : []),
    ],
  },
});
