// Built-in TLS: `hublet serve --tls-cert FILE --tls-key FILE` (or HUBLET_TLS_CERT/HUBLET_TLS_KEY) serves HTTPS with a
// certificate a test CA signed: API, links, git clone and push, the cached-read fast path; plain HTTP on that port
// fails; --base-url still wins; one setting without the other, or a bad file, stops the start with a clear error.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapAdminToken } from '../../src/accounts/site-admin.js';
import { loadConfig, withListeningPort } from '../../src/config.js';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { buildApp, closeApp } from '../../src/server/app.js';
import { makeUrls } from '../../src/core/urls.js';
import { pool, runServe, type ServeProcess } from '../helpers/cli.js';
import { serveProcesses } from '../helpers/serve-process.js';
import { makeTestCertificates, type TestCertificates } from '../helpers/tls.js';

const run = promisify(execFile);
/** Each of these tests starts hublet processes (several at once on two cores): room beyond the default 30 s. */
const PROCESSES = 120_000;

const serving = serveProcesses();
const { freshDataDir, serve } = serving;
let certs: TestCertificates;
let trusting: Agent;

beforeAll(async () => {
  certs = await makeTestCertificates(path.join(serving.sandbox.root, 'tls'));
  trusting = new Agent({ connect: { ca: fs.readFileSync(certs.caFile) } });
});
afterAll(async () => {
  await trusting?.close();
});

async function adminTokenOf(p: ServeProcess): Promise<string> {
  await p.waitFor(/its token \(shown once\): hlp_\w+\n/);
  return /its token \(shown once\): (hlp_\w+)\n/.exec(p.stdout())![1];
}

/** A JSON request over HTTPS, trusting the test CA. */
async function api(url: string, opts: { method?: string; token?: string; body?: unknown } = {}) {
  const res = await request(url, {
    method: (opts.method ?? 'GET') as 'GET',
    dispatcher: trusting,
    headers: {
      accept: 'application/vnd.service+json',
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : null };
}

/** Stock git trusting the test CA (GIT_SSL_CAINFO), never prompting; throws with git's message on failure. */
async function git(args: string[], cwd: string): Promise<string> {
  const env = {
    ...process.env,
    GIT_SSL_CAINFO: certs.caFile,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Admin',
    GIT_AUTHOR_EMAIL: 'admin@example.com',
    GIT_COMMITTER_NAME: 'Admin',
    GIT_COMMITTER_EMAIL: 'admin@example.com',
  };
  try {
    return (await run('git', args, { cwd, env })).stdout;
  } catch (e) {
    throw new Error(`git ${args.join(' ')} failed: ${(e as { stderr?: string }).stderr ?? e}`);
  }
}

const withCredentials = (url: string, user: string, token: string) => url.replace('://', `://${user}:${token}@`);

/** Every string value under a key ending in `url` (url, html_url, git_pull_url, …), nested included. */
function urlFields(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) urlFields(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && /url$/.test(k)) out.push(v);
      else urlFields(v, out);
    }
  }
  return out;
}

