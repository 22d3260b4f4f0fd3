// The `gist` gem's command (Debian's `gist` package installs it as gist-paste), unchanged, against `hublet serve` over
// hublet's own TLS with a CA the test makes, set up as its README says for GitHub Enterprise: GITHUB_URL=https://HOST:PORT
// (it then calls the API under /api/v3) and the token alone in ~/.gist.<protocol>.<host>.<port>. gist 6.0 does not verify
// the server's certificate (it sets VERIFY_NONE); SSL_CERT_FILE is set all the same, as for any Ruby client. We assert
// on what it printed and on the gists' state through the API.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGhHarness, type GhHarness } from './gh-harness.js';
import { requireExecutable, run, succeeded, type Env, type Run } from './tools.js';

/** The served site over TLS (the gh tests' set-up; its gh environment is not used here) and gina, its user. */
let h: GhHarness;
let gistEnv: Env;
/** Where gist 6.0 reads the token when GITHUB_URL is set: ~/.gist.<protocol>.<host>.<port>, the token alone. */
let tokenFile: string;
/** Why gist-paste cannot run here (set in beforeAll): every test then fails with it, none is skipped. */
let missing: string | undefined;

const api: GhHarness['api'] = (method, p, opts) => h.api(method, p, opts);
const admin: GhHarness['admin'] = (method, p, body, expected) => h.admin(method, p, body, expected);

/** Runs `gist-paste ARGS…` in the work dir with the test's environment and nothing else. */
async function gist(args: string[], opts: { stdin?: string } = {}): Promise<Run> {
  if (missing) throw new Error(missing);
  return run('gist-paste', args, { env: gistEnv, cwd: h.work, stdin: opts.stdin });
}

/** Runs gist-paste and expects exit 0 and nothing on stderr; answers its stdout. */
async function gistOk(args: string[], opts: { stdin?: string } = {}): Promise<string> {
  const r = await gist(args, opts);
  const out = succeeded(`gist-paste ${args.join(' ')}`, r);
  expect(r.stderr).toBe('');
  return out;
}

/** The gist id at the end of the URL gist-paste printed (the gist's html_url). */
function gistIdFrom(stdout: string): string {
  const m = new RegExp(`^${h.serve.url.replace(/[.]/g, '\\.')}/gist/([0-9a-f]{32})\\n$`).exec(stdout);
  if (!m) throw new Error(`gist-paste printed no gist URL: ${JSON.stringify(stdout)}`);
  return m[1];
}

/** A gist's files as name → content, from the API. */
async function contents(id: string): Promise<Record<string, string>> {
  const g = await api('GET', `/gists/${id}`);
  expect(g.status).toBe(200);
  return Object.fromEntries(Object.entries(g.body.files).map(([n, f]: [string, any]) => [n, f.content]));
}

beforeAll(async () => {
  try {
    requireExecutable('gist-paste', 'gist');
  } catch (err) {
    missing = (err as Error).message;
  }
  h = await startGhHarness('gina');
  expect(h.serve.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  tokenFile = path.join(h.sb.home, `.gist.https.127.0.0.1.${h.serve.port}`);
  fs.writeFileSync(tokenFile, `${h.token}\n`, { mode: 0o600 });
  gistEnv = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: h.sb.home,
    LANG: 'C.UTF-8',
    GITHUB_URL: h.serve.url,
    SSL_CERT_FILE: h.ghEnv.SSL_CERT_FILE,
    // gist-paste asks `git config --global gist.private` whether gists are secret by default: nothing set here.
    GIT_CONFIG_NOSYSTEM: '1',
  };
});
afterAll(async () => {
  await h?.close();
});

