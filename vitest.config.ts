// Test runner settings: one fresh server per file, files in parallel on 2 cores, generous timeouts for git and builds.
// Files share their worker's module graph (isolate: false): importing src/ once per worker instead of once per file
// saves most of the suite's collect time; tests close what they open and src/ keeps no state in modules.
import { configDefaults, defineConfig } from 'vitest/config';

/** Test files that open no database: dependency rules, git on disk, the keyed lock, sealing, S3 settings, the batcher. */
const DATABASE_FREE = [
  'test/foundation/boundaries.test.ts',
  'test/git/crash-safe-writes.test.ts',
  'test/git/keyed-lock.test.ts',
  'test/git/loose-objects.test.ts',
  'test/git/smart-http.test.ts',
  'test/migrations/s3-config.test.ts',
  'test/webhooks/secret-box.test.ts',
  'test/foundation/pagination.test.ts',
  'test/foundation/route-pieces.test.ts',
  'test/gists/plan.test.ts',
  'test/repos/plan.test.ts',
  'test/migrations/import-plan.test.ts',
  'test/db/batch.test.ts',
  'test/db/stamp-batch.test.ts',
  // The CLI's commands against a stubbed client (admin and init-serve open a SQLite data dir of their own).
  ...['gist', 'gist-git', 'hook', 'migration', 'repo', 'api', 'auth', 'completion-help'].map((f) => `test/cli/${f}.test.ts`),
];

/**
 * Files that prove what Debian's Chromium renders and lets a person do (pages, XSS, accessibility, whole tasks by
 * clicking): the pages read the same services on both databases, and what those services do on PostgreSQL is proved
 * there by the form-level tests (WebClient over fetch: test/web/gist-writing, gist-social, hook-pages, migration-pages,
 * profile-settings, avatar-upload, search and the sign-in flows), so the PostgreSQL pass leaves these out to keep
 * `make test` within its time. The sign-in flows that drive a browser (OAuth, gh auth login) stay on both.
 */
const BROWSER_RENDERING = [
  'test/web/html-urls.test.ts',
  'test/web/account-repo-pages.test.ts',
  'test/web/hook-pages-browser.test.ts',
  'test/web/xss.test.ts',
  'test/web/embed.test.ts',
  'test/web/gist-browser-flow.test.ts',
  'test/web/gist-pages.test.ts',
  'test/web/image-proxy.test.ts',
];

/**
 * Files about how the CLI and the server process present themselves (help, hints, output formats, exit codes, git's
 * credential helper, TLS): the same on both databases, so run in the SQLite pass alone; the CLI's storage paths (local
 * mode, admin, imports, gist commands) stay on both.
 */
const PROCESS_PRESENTATION = [
  'test/foundation/cli-help.test.ts',
  'test/foundation/cli-hints.test.ts',
  'test/foundation/cli-output.test.ts',
  'test/foundation/cli-api.test.ts',
  'test/foundation/cli-client.test.ts',
  'test/foundation/cli-setup-git.test.ts',
  'test/foundation/cli.test.ts',
  'test/foundation/tls.test.ts',
  'test/cli/auth-device-login.test.ts',
  'test/cli/gist-search.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/postgres/ holds what only PostgreSQL can show (several server processes on one database): run when
    // HUBLET_TEST_DB=postgres, left out of the SQLite pass (naming one of its files there finds no test: an error).
    // The PostgreSQL pass leaves out the files that open no database (the same on both passes) and those that prove
    // what a browser renders (BROWSER_RENDERING) or how the CLI and the process present themselves (PROCESS_PRESENTATION).
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.HUBLET_TEST_DB === 'postgres'
        ? [...DATABASE_FREE, ...BROWSER_RENDERING, ...PROCESS_PRESENTATION]
        : ['test/postgres/**']),
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
  },
});