describe('hublet serve over TLS', () => {
  it(
    'serves HTTPS with --tls-cert/--tls-key: links say https://, git clones and pushes gists and clones repositories, plain HTTP fails',
    async () => {
      const data = await freshDataDir('flags');
      const p = await serve([
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--data',
        data.dir,
        ...data.args,
        '--tls-cert',
        certs.certFile,
        '--tls-key',
        certs.keyFile,
        '--log-level',
        'silent',
      ]);
      expect(p.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const token = await adminTokenOf(p);

      const root = await api(`${p.url}/`);
      expect(root.status).toBe(200);
      expect(root.body.current_user_url).toBe(`${p.url}/user`);
      for (const u of urlFields(root.body)) expect(u.startsWith(`${p.url}/`), u).toBe(true);

      const created = await api(`${p.url}/gists`, {
        method: 'POST',
        token,
        body: { public: true, files: { 'hello.txt': { content: 'hello\n' } } },
      });
      expect(created.status).toBe(201);
      const gist = created.body;
      expect(gist.url).toBe(`${p.url}/gists/${gist.id}`);
      expect(gist.git_pull_url).toBe(`${p.url}/gist/${gist.id}.git`);
      for (const u of urlFields(gist)) expect(u.startsWith('https://'), u).toBe(true);

      // A plain-HTTP request to the TLS port gets no HTTP answer.
      await expect(fetch(`http://127.0.0.1:${p.port}/`)).rejects.toThrow();
      // Nor does a client that does not trust the certificate.
      await expect(fetch(`${p.url}/`)).rejects.toThrow();

      const work = path.join(serving.sandbox.root, 'work');
      fs.mkdirSync(work);
      await git(['clone', '-q', gist.git_pull_url, 'gist'], work);
      expect(fs.readFileSync(path.join(work, 'gist', 'hello.txt'), 'utf8')).toBe('hello\n');
      fs.writeFileSync(path.join(work, 'gist', 'hello.txt'), 'hello over https\n');
      await git(['commit', '-qam', 'edit'], path.join(work, 'gist'));
      await git(['push', '-q', withCredentials(gist.git_push_url, 'admin', token), 'HEAD'], path.join(work, 'gist'));
      const after = await api(`${p.url}/gists/${gist.id}`);
      expect(after.status).toBe(200);
      expect(after.body.files['hello.txt'].content).toBe('hello over https\n');
      expect(after.body.history).toHaveLength(2);

      const repo = await api(`${p.url}/user/repos`, { method: 'POST', token, body: { name: 'tls-repo', private: false, auto_init: true } });
      expect(repo.status).toBe(201);
      expect(repo.body.clone_url).toBe(`${p.url}/admin/tls-repo.git`);
      await git(['clone', '-q', repo.body.clone_url, 'repo'], work);
      expect(fs.existsSync(path.join(work, 'repo', '.git'))).toBe(true);

      expect(await p.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    },
    PROCESSES,
  );

  it(
    'takes HUBLET_TLS_CERT and HUBLET_TLS_KEY from the environment; an explicit --base-url still names the links (a proxy in front)',
    async () => {
      const [a, b] = await Promise.all([freshDataDir('env'), freshDataDir('proxied')]);
      const env = { HUBLET_TLS_CERT: certs.certFile, HUBLET_TLS_KEY: certs.keyFile, HUBLET_LOG_LEVEL: 'silent' };
      const [fromEnv, proxied] = await Promise.all([
        serve(['--port', '0', '--data', a.dir, ...a.args], env),
        serve(['--port', '0', '--data', b.dir, ...b.args, '--base-url', 'http://hub.example.test/'], env),
      ]);
      expect(fromEnv.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const root = await api(`${fromEnv.url}/`);
      expect(root.status).toBe(200);
      expect(root.body.current_user_url).toBe(`${fromEnv.url}/user`);

      expect(proxied.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const behindProxy = await api(`${proxied.url}/`);
      expect(behindProxy.status).toBe(200);
      expect(behindProxy.body.current_user_url).toBe('http://hub.example.test/user');
    },
    PROCESSES,
  );

  it(
    'refuses to start with one of the two settings, or with a file that is missing, not a certificate, not a key or not its key; or with a base URL that is not the site root',
    async () => {
      const dir = path.join(serving.sandbox.root, 'bad');
      fs.mkdirSync(dir);
      const garbage = path.join(dir, 'garbage.pem');
      fs.writeFileSync(garbage, 'not a pem file\n');
      const otherKey = path.join(dir, 'other-key.pem');
      fs.writeFileSync(
        otherKey,
        crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
      );
      const missing = path.join(dir, 'missing.pem');
      const data = ['--port', '0', '--data', path.join(dir, 'data')];
      const starts = await pool([
        () => runServe([...data, '--tls-cert', certs.certFile], { env: serving.sandbox.env }),
        () => runServe(data, { env: serving.sandbox.env, extraEnv: { HUBLET_TLS_KEY: certs.keyFile } }),
        () => runServe([...data, '--tls-cert', certs.certFile, '--tls-key', garbage], { env: serving.sandbox.env }),
        () => runServe([...data, '--tls-cert', certs.certFile, '--tls-key', otherKey], { env: serving.sandbox.env }),
        () => runServe([...data, '--tls-cert', garbage, '--tls-key', certs.keyFile], { env: serving.sandbox.env }),
        () => runServe([...data, '--tls-cert', missing, '--tls-key', certs.keyFile], { env: serving.sandbox.env }),
        // A base URL is the site's root: GitHub Enterprise's API prefix (PyGithub's habit) would double every API link.
        () => runServe([...data, '--base-url', 'http://hub.example.test/api/v3/'], { env: serving.sandbox.env }),
        () => runServe(data, { env: serving.sandbox.env, extraEnv: { HUBLET_BASE_URL: 'https://hub.example.test/hublet' } }),
      ]);
      const expected = [
        'tlsKey (HUBLET_TLS_KEY): required with tlsCert (HUBLET_TLS_CERT)',
        'tlsCert (HUBLET_TLS_CERT): required with tlsKey (HUBLET_TLS_KEY)',
        `tlsKey (HUBLET_TLS_KEY): ${garbage} holds no usable private key`,
        `tlsKey (HUBLET_TLS_KEY): ${otherKey} is not the private key of the certificate in ${certs.certFile}`,
        `tlsCert (HUBLET_TLS_CERT): ${garbage} holds no certificate`,
        `tlsCert (HUBLET_TLS_CERT): cannot read ${missing}: no such file`,
        "baseUrl (HUBLET_BASE_URL): give the site's root (http://hub.example.test), not its API prefix",
        "baseUrl (HUBLET_BASE_URL): give the site's root, scheme://host[:port] (https://hub.example.test): hublet serves no path prefix",
      ];
      for (const [i, r] of starts.entries()) {
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain('hublet: invalid configuration');
        expect(r.stderr).toContain(expected[i]);
        expect(r.stderr).not.toMatch(/\n\s+at /);
        expect(r.stdout).not.toContain('listening');
      }
      // Refused before the data dir was opened.
      expect(fs.existsSync(path.join(dir, 'data'))).toBe(false);
    },
    PROCESSES,
  );

  it('reads the TLS files flag first, then HUBLET_TLS_*; its default base URL says https, also once port 0 is known', () => {
    const env = { HUBLET_TLS_CERT: '/env/cert.pem', HUBLET_TLS_KEY: '/env/key.pem' };
    const fromFlags = loadConfig({ dataDir: serving.sandbox.root, port: 0, tlsCert: 'cert.pem', tlsKey: '/flag/key.pem' }, env);
    expect(fromFlags).toMatchObject({ tlsCert: path.resolve('cert.pem'), tlsKey: '/flag/key.pem', baseUrl: 'https://127.0.0.1:0' });
    expect(withListeningPort(fromFlags, 8443, {}, env).baseUrl).toBe('https://127.0.0.1:8443');
    const fromEnv = loadConfig({ dataDir: serving.sandbox.root, host: '::1', port: 443 }, env);
    // The scheme's default port is left out of links (hub sends its token only to the exact host it was given).
    expect(fromEnv).toMatchObject({ tlsCert: '/env/cert.pem', tlsKey: '/env/key.pem', baseUrl: 'https://[::1]' });
    expect(loadConfig({ dataDir: serving.sandbox.root, port: 80 }, {}).baseUrl).toBe('http://127.0.0.1');
    expect(loadConfig({ dataDir: serving.sandbox.root, port: 443 }, {}).baseUrl).toBe('http://127.0.0.1:443');
    expect(withListeningPort(loadConfig({ dataDir: serving.sandbox.root, port: 0 }, env), 443, {}, env).baseUrl).toBe('https://127.0.0.1');
    expect(loadConfig({ dataDir: serving.sandbox.root, baseUrl: 'https://hub.example.test:443/' }, {}).baseUrl).toBe(
      'https://hub.example.test',
    );
    const plain = loadConfig({ dataDir: serving.sandbox.root, port: 0 }, {});
    expect(plain.tlsCert).toBeUndefined();
    expect(withListeningPort(plain, 3001, {}, {}).baseUrl).toBe('http://127.0.0.1:3001');
    const proxied = loadConfig({ dataDir: serving.sandbox.root, port: 0, baseUrl: 'http://hub.example.test' }, env);
    expect(withListeningPort(proxied, 8443, { baseUrl: 'http://hub.example.test' }, env).baseUrl).toBe('http://hub.example.test');
  });

  it('answers cached reads through the fast path on an https server, as the route does', async () => {
    const { dir: dataDir, db: database } = await freshDataDir('in-process');
    const config = loadConfig(
      { dataDir, databaseUrl: database.url, port: 0, logLevel: 'silent', tlsCert: certs.certFile, tlsKey: certs.keyFile },
      {},
    );
    const db = connect(config.databaseUrl);
    await migrateToLatest(db);
    const token = `hlp_tls${crypto.randomBytes(12).toString('hex')}`;
    await bootstrapAdminToken(db, new Date(), token);
    const app = await buildApp({ config, db, https: { cert: fs.readFileSync(certs.certFile), key: fs.readFileSync(certs.keyFile) } });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      const url = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      app.hublet.urls = makeUrls(url);
      const cache = app.hublet.responses;
      const respond = cache.respond.bind(cache);
      let routed = 0;
      cache.respond = (...args) => {
        routed++;
        return respond(...args);
      };
      const id = (await api(`${url}/gists`, { method: 'POST', token, body: { public: true, files: { 'a.txt': { content: 'a\n' } } } })).body
        .id;
      // The first read builds the entry; one of the next never reaches the route: the fast path answers it, with the same
      // body (on PostgreSQL another test file's commit can make the entry stale in between: hence a few tries).
      const first = await api(`${url}/gists/${id}`);
      expect(first.status).toBe(200);
      expect(first.body.url).toBe(`${url}/gists/${id}`);
      expect(routed).toBeGreaterThan(0);
      let fastAnswers = 0;
      for (let i = 0; i < 10 && fastAnswers === 0; i++) {
        const before = routed;
        expect(await api(`${url}/gists/${id}`)).toEqual(first);
        if (routed === before) fastAnswers++;
      }
      expect(fastAnswers).toBe(1);
    } finally {
      await closeApp(app);
      await db.destroy();
    }
  });
});
