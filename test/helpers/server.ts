// Starts a real hublet server on 127.0.0.1:0 over a fresh data dir and database, with factories for accounts and tokens.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Octokit } from '@octokit/rest';
import type { FastifyInstance } from 'fastify';
import { bootstrapAdminToken } from '../../src/accounts/site-admin.js';
import { loadConfig, type ConfigInput } from '../../src/config.js';
import { connect, type Db } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { buildApp, closeApp } from '../../src/server/app.js';
import type { Clock } from '../../src/core/context.js';
import { makeUrls } from '../../src/core/urls.js';
import { createTestDatabase } from './database.js';

export interface TestServer {
  url: string;
  dataDir: string;
  databaseUrl: string;
  app: FastifyInstance;
  db: Db;
  adminToken: string;
  /** fetch against the server, JSON body in and out. */
  api(method: string, path: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<ApiResult>;
  octokit(token?: string): Octokit;
  createUser(login: string, opts?: { siteAdmin?: boolean; email?: string; password?: string }): Promise<{ login: string; id: number }>;
  createToken(
    login: string,
    opts?: { scopes?: string[]; kind?: string; permissions?: Record<string, string>; app_id?: number; expires_at?: string },
  ): Promise<string>;
  /** A user with a classic token carrying the given scopes. */
  userWithToken(login: string, scopes?: string[]): Promise<{ login: string; id: number; token: string }>;
  createOrg(login: string, owner: string): Promise<{ login: string; id: number }>;
  /** A gist of `files` (name to content) through the API; its id. */
  createGist(token: string, description: string, files: Record<string, string>, isPublic?: boolean): Promise<string>;
  addMember(org: string, login: string, role?: 'admin' | 'member'): Promise<void>;
  close(): Promise<void>;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface StartOptions {
  config?: ConfigInput;
  clock?: Clock;
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-test-'));
  const database = await createTestDatabase(dataDir);
  const adminToken = `hlp_test${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  // Passwords hashed at scrypt's N=2^14, not 2^17: the same code 8× cheaper, for a suite that signs in hundreds of times
  // (test/accounts/passwords.test.ts proves the default's parameters).
  let config = loadConfig({ dataDir, databaseUrl: database.url, port: 0, logLevel: 'silent', passwordCost: 14, ...options.config }, {});
  const db = connect(config.databaseUrl);
  await migrateToLatest(db);
  await bootstrapAdminToken(db, new Date(), adminToken);
  const app = await buildApp({ config, db, clock: options.clock });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = options.config?.baseUrl ? String(options.config.baseUrl) : `http://127.0.0.1:${port}`;
  config = Object.freeze({ ...config, port, baseUrl: url });
  app.hublet.config = config;
  app.hublet.urls = makeUrls(url);
  app.hublet.jobs.start();

  const api: TestServer['api'] = async (method, p, opts = {}) => {
    const headers: Record<string, string> = { accept: 'application/vnd.service+json', ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`http://127.0.0.1:${port}${p}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if (res.headers.get('content-type')?.includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  const expectStatus = (r: ApiResult, status: number, what: string) => {
    if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status}: ${r.text}`);
    return r.body;
  };

  const server: TestServer = {
    url,
    dataDir,
    databaseUrl: database.url,
    app,
    db,
    adminToken,
    api,
    octokit: (token) =>
      new Octokit({ baseUrl: url, auth: token, request: { retries: 0 }, log: { debug() {}, info() {}, warn() {}, error() {} } }),
    async createUser(login, opts = {}) {
      return expectStatus(
        await api('POST', '/admin/users', {
          token: adminToken,
          body: { login, email: opts.email, site_admin: opts.siteAdmin, password: opts.password },
        }),
        201,
        `create user ${login}`,
      );
    },
    async createToken(login, opts = {}) {
      const body = expectStatus(
        await api('POST', `/admin/users/${login}/authorizations`, { token: adminToken, body: opts }),
        201,
        `token for ${login}`,
      );
      return body.token as string;
    },
    async userWithToken(login, scopes = ['gist', 'repo', 'admin:org', 'admin:org_hook', 'user']) {
      const user = await server.createUser(login);
      return { ...user, token: await server.createToken(login, { scopes }) };
    },
    async createGist(token, description, files, isPublic = true) {
      const body = { description, public: isPublic, files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, { content: v }])) };
      return expectStatus(await api('POST', '/gists', { token, body }), 201, `gist ${description}`).id;
    },
    async createOrg(login, owner) {
      return expectStatus(
        await api('POST', '/admin/organizations', { token: adminToken, body: { login, admin: owner } }),
        201,
        `create org ${login}`,
      );
    },
    async addMember(org, login, role = 'member') {
      expectStatus(
        await api('PUT', `/orgs/${org}/memberships/${login}`, { token: adminToken, body: { role } }),
        200,
        `add ${login} to ${org}`,
      );
    },
    async close() {
      // A test may leave a response unread (headers checked, body not): cut it after a second.
      await closeApp(app, 1000);
      await db.destroy();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}
