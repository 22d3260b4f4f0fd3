// GitHub's older CLI, hub 2.14 (Debian's `hub`), unchanged, against `hublet serve` over hublet's own TLS with a CA the
// test makes, set up as its man page says for GitHub Enterprise: GITHUB_HOST names the host, HUB_PROTOCOL=https, and the
// token is in hub's configuration file (HUB_CONFIG). hub 2.14 drops the host from git URLs when GITHUB_HOST carries a
// port, so hublet serves on port 443 of a loopback address of its own (base URL https://HOST). hub (Go) reads
// SSL_CERT_FILE; git reads GIT_SSL_CAINFO and takes the token from git's stock `store` credential helper. hub calls the
// REST API under /api/v3; we assert on what it printed, on the git remotes it set, and on the server's state.
import fs from 'node:fs';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, startServe, type Sandbox, type ServeProcess } from '../helpers/cli.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.js';
import { makeTestCertificates } from '../helpers/tls.js';
import { requireExecutable, run, succeeded, type Env, type Run } from './tools.js';

/** A loopback address nothing else in the suite uses: hub needs port 443 (we run as root, so it binds). */
const HOST = '127.0.4.43';
const BASE = `https://${HOST}`;
const ADMIN_TOKEN = `hlp_hubclient${'0'.repeat(23)}`;

let sb: Sandbox;
let database: TestDatabase;
let serve: ServeProcess;
let trusting: Agent;
let hubEnv: Env;
let token: string;
let olgaToken: string;
let work: string;
/** Why hub cannot run here (set in beforeAll): every test then fails with it, none is skipped. */
let missing: string | undefined;

