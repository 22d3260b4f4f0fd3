// Test runner settings: one fresh server per file, files in parallel on 2 cores, generous timeouts for git and builds.
// Files share their worker's module graph (isolate: false): importing src/ once per worker instead of once per file
// saves most of the suite's collect time; tests close what they open and src/ keeps no state in modules.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
  },
});
