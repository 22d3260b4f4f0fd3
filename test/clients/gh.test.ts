// GitHub's CLI, unchanged (Debian's `gh`), against `hublet serve` over hublet's own TLS with a CA the test makes, set up
// as for any GitHub Enterprise host: GH_HOST=127.0.0.1:PORT, GH_ENTERPRISE_TOKEN, SSL_CERT_FILE (gh) and GIT_SSL_CAINFO
// (git), as gh-harness.ts sets it up. gh talks REST under /api/v3 and GraphQL at /api/graphql; we assert on what it
// printed and on the server's state.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGhHarness, type GhHarness } from './gh-harness.js';
import { run, succeeded, type Env } from './tools.js';

let h: GhHarness;
let sb: GhHarness['sb'];
let ghEnv: Env;
let host: string;
let work: string;
const api: GhHarness['api'] = (...args) => h.api(...args);
const admin: GhHarness['admin'] = (...args) => h.admin(...args);
const gh: GhHarness['gh'] = (...args) => h.gh(...args);
const ghOk: GhHarness['ghOk'] = (...args) => h.ghOk(...args);

/** The gist id at the end of the URL gh printed for a new gist. */
function gistIdFrom(stdout: string): string {
  const m = new RegExp(`^https://${host.replace(/\./g, '\\.')}/gist/([0-9a-f]{32})\\n$`).exec(stdout);
  if (!m) throw new Error(`gh printed no gist URL: ${JSON.stringify(stdout)}`);
  return m[1];
}

/** The first four columns of gh's tab-separated list lines (`gist list`: id, description, files, visibility). */
const listed = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t').slice(0, 4));

beforeAll(async () => {
  h = await startGhHarness();
  ({ sb, ghEnv, host, work } = h);
});
afterAll(async () => h?.close());