/** A REST call to the server, trusting the test CA; as hugo unless another token is given. */
async function api(method: string, p: string, opts: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const res = await request(`${BASE}${p}`, {
    method: method as 'GET',
    dispatcher: trusting,
    headers: { authorization: `Bearer ${opts.token ?? token}`, 'content-type': 'application/json', accept: 'application/vnd.service+json' },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : null };
}

async function admin(method: string, p: string, body: unknown, expected: number): Promise<any> {
  const r = await api(method, p, { token: ADMIN_TOKEN, body });
  if (r.status !== expected) throw new Error(`${method} ${p}: expected ${expected}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Runs `hub ARGS…` in `cwd` (the work dir by default) with the test's environment and nothing else. */
async function hub(args: string[], opts: { stdin?: string; cwd?: string } = {}): Promise<Run> {
  if (missing) throw new Error(missing);
  return run('hub', args, { env: hubEnv, cwd: opts.cwd ?? work, stdin: opts.stdin });
}

/** Runs hub and expects exit 0; answers its stdout. */
async function hubOk(args: string[], opts: { stdin?: string; cwd?: string } = {}): Promise<string> {
  return succeeded(`hub ${args.join(' ')}`, await hub(args, opts));
}

/** Stock git with the same environment (its credential helper and CA). */
async function gitOk(args: string[], cwd: string): Promise<string> {
  return succeeded(`git ${args.join(' ')}`, await run('git', args, { env: hubEnv, cwd }));
}

/** The gist id at the end of the URL hub printed for a new gist. */
function gistIdFrom(stdout: string): string {
  const m = new RegExp(`^${BASE.replace(/\./g, '\\.')}/gist/([0-9a-f]{32})\\n$`).exec(stdout);
  if (!m) throw new Error(`hub printed no gist URL: ${JSON.stringify(stdout)}`);
  return m[1];
}

/** A page of the web UI at `url`, as a browser would get it: its status. */
async function pageStatus(url: string): Promise<number> {
  const res = await request(url, { dispatcher: trusting, headers: { accept: 'text/html' } });
  await res.body.dump();
  return res.statusCode;
}

beforeAll(async () => {
  try {
    requireExecutable('hub', 'hub');
    requireExecutable('git', 'git');
  } catch (err) {
    missing = (err as Error).message;
  }
  sb = sandbox();
  work = path.join(sb.root, 'work');
  fs.mkdirSync(work);
  const certs = await makeTestCertificates(path.join(sb.root, 'tls'), [HOST]);
  trusting = new Agent({ connect: { ca: fs.readFileSync(certs.caFile) } });
  const dataDir = path.join(sb.root, 'data');
  fs.mkdirSync(dataDir);
  database = await createTestDatabase(dataDir);
  serve = await startServe(
    [
      '--host',
      HOST,
      '--port',
      '443',
      '--data',
      dataDir,
      ...(onPostgres ? ['--database', database.url] : []),
      '--tls-cert',
      certs.certFile,
      '--tls-key',
      certs.keyFile,
    ],
    { env: sb.env, extraEnv: { HUBLET_ADMIN_TOKEN: ADMIN_TOKEN, HUBLET_LOG_LEVEL: 'warn' } },
  );
  // Port 443 is https's default: the base URL (every html_url and clone URL) has no port.
  expect((await api('GET', '/user', { token: ADMIN_TOKEN })).body.html_url).toBe(`${BASE}/admin`);

  await admin('POST', '/admin/users', { login: 'hugo', email: 'hugo@example.com' }, 201);
  token = (await admin('POST', '/admin/users/hugo/authorizations', { scopes: ['repo', 'gist'] }, 201)).token;
  await admin('POST', '/admin/users', { login: 'olga' }, 201);
  olgaToken = (await admin('POST', '/admin/users/olga/authorizations', { scopes: ['repo'] }, 201)).token;
  const lib = await api('POST', '/user/repos', { token: olgaToken, body: { name: 'lib', description: 'olga’s lib', auto_init: true } });
  expect(lib.status).toBe(201);

  // hub's configuration file, in the format it writes itself after a login: host → [{user, oauth_token, protocol}].
  const hubConfig = path.join(sb.configHome, 'hub');
  fs.writeFileSync(hubConfig, `${HOST}:\n- user: hugo\n  oauth_token: ${token}\n  protocol: https\n`, { mode: 0o600 });
  // git's own credential store, for clones and pushes over HTTPS (hub leaves credentials to git).
  fs.writeFileSync(path.join(sb.home, '.git-credentials'), `https://hugo:${token}@${HOST}\n`, { mode: 0o600 });
  fs.writeFileSync(
    path.join(sb.home, '.gitconfig'),
    '[user]\n\tname = Hugo\n\temail = hugo@example.com\n[credential]\n\thelper = store\n[init]\n\tdefaultBranch = main\n',
  );
  hubEnv = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: sb.home,
    LANG: 'C.UTF-8',
    GITHUB_HOST: HOST,
    HUB_PROTOCOL: 'https',
    HUB_CONFIG: hubConfig,
    // hub (Go) reads SSL_CERT_FILE; git (GnuTLS) reads only its own setting.
    SSL_CERT_FILE: certs.caFile,
    GIT_SSL_CAINFO: certs.caFile,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
  };
});
afterAll(async () => {
  await serve?.stop('SIGKILL');
  await trusting?.close();
  await database?.drop();
  sb?.cleanup();
});

