import { configDefaults, defineConfig } from 'vitest/config';

// Files that only make sense on one database are named for it, and run only in that
// runner (scripts/test.mjs) instead of showing as skipped in the other:
// `*.pglite.test.ts` (a PGlite data directory: the service's lock, the process entry)
// and `*.postgres.test.ts` (several service processes on one database).
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'src/**/*.test.tsx',
      // The tooling: the test runner's environment, the e2e server's clean-up.
      'scripts/*.test.ts',
      'e2e/support/*.test.ts',
    ],
    exclude: [...configDefaults.exclude, onPostgres ? '**/*.pglite.test.ts' : '**/*.postgres.test.ts'],
    environment: 'node',
    // Generous: a shared machine under load makes a PGlite start or a scrypt several times slower.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores: one on CI's two. Most of a test's
    // time is spent waiting (scrypt, a PostgreSQL server, a child service), so two overlap.
    maxWorkers: 2,
  },
});