describe('gh against hublet serve over TLS', () => {
  it('gh auth status: logged in to the host as the token’s user, with its scopes and nothing missing', async () => {
    const r = await gh(['auth', 'status']);
    expect(r.code, r.stderr).toBe(0);
    // gh 2.23 writes the status to stderr.
    const out = r.stdout + r.stderr;
    expect(out).toContain(`Logged in to ${host} as dave (GH_ENTERPRISE_TOKEN)`);
    expect(out).toContain('Token scopes: repo, read:org, gist');
    expect(out).not.toMatch(/missing required scope/i);
  });

  let filesGist: string;
  let stdinGist: string;

  it('gh gist create: from files (secret by default) and from stdin (`-`, public with -p)', async () => {
    fs.writeFileSync(path.join(work, 'one.txt'), 'one\n');
    fs.writeFileSync(path.join(work, 'two.md'), '# two\n');
    filesGist = gistIdFrom(await ghOk(['gist', 'create', '-d', 'files gist', 'one.txt', 'two.md']));
    stdinGist = gistIdFrom(await ghOk(['gist', 'create', '-p', '-d', 'stdin gist', '-'], { stdin: 'from stdin\n' }));

    const files = await api('GET', `/gists/${filesGist}`);
    expect(files.body).toMatchObject({ description: 'files gist', public: false, owner: { login: 'dave' } });
    expect(Object.fromEntries(Object.entries(files.body.files).map(([n, f]: [string, any]) => [n, f.content]))).toEqual({
      'one.txt': 'one\n',
      'two.md': '# two\n',
    });
    // gh names stdin content gistfile0.txt explicitly; hublet keeps the name it was given.
    const stdin = await api('GET', `/gists/${stdinGist}`);
    expect(stdin.body).toMatchObject({ description: 'stdin gist', public: true });
    expect(Object.keys(stdin.body.files)).toEqual(['gistfile0.txt']);
    expect(stdin.body.files['gistfile0.txt'].content).toBe('from stdin\n');
  });

  it('gh gist list: all, --public, --secret', async () => {
    expect(listed(await ghOk(['gist', 'list']))).toEqual([
      [stdinGist, 'stdin gist', '1 file', 'public'],
      [filesGist, 'files gist', '2 files', 'secret'],
    ]);
    expect(listed(await ghOk(['gist', 'list', '--public']))).toEqual([[stdinGist, 'stdin gist', '1 file', 'public']]);
    expect(listed(await ghOk(['gist', 'list', '--secret']))).toEqual([[filesGist, 'files gist', '2 files', 'secret']]);
  });

  it('gh gist view: the whole gist, one file, the file names', async () => {
    expect(await ghOk(['gist', 'view', filesGist, '--raw'])).toBe('files gist\n\none.txt\n\none\n\ntwo.md\n\n# two\n');
    expect(await ghOk(['gist', 'view', filesGist, '--raw', '-f', 'two.md'])).toBe('# two\n');
    expect(await ghOk(['gist', 'view', filesGist, '--files'])).toBe('one.txt\ntwo.md\n');
  });

  it('gh gist edit: add a file, change one through $EDITOR, change the description', async () => {
    fs.writeFileSync(path.join(work, 'three.txt'), 'three\n');
    await ghOk(['gist', 'edit', filesGist, '-a', 'three.txt']);
    const editor = path.join(sb.root, 'editor.sh');
    fs.writeFileSync(editor, '#!/bin/sh\nprintf "edited by the editor\\n" > "$1"\n', { mode: 0o755 });
    await ghOk(['gist', 'edit', filesGist, '-f', 'one.txt'], { env: { GH_EDITOR: editor } });
    // gh 2.23 edits one file per run; an editor that changes nothing leaves the file alone, -d sets the description.
    await ghOk(['gist', 'edit', filesGist, '-f', 'two.md', '-d', 'files gist, edited'], { env: { GH_EDITOR: 'true' } });

    const after = await api('GET', `/gists/${filesGist}`);
    expect(after.body.description).toBe('files gist, edited');
    expect(Object.fromEntries(Object.entries(after.body.files).map(([n, f]: [string, any]) => [n, f.content]))).toEqual({
      'one.txt': 'edited by the editor\n',
      'three.txt': 'three\n',
      'two.md': '# two\n',
    });
    expect(after.body.history).toHaveLength(3);
  });

  it('gh gist clone: git over HTTPS with the test CA gets every file and every version', async () => {
    await ghOk(['gist', 'clone', filesGist, 'cloned-gist']);
    const dir = path.join(work, 'cloned-gist');
    expect(
      fs
        .readdirSync(dir)
        .filter((f) => f !== '.git')
        .sort(),
    ).toEqual(['one.txt', 'three.txt', 'two.md']);
    expect(fs.readFileSync(path.join(dir, 'one.txt'), 'utf8')).toBe('edited by the editor\n');
    const log = succeeded('git log', await run('git', ['-C', dir, 'log', '--format=%H'], { env: ghEnv }));
    const history = (await api('GET', `/gists/${filesGist}`)).body.history.map((h: any) => h.version);
    expect(log.trim().split('\n')).toEqual(history);
  });

  it('gh gist delete: gone from the server and from gh gist list', async () => {
    await ghOk(['gist', 'delete', stdinGist]);
    expect((await api('GET', `/gists/${stdinGist}`)).status).toBe(404);
    expect(listed(await ghOk(['gist', 'list'])).map((l) => l[0])).toEqual([filesGist]);
  });

  it('gh api --paginate: follows the Link header through every page of a list', async () => {
    for (const n of [1, 2, 3, 4])
      await api('POST', '/gists', { body: { description: `page test ${n}`, public: true, files: { 'n.txt': { content: `${n}\n` } } } });
    const all = (await api('GET', '/gists?per_page=100')).body.map((g: any) => g.description);
    expect(all).toHaveLength(5);
    const out = await ghOk(['api', '--paginate', '/gists?per_page=2', '--jq', '.[].description']);
    expect(out.trim().split('\n')).toEqual(all);
  });

  it('gh repo clone OWNER/REPO: a private repository, through gh’s credential helper', async () => {
    const created = await api('POST', '/user/repos', { body: { name: 'proj', description: 'a project', private: true, auto_init: true } });
    expect(created.status).toBe(201);
    await ghOk(['repo', 'clone', 'dave/proj']);
    const dir = path.join(work, 'proj');
    expect(fs.readdirSync(dir).sort()).toEqual(['.git', 'README.md']);
    const remote = succeeded('git remote', await run('git', ['-C', dir, 'remote', 'get-url', 'origin'], { env: ghEnv }));
    expect(remote.trim()).toBe(`https://${host}/dave/proj.git`);
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe('# proj\na project\n');
    const log = succeeded('git log', await run('git', ['-C', dir, 'log', '--format=%s|%an'], { env: ghEnv }));
    expect(log).toBe('Initial commit|dave\n');
  });

  it('gh repo view OWNER/REPO: name and description', async () => {
    const out = await ghOk(['repo', 'view', 'dave/proj']);
    expect(out).toMatch(/^name:\tdave\/proj\ndescription:\ta project\n/);
  });

  it('gh repo list: the user’s repositories and an organization’s (GraphQL repositoryOwner.repositories)', async () => {
    await admin('POST', '/admin/organizations', { login: 'acme', admin: 'dave' }, 201);
    expect((await api('POST', '/orgs/acme/repos', { body: { name: 'site', description: 'the site', auto_init: true } })).status).toBe(201);
    // Name, description, visibility (the fourth column is the update time).
    expect(listed(await ghOk(['repo', 'list'])).map((l) => l.slice(0, 3))).toEqual([['dave/proj', 'a project', 'private']]);
    expect(listed(await ghOk(['repo', 'list', 'acme'])).map((l) => l.slice(0, 3))).toEqual([['acme/site', 'the site', 'public']]);
  });

  it('gh repo edit: a new description, seen by the server and by gh repo view', async () => {
    await ghOk(['repo', 'edit', 'dave/proj', '--description', 'edited by gh']);
    expect((await api('GET', '/repos/dave/proj')).body.description).toBe('edited by gh');
    expect(await ghOk(['repo', 'view', 'dave/proj'])).toMatch(/^name:\tdave\/proj\ndescription:\tedited by gh\n/);
  });
});