describe('hub against hublet serve on https://HOST (port 443)', () => {
  it('hub api: GET prints the JSON; a 404 exits 22 with the error body', async () => {
    const user = JSON.parse(await hubOk(['api', 'user']));
    expect(user).toMatchObject({ login: 'hugo', html_url: `${BASE}/hugo` });
    const missingRepo = await hub(['api', 'repos/hugo/nope']);
    expect(missingRepo.code).toBe(22);
    expect(JSON.parse(missingRepo.stdout)).toMatchObject({ message: 'Not Found' });
  });

  it('hub api: POST with fields (-F typed, -f strings) and with a JSON body from stdin (--input -)', async () => {
    const created = JSON.parse(
      await hubOk(['api', 'user/repos', '-f', 'name=via-api', '-f', 'description=made by hub api', '-F', 'private=true']),
    );
    expect(created).toMatchObject({ full_name: 'hugo/via-api', private: true, description: 'made by hub api' });
    expect((await api('GET', '/repos/hugo/via-api')).body).toMatchObject({ private: true, description: 'made by hub api' });

    const body = JSON.stringify({ description: 'posted as JSON', public: true, files: { 'j.txt': { content: 'json\n' } } });
    const gist = JSON.parse(await hubOk(['api', 'gists', '--input', '-'], { stdin: body }));
    const stored = await api('GET', `/gists/${gist.id}`);
    expect(stored.body).toMatchObject({ description: 'posted as JSON', public: true, owner: { login: 'hugo' } });
    expect(stored.body.files['j.txt'].content).toBe('json\n');
    expect((await api('DELETE', `/gists/${gist.id}`)).status).toBe(204);
  });

  it('hub api --paginate: follows the Link header through every page (-t: one line per field)', async () => {
    for (const n of [1, 2, 3, 4, 5])
      await api('POST', '/gists', { body: { description: `page ${n}`, public: true, files: { 'n.txt': { content: `${n}\n` } } } });
    const all = (await api('GET', '/gists?per_page=100')).body.map((g: any) => g.description);
    expect(all).toHaveLength(5);
    const lines = (await hubOk(['api', '--paginate', 'gists?per_page=2', '-t']))
      .split('\n')
      .filter((l) => /^\.\[\d+\]\.description\t/.test(l));
    // Three pages (2 + 2 + 1), each numbered from 0.
    expect(lines).toEqual(all.map((d: string, i: number) => `.[${i % 2}].description\t${d}`));
  });

  let filesGist: string;

  it('hub gist create: files (secret by default) and stdin with --public', async () => {
    fs.writeFileSync(path.join(work, 'a.txt'), 'alpha\n');
    fs.writeFileSync(path.join(work, 'b.md'), '# beta\n');
    filesGist = gistIdFrom(await hubOk(['gist', 'create', 'a.txt', 'b.md']));
    const files = await api('GET', `/gists/${filesGist}`);
    expect(files.body).toMatchObject({ public: false, owner: { login: 'hugo' } });
    expect(Object.fromEntries(Object.entries(files.body.files).map(([n, f]: [string, any]) => [n, f.content]))).toEqual({
      'a.txt': 'alpha\n',
      'b.md': '# beta\n',
    });

    const piped = gistIdFrom(await hubOk(['gist', 'create', '--public'], { stdin: 'from stdin\n' }));
    const stdin = await api('GET', `/gists/${piped}`);
    expect(stdin.body.public).toBe(true);
    // hub names stdin content gistfile1.txt.
    expect(Object.fromEntries(Object.entries(stdin.body.files).map(([n, f]: [string, any]) => [n, f.content]))).toEqual({
      'gistfile1.txt': 'from stdin\n',
    });
    // hub prints the content and a newline of its own.
    expect(await hubOk(['gist', 'show', piped])).toBe('from stdin\n\n');
  });

  it('hub gist show: one file by name; a gist of several files without a name is an error', async () => {
    expect(await hubOk(['gist', 'show', filesGist, 'b.md'])).toBe('# beta\n\n');
    expect(await hubOk(['gist', 'show', filesGist, 'a.txt'])).toBe('alpha\n\n');
    const r = await hub(['gist', 'show', filesGist]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toBe('This gist contains multiple files, you must specify one:\n  a.txt\n  b.md\n');
  });

  it('hub create: a repository for the working copy, its remote, then a push with stock git', async () => {
    const dir = path.join(work, 'proj');
    fs.mkdirSync(dir);
    await gitOk(['init', '-q'], dir);
    fs.writeFileSync(path.join(dir, 'main.c'), 'int main(void) { return 0; }\n');
    await gitOk(['add', '.'], dir);
    await gitOk(['commit', '-q', '-m', 'first'], dir);
    const out = await hubOk(['create', '-d', 'made by hub create'], { cwd: dir });
    // `Updating origin` is git's: hub adds the remote with `git remote add -f`, fetching from the new (empty) repository.
    expect(out).toBe(`Updating origin\n${BASE}/hugo/proj\n`);
    expect((await gitOk(['remote', 'get-url', 'origin'], dir)).trim()).toBe(`${BASE}/hugo/proj.git`);
    const repo = await api('GET', '/repos/hugo/proj');
    expect(repo.body).toMatchObject({ full_name: 'hugo/proj', description: 'made by hub create', private: false });

    await gitOk(['push', '-q', '-u', 'origin', 'main'], dir);
    const head = (await gitOk(['rev-parse', 'HEAD'], dir)).trim();
    expect(await gitOk(['ls-remote', `${BASE}/hugo/proj.git`, 'refs/heads/main'], work)).toBe(`${head}\trefs/heads/main\n`);

    // -p and a NAME of its own: a private repository, whatever the directory is called.
    const other = path.join(work, 'other');
    fs.mkdirSync(other);
    await gitOk(['init', '-q'], other);
    expect(await hubOk(['create', '-p', 'hidden'], { cwd: other })).toBe(`Updating origin\n${BASE}/hugo/hidden\n`);
    expect((await gitOk(['remote', 'get-url', 'origin'], other)).trim()).toBe(`${BASE}/hugo/hidden.git`);
    expect((await api('GET', '/repos/hugo/hidden')).body).toMatchObject({ full_name: 'hugo/hidden', private: true });
  });

  it('hub clone: OWNER/REPO and the user’s own REPO, over https with the test CA', async () => {
    await hubOk(['clone', 'olga/lib'], { cwd: work });
    const lib = path.join(work, 'lib');
    expect((await gitOk(['remote', 'get-url', 'origin'], lib)).trim()).toBe(`${BASE}/olga/lib.git`);
    expect(fs.readdirSync(lib).sort()).toEqual(['.git', 'README.md']);
    expect(fs.readFileSync(path.join(lib, 'README.md'), 'utf8')).toBe('# lib\nolga’s lib\n');

    // From a directory without a `proj` in it (hub would clone that local path).
    const elsewhere = path.join(work, 'elsewhere');
    fs.mkdirSync(elsewhere);
    await hubOk(['clone', 'proj'], { cwd: elsewhere });
    const again = path.join(elsewhere, 'proj');
    expect((await gitOk(['remote', 'get-url', 'origin'], again)).trim()).toBe(`${BASE}/hugo/proj.git`);
    expect(fs.readFileSync(path.join(again, 'main.c'), 'utf8')).toBe('int main(void) { return 0; }\n');
  });

  it('hub browse -u: prints the pages’ URLs, which hublet serves', async () => {
    const lib = path.join(work, 'lib');
    // In a clone, on the default branch (origin/HEAD): the repository's page.
    const home = (await hubOk(['browse', '-u'], { cwd: lib })).trim();
    expect(home).toBe(`${BASE}/olga/lib`);
    expect(await pageStatus(home)).toBe(200);
    // In the working copy hub create made (no origin/HEAD, so main is not known as the default): the branch's tree.
    const tree = (await hubOk(['browse', '-u'], { cwd: path.join(work, 'proj') })).trim();
    expect(tree).toBe(`${BASE}/hugo/proj/tree/main`);
    expect(await pageStatus(tree)).toBe(200);
    const blob = (await hubOk(['browse', '-u', '--', 'blob/main/README.md'], { cwd: lib })).trim();
    expect(blob).toBe(`${BASE}/olga/lib/blob/main/README.md`);
    expect(await pageStatus(blob)).toBe(200);
    const other = (await hubOk(['browse', '-u', 'hugo/proj'], { cwd: work })).trim();
    expect(other).toBe(`${BASE}/hugo/proj`);
    expect(await pageStatus(other)).toBe(200);
  });

  it('hub fork: forks the clone’s repository for the user and adds a remote named after them, fetched', async () => {
    const lib = path.join(work, 'lib');
    const r = await hub(['fork'], { cwd: lib });
    expect(r.code, r.stderr).toBe(0);
    // `Updating hugo` and the fetch on stderr are git's (`git remote add -f hugo URL`); the last line is hub's.
    expect(r.stdout).toBe('Updating hugo\nnew remote: hugo\n');
    const fork = await api('GET', '/repos/hugo/lib');
    expect(fork.status).toBe(200);
    expect(fork.body).toMatchObject({
      full_name: 'hugo/lib',
      fork: true,
      parent: { full_name: 'olga/lib' },
      source: { full_name: 'olga/lib' },
    });
    expect((await gitOk(['remote', 'get-url', 'hugo'], lib)).trim()).toBe(`${BASE}/hugo/lib.git`);
    // `git remote add -f`: the fork's branch is already fetched, at the parent's commit.
    expect((await gitOk(['rev-parse', 'hugo/main'], lib)).trim()).toBe((await gitOk(['rev-parse', 'origin/main'], lib)).trim());
  });
});
