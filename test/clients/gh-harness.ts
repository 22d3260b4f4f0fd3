// GitHub's CLI, unchanged (Debian's `gh`), against `hublet serve` over hublet's own TLS with a CA the test makes, set up
// as for any GitHub Enterprise host: GH_HOST=127.0.0.1:PORT, GH_ENTERPRISE_TOKEN, SSL_CERT_FILE (gh) and GIT_SSL_CAINFO
// (git). gh talks REST under /api/v3 and GraphQL at /api/graphql. Shared by the gh test files: each starts its own.
import fs from 'node:fs';
import path from 'node:path';
import { Agent, request } from 'undici';
import { expect } from 'vitest';
import { sandbox, startServe, type Sandbox, type ServeProcess } from '../helpers/cli.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.js';
import { makeTestCertificates } from '../helpers/tls.js';
import { requireExecutable, run, succeeded, type Env, type Run } from './tools.js';

const ADMIN_TOKEN = `hlp_ghclient${'0'.repeat(24)}`;
/** What gh asks of a token: `repo` and `read:org` (gh auth status checks both), `gist` for the gist commands. */
const GH_SCOPES = ['repo', 'read:org', 'gist'];

interface GhOptions {
  stdin?: string;
  cwd?: string;
  env?: Env;
}

export interface GhHarness {
  sb: Sandbox;
  serve: ServeProcess;
  /** `127.0.0.1:PORT`, gh's GH_HOST. */
  host: string;
  /** The token gh uses (GH_ENTERPRISE_TOKEN), of the user the harness made. */
  token: string;
  /** gh's working directory. */
  work: string;
  /** gh's whole environment (and git's, for the tests' own git commands). */
  ghEnv: Env;
  /** A REST call to the server, trusting the test CA; as the harness's user unless `token` says otherwise. */
  api(method: string, p: string, opts?: { token?: string; body?: unknown }): Promise<{ status: number; body: any }>;
  /** A REST call as the site admin, expecting `expected`. */
  admin(method: string, p: string, body: unknown, expected: number): Promise<any>;
  /** Runs `gh ARGS…` in `cwd` (the work dir by default) with the test's environment and nothing else. */
  gh(args: string[], opts?: GhOptions): Promise<Run>;
  /** Runs gh and expects exit 0; answers its stdout. */
  ghOk(args: string[], opts?: GhOptions): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts `hublet serve` over TLS on a fresh data dir and database, makes the user `login` with a token of gh's scopes,
 * and sets up gh's environment. A missing gh or git makes every gh call fail with what to install (never a skip).
 */
export async function startGhHarness(login = 'dave'): Promise<GhHarness> {
  let missing: string | undefined;
  try {
    requireExecutable('gh', 'gh');
    requireExecutable('git', 'git');
  } catch (err) {
    missing = (err as Error).message;
  }
  const sb = sandbox();
  const work = path.join(sb.root, 'work');
  fs.mkdirSync(work);
  const certs = await makeTestCertificates(path.join(sb.root, 'tls'));
  const trusting = new Agent({ connect: { ca: fs.readFileSync(certs.caFile) } });
  const dataDir = path.join(sb.root, 'data');
  fs.mkdirSync(dataDir);
  const database: TestDatabase = await createTestDatabase(dataDir);
  const serve = await startServe(
    [
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data',
      dataDir,
      ...(onPostgres ? ['--database', database.url] : []),
      '--tls-cert',
      certs.certFile,
      '--tls-key',
      certs.keyFile,
    ],
    {
      env: sb.env,
      extraEnv: { HUBLET_ADMIN_TOKEN: ADMIN_TOKEN, HUBLET_LOG_LEVEL: 'warn' },
    },
  );
  expect(serve.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const host = `127.0.0.1:${serve.port}`;

  const api: GhHarness['api'] = async (method, p, opts = {}) => {
    const res = await request(`${serve.url}${p}`, {
      method: method as 'GET',
      dispatcher: trusting,
      headers: {
        authorization: `Bearer ${opts.token ?? token}`,
        'content-type': 'application/json',
        accept: 'application/vnd.service+json',
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : null };
  };
  const admin: GhHarness['admin'] = async (method, p, body, expected) => {
    const r = await api(method, p, { token: ADMIN_TOKEN, body });
    if (r.status !== expected) throw new Error(`${method} ${p}: expected ${expected}, got ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body;
  };

  await admin('POST', '/admin/users', { login }, 201);
  const token: string = (await admin('POST', `/admin/users/${login}/authorizations`, { scopes: GH_SCOPES }, 201)).token;

  const ghConfig = path.join(sb.root, 'gh-config');
  fs.mkdirSync(ghConfig);
  const ghEnv: Env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: sb.home,
    LANG: 'C.UTF-8',
    GH_HOST: host,
    GH_ENTERPRISE_TOKEN: token,
    GH_CONFIG_DIR: ghConfig,
    GH_PROMPT_DISABLED: '1',
    GH_NO_UPDATE_NOTIFIER: '1',
    GH_PAGER: 'cat',
    NO_COLOR: '1',
    // gh (Go) reads SSL_CERT_FILE; git (GnuTLS) reads only its own setting.
    SSL_CERT_FILE: certs.caFile,
    GIT_SSL_CAINFO: certs.caFile,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const gh: GhHarness['gh'] = async (args, opts = {}) => {
    if (missing) throw new Error(missing);
    return run('gh', args, { env: { ...ghEnv, ...opts.env }, cwd: opts.cwd ?? work, stdin: opts.stdin });
  };
  return {
    sb,
    serve,
    host,
    token,
    work,
    ghEnv,
    api,
    admin,
    gh,
    ghOk: async (args, opts) => succeeded(`gh ${args.join(' ')}`, await gh(args, opts)),
    async close() {
      await serve.stop('SIGKILL');
      await trusting.close();
      await database.drop();
      sb.cleanup();
    },
  };
}
