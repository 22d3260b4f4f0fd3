// Test runner settings: one fresh server per file, files in parallel on 2 cores, generous timeouts for git and builds.
// Files share their worker's module graph (isolate: false): importing src/ once per worker instead of once per file
// saves most of the suite's collect time; tests close what they open and src/ keeps no state in modules.
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/postgres/ holds what only PostgreSQL can show (several server processes on one database): run when
    // HUBLET_TEST_DB=postgres, left out of the SQLite pass (naming one of its files there finds no test: an error).
    exclude: [...configDefaults.exclude, ...(process.env.HUBLET_TEST_DB === 'postgres' ? [] : ['test/postgres/**'])],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
  },
});