describe('gist-paste (the gist gem) against hublet serve over TLS', () => {
  let filesGist: string;
  let stdinGist: string;

  it('uploads files as a public gist with a description: prints its URL, the server has both files', async () => {
    fs.writeFileSync(path.join(h.work, 'hello.rb'), 'puts "hello"\n');
    fs.writeFileSync(path.join(h.work, 'notes.md'), '# notes\n');
    filesGist = gistIdFrom(await gistOk(['-d', 'two files', 'hello.rb', 'notes.md']));
    const g = await api('GET', `/gists/${filesGist}`);
    expect(g.body).toMatchObject({ description: 'two files', public: true, owner: { login: 'gina' } });
    expect(await contents(filesGist)).toEqual({ 'hello.rb': 'puts "hello"\n', 'notes.md': '# notes\n' });
  });

  it('uploads stdin as a private gist (-p), named by -f', async () => {
    stdinGist = gistIdFrom(await gistOk(['-p', '-f', 'piped.txt', '-d', 'from stdin'], { stdin: 'piped in\n' }));
    const g = await api('GET', `/gists/${stdinGist}`);
    expect(g.body).toMatchObject({ description: 'from stdin', public: false, owner: { login: 'gina' } });
    expect(await contents(stdinGist)).toEqual({ 'piped.txt': 'piped in\n' });
  });

  it('stdin without a name becomes gistfile1.txt', async () => {
    const id = gistIdFrom(await gistOk(['-p'], { stdin: 'unnamed\n' }));
    expect(await contents(id)).toEqual({ 'gistfile1.txt': 'unnamed\n' });
    // hublet keeps no description as '' (and gist-paste -l then shows ' (secret)' for it, Ruby's '' being true).
    expect((await api('GET', `/gists/${id}`)).body.description).toBe('');
    expect((await api('DELETE', `/gists/${id}`)).status).toBe(204);
  });

  it('-u updates an existing gist by URL and by id (POST /gists/ID): changed and added files, a new description', async () => {
    fs.writeFileSync(path.join(h.work, 'hello.rb'), 'puts "hello, again"\n');
    const url = `${h.serve.url}/gist/${filesGist}`;
    expect(await gistOk(['-u', url, 'hello.rb'])).toBe(`${url}\n`);
    fs.writeFileSync(path.join(h.work, 'extra.txt'), 'extra\n');
    expect(await gistOk(['-u', filesGist, '-d', 'two files, updated', 'extra.txt'])).toBe(`${url}\n`);

    const g = await api('GET', `/gists/${filesGist}`);
    // An update keeps the gist's visibility and the files it does not name, as on GitHub.
    expect(g.body).toMatchObject({ description: 'two files, updated', public: true });
    expect(g.body.history).toHaveLength(3);
    expect(await contents(filesGist)).toEqual({
      'extra.txt': 'extra\n',
      'hello.rb': 'puts "hello, again"\n',
      'notes.md': '# notes\n',
    });
  });

  it('-l lists the user’s gists, secret ones marked; -l USER lists another user’s public ones', async () => {
    // Most recently updated first: the gist -u changed, then the one from stdin.
    const out = await gistOk(['-l']);
    expect(out).toBe(`${h.serve.url}/gist/${filesGist} two files, updated \n${h.serve.url}/gist/${stdinGist} from stdin (secret)\n`);
    await admin('POST', '/admin/users', { login: 'hank' }, 201);
    const hank = (await admin('POST', '/admin/users/hank/authorizations', { scopes: ['gist'] }, 201)).token;
    const created = await api('POST', '/gists', {
      token: hank,
      body: { public: true, files: { 'h.txt': { content: 'h\n' } }, description: 'hank’s' },
    });
    const secret = await api('POST', '/gists', { token: hank, body: { public: false, files: { 's.txt': { content: 's\n' } } } });
    expect([created.status, secret.status]).toEqual([201, 201]);
    expect(await gistOk(['-l', 'hank'])).toBe(`${h.serve.url}/gist/${created.body.id} hank’s \n`);
  });

  it('-l USER over more than a page (100): gist-paste requests the Link header’s next URL as an absolute-form target', async () => {
    await admin('POST', '/admin/users', { login: 'many' }, 201);
    const many = (await admin('POST', '/admin/users/many/authorizations', { scopes: ['gist'] }, 201)).token;
    const ids: string[] = [];
    for (let n = 1; n <= 101; n++) {
      const g = await api('POST', '/gists', {
        token: many,
        body: { public: true, description: `g${n}`, files: { 'n.txt': { content: `${n}\n` } } },
      });
      expect(g.status).toBe(201);
      ids.unshift(g.body.id);
    }
    const lines = (await gistOk(['-l', 'many'])).split('\n').filter(Boolean);
    expect(lines).toHaveLength(101);
    expect(lines).toEqual(ids.map((id, i) => `${h.serve.url}/gist/${id} g${101 - i} `));
  });

  it('-r reads a gist: its first file, or the one named', async () => {
    // gist-paste prints the content with `puts`, which adds no second newline.
    expect(await gistOk(['-r', stdinGist])).toBe('piped in\n');
    expect(await gistOk(['-r', filesGist, 'notes.md'])).toBe('# notes\n');
    expect(await gistOk(['-r', filesGist, 'extra.txt'])).toBe('extra\n');
    const r = await gist(['-r', filesGist, 'nope.txt']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`Error: Gist with id of ${filesGist} and file nope.txt does not exist.\n`);
  });

  it('--delete removes a gist', async () => {
    expect(await gistOk(['--delete', stdinGist])).toBe('Deleted!\n');
    expect((await api('GET', `/gists/${stdinGist}`)).status).toBe(404);
  });

  it('a wrong token: gist-paste reports the API’s message and creates nothing', async () => {
    const before = (await api('GET', '/gists')).body.length;
    fs.writeFileSync(tokenFile, `hlp_${'f'.repeat(36)}\n`);
    try {
      const r = await gist(['-l']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('Error: Bad credentials\n');
    } finally {
      fs.writeFileSync(tokenFile, `${h.token}\n`);
    }
    expect((await api('GET', '/gists')).body.length).toBe(before);
  });
});
