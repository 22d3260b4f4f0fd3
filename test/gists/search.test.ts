// GET /search/gists: GitHub's search response over the gists a caller may see, every qualifier (case-insensitive),
// ranking, paging with Link, secret gists for their owner only, the index kept current by every write (update, rename,
// file delete, delete, fork, git push, import, account deletion; owner renames and stars need none), the schema
// migration indexing gists that already exist, and hostile queries answered without a 500.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as searchMigration from '../../src/db/schema-migrations/2026-11-28T02-00-gist-search.js';
import { expectResponseMatchesSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { git, withCredentials } from './git-tools.js';

let s: TestServer;
let tmp: string;
let alice: { login: string; id: number; token: string };
let bob: { login: string; id: number; token: string };
let carol: { login: string; id: number; token: string };
let now = new Date('2026-01-01T00:00:00Z');
/** Gist ids by the name the test gave them. */
const ids: Record<string, string> = {};

/** Creates a gist a minute after the last one (so "most recently updated" is the order of creation). */
async function gist(
  name: string,
  token: string,
  files: Record<string, string>,
  opts: { description?: string; public?: boolean } = {},
): Promise<string> {
  now = new Date(now.getTime() + 60_000);
  const r = await s.api('POST', '/gists', {
    token,
    body: {
      description: opts.description ?? name,
      public: opts.public ?? true,
      files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, { content: v }])),
    },
  });
  expect(r.status, r.text).toBe(201);
  ids[name] = r.body.id;
  return r.body.id;
}

async function search(q: string, opts: { token?: string; extra?: string } = {}) {
  return s.api('GET', `/search/gists?q=${encodeURIComponent(q)}${opts.extra ?? ''}`, { token: opts.token });
}

/** The names (descriptions) of what a search finds, in order; fails unless it answered 200. */
async function found(q: string, opts: { token?: string; extra?: string } = {}): Promise<string[]> {
  const r = await search(q, opts);
  expect(r.status, `${q}: ${r.text}`).toBe(200);
  return r.body.items.map((g: any) => g.description);
}

const sorted = (list: string[]) => [...list].sort();

beforeAll(async () => {
  s = await startServer({ clock: { now: () => now }, config: { rateLimitAnonymous: 100_000 } });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-search-'));
  alice = await s.userWithToken('alice', ['gist']);
  bob = await s.userWithToken('bob', ['gist']);
  carol = await s.userWithToken('carol', ['gist']);
  await gist('quicksort', alice.token, {
    'sort.py': 'def quicksort(items):\n    pivot = items[0]\n    return items\n',
    'README.md': '# Sorting\n\nA pivot picks the middle.\n',
  });
  await gist('alice-secret', alice.token, { 'notes.txt': 'pivot plans and a hushword\n' }, { public: false });
  await gist('dotfiles', bob.token, { '.bashrc': 'alias ll="ls -l"\nexport EDITOR=vim\n', 'helpers.sh': 'echo hello\n' });
  await gist('bob-pivot', bob.token, { 'table.md': 'How to pivot a table in a spreadsheet.\n' }, { description: 'Pivot tables' });
  await gist('big', carol.token, { 'data.csv': `id,value\n${'1,2\n'.repeat(600)}` });
  // Stars: quicksort has two, bob-pivot one; a fork of quicksort by carol.
  for (const token of [bob.token, carol.token]) expect((await s.api('PUT', `/gists/${ids.quicksort}/star`, { token })).status).toBe(204);
  expect((await s.api('PUT', `/gists/${ids['bob-pivot']}/star`, { token: alice.token })).status).toBe(204);
  now = new Date(now.getTime() + 60_000);
  const fork = await s.api('POST', `/gists/${ids.quicksort}/forks`, { token: carol.token });
  expect(fork.status).toBe(201);
  ids['quicksort-fork'] = fork.body.id;
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('GET /search/gists', () => {
  it('answers in GitHub’s search shape, items as GET /gists lists them, public gists only for an anonymous caller', async () => {
    const r = await search('pivot');
    expect(r.status).toBe(200);
    expect(r.body.total_count).toBe(3);
    expect(r.body.incomplete_results).toBe(false);
    expect(sorted(r.body.items.map((g: any) => g.id))).toEqual(sorted([ids.quicksort, ids['bob-pivot'], ids['quicksort-fork']]));
    expectResponseMatchesSchema('GET', '/gists', 200, r.body.items);
    const listed = (await s.api('GET', '/users/bob/gists')).body.find((g: any) => g.id === ids['bob-pivot']);
    expect(r.body.items.find((g: any) => g.id === ids['bob-pivot'])).toEqual(listed);
    expect((await s.api('GET', '/api/v3/search/gists?q=pivot')).body.total_count).toBe(3);
  });

  it('finds a caller’s own secret gists for them alone', async () => {
    expect(await found('hushword', { token: alice.token })).toEqual(['alice-secret']);
    expect(await found('hushword', { token: bob.token })).toEqual([]);
    expect(await found('hushword')).toEqual([]);
    expect((await search('pivot', { token: alice.token })).body.total_count).toBe(4);
    expect((await search('pivot', { token: bob.token })).body.total_count).toBe(3);
  });

  it('matches descriptions, file names and file contents, whatever their case and accents', async () => {
    expect(await found('TABLES')).toEqual(['Pivot tables']);
    expect(await found('bashrc')).toEqual(['dotfiles']);
    expect(await found('EDITOR vim')).toEqual(['dotfiles']);
    expect(await found('"middle pivot"')).toEqual([]);
    expect(sorted(await found('"pivot picks"'))).toEqual(['quicksort', 'quicksort']);
    expect(await found('pivot -spreadsheet user:bob')).toEqual([]);
    expect(sorted(await found('pivot NOT quicksort'))).toEqual(['Pivot tables']);
  });

  it('ranks the best match first: the words in the description, then in a file name, then the newest', async () => {
    const strong = await gist('zebra-strong', alice.token, { 'stripes.txt': 'black and white' }, { description: 'Zebra facts' });
    await gist('zebra-medium', alice.token, { 'zebra-notes.txt': 'crossing\n' }, { description: 'notes' });
    await gist('zebra-old', alice.token, { 'old.txt': 'an older zebra\n' }, { description: 'older essay' });
    await gist('zebra-weak', alice.token, { 'essay.txt': 'the savanna is wide and warm, and a zebra\n' }, { description: 'essay' });
    const r = await search('zebra');
    expect(r.body.items.map((g: any) => g.id)).toEqual([strong, ids['zebra-medium'], ids['zebra-weak'], ids['zebra-old']]);
    // sort=updated: newest first (asc: oldest first); sort=stars by stars.
    expect(await found('zebra', { extra: '&sort=updated' })).toEqual(['essay', 'older essay', 'notes', 'Zebra facts']);
    expect(await found('zebra', { extra: '&sort=updated&order=asc' })).toEqual(['Zebra facts', 'notes', 'older essay', 'essay']);
    expect(await found('pivot', { extra: '&sort=stars' })).toEqual(['quicksort', 'Pivot tables', 'quicksort']);
    expect((await search('zebra', { extra: '&sort=size' })).status).toBe(422);
  });

  it('takes user:, filename:, extension:, language: in any case', async () => {
    expect(sorted(await found('user:bob'))).toEqual(['Pivot tables', 'dotfiles']);
    expect(await found('pivot USER:Bob')).toEqual(['Pivot tables']);
    expect(sorted(await found('user:bob user:carol pivot'))).toEqual(['Pivot tables', 'quicksort']);
    expect(await found('filename:.bashrc')).toEqual(['dotfiles']);
    expect(await found('Filename:BASHRC')).toEqual(['dotfiles']);
    expect(sorted(await found('extension:py'))).toEqual(['quicksort', 'quicksort']);
    expect(sorted(await found('extension:.PY user:alice'))).toEqual(['quicksort']);
    expect(await found('extension:sh echo')).toEqual(['dotfiles']);
    expect(sorted(await found('language:python'))).toEqual(['quicksort', 'quicksort']);
    expect(sorted(await found('Language:PYTHON pivot'))).toEqual(['quicksort', 'quicksort']);
    expect(await found('language:python pivot user:bob')).toEqual([]);
  });

  it('takes stars: and size: in GitHub’s range forms, and fork:only, fork:true and fork:false', async () => {
    expect(await found('pivot stars:>1')).toEqual(['quicksort']);
    expect(await found('pivot stars:2')).toEqual(['quicksort']);
    expect(sorted(await found('pivot stars:>=1'))).toEqual(['Pivot tables', 'quicksort']);
    expect(await found('pivot stars:<1')).toEqual(['quicksort']);
    expect(sorted(await found('pivot stars:1..2'))).toEqual(['Pivot tables', 'quicksort']);
    expect(await found('pivot stars:<=0 fork:only')).toEqual(['quicksort']);
    expect(await found('size:>2000')).toEqual(['big']);
    expect(await found('size:2000..3000')).toEqual(['big']);
    expect(await found('size:>=2409 size:<=2409')).toEqual(['big']);
    expect(await found('size:*..11 user:bob')).toEqual(['dotfiles']);
    const forks = await search('pivot fork:only');
    expect(forks.body.items.map((g: any) => g.id)).toEqual([ids['quicksort-fork']]);
    expect((await search('pivot fork:true')).body.total_count).toBe(3);
    expect((await search('pivot fork:false')).body.total_count).toBe(2);
  });

  it('pages with GitHub’s Link header, and serves only the first 1,000 results', async () => {
    for (let i = 0; i < 5; i++) await gist(`paged-${i}`, carol.token, { 'page.txt': `pagedword ${i}\n` });
    const first = await search('pagedword', { extra: '&per_page=2' });
    expect(first.body.total_count).toBe(5);
    expect(first.body.items).toHaveLength(2);
    const link = first.headers.get('link')!;
    expect(link).toContain(`<${s.url}/search/gists?q=pagedword&per_page=2&page=2>; rel="next"`);
    expect(link).toContain(`<${s.url}/search/gists?q=pagedword&per_page=2&page=3>; rel="last"`);
    const last = await search('pagedword', { extra: '&per_page=2&page=3' });
    expect(last.body.items).toHaveLength(1);
    expect(last.headers.get('link')).toContain('rel="prev"');
    expect(last.headers.get('link')).not.toContain('rel="next"');
    const all = [first, await search('pagedword', { extra: '&per_page=2&page=2' }), last].flatMap((r) =>
      r.body.items.map((g: any) => g.id),
    );
    expect(new Set(all).size).toBe(5);
    const deep = await search('pagedword', { extra: '&per_page=100&page=11' });
    expect(deep.status).toBe(422);
    expect(deep.body.message).toBe('Only the first 1000 search results are available');
  });

  it('refuses a missing or empty q, an unknown user, and a query it cannot run with 422 Validation Failed', async () => {
    for (const path of ['/search/gists', '/search/gists?q=', '/search/gists?q=%20%20']) {
      const r = await s.api('GET', path);
      expect(r.status, path).toBe(422);
      expect(r.body).toMatchObject({ message: 'Validation Failed', errors: [{ resource: 'Search', field: 'q', code: 'missing' }] });
    }
    const unknown = await search('user:nobody-here');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({
      resource: 'Search',
      field: 'q',
      code: 'invalid',
      message: expect.stringContaining('users do not exist'),
    });
    const stars = await search('stars:>abc');
    expect(stars.status).toBe(422);
    expect(stars.body.errors[0].message).toBe(
      'stars:>abc is not a number or a range of numbers (such as stars:>10, stars:10..50 or stars:<=5).',
    );
  });

  it('answers hostile queries with results or a 422, never a 500', async () => {
    const hostile = [
      '"',
      '*',
      'NEAR(',
      'NEAR(pivot, 2)',
      'AND',
      'OR',
      'NOT',
      '-',
      '(',
      ')',
      'pivot*',
      '{scope}: p',
      'scope:p',
      '^pivot',
      "pivot' | '~p",
      'pivot:*',
      'p:D',
      '\\',
      '%',
      '_',
      'a\u0000b',
      'user:a\u0000b',
      'filename:a\u0000b',
      'filename:%_\\',
      '💥',
      'x'.repeat(2000),
      `${'pivot '.repeat(400)}`,
      '"a" "b" NEAR("c")',
    ];
    for (const q of hostile) {
      const r = await search(q);
      expect([200, 422], `${JSON.stringify(q)}: ${r.status} ${r.text}`).toContain(r.status);
      expect(r.headers.get('content-type')).toMatch(/json/);
    }
    // Scope words of the index are not searchable words: `p` and `u<id>` find nothing of themselves.
    expect(await found('p')).toEqual([]);
    expect(await found(`u${alice.id}`)).toEqual([]);
    expect(await found(`s${alice.id}`)).toEqual([]);
    expect((await search('x'.repeat(2000))).body.errors[0].message).toBe('The search is longer than 256 characters.');
  });
});

describe('the index, kept current', () => {
  it('follows description and content updates, renames and deleted files, and drops a deleted gist', async () => {
    const id = await gist('kept', alice.token, { 'a.txt': 'applejuice\n', 'b.txt': 'bananabread\n' }, { description: 'cherrypie' });
    expect(await found('cherrypie')).toEqual(['cherrypie']);
    const patch = (body: unknown) => s.api('PATCH', `/gists/${id}`, { token: alice.token, body });
    expect((await patch({ description: 'damsonjam' })).status).toBe(200);
    expect(await found('cherrypie')).toEqual([]);
    expect(await found('damsonjam')).toEqual(['damsonjam']);
    expect((await patch({ files: { 'a.txt': { content: 'elderflower\n' } } })).status).toBe(200);
    expect(await found('applejuice')).toEqual([]);
    expect(await found('elderflower')).toEqual(['damsonjam']);
    expect((await patch({ files: { 'a.txt': { filename: 'figroll.txt' } } })).status).toBe(200);
    expect(await found('filename:figroll')).toEqual(['damsonjam']);
    expect(await found('figroll elderflower')).toEqual(['damsonjam']);
    expect((await patch({ files: { 'b.txt': null } })).status).toBe(200);
    expect(await found('bananabread')).toEqual([]);
    expect((await s.api('DELETE', `/gists/${id}`, { token: alice.token })).status).toBe(204);
    const gone = await search('elderflower');
    expect(gone.body).toMatchObject({ total_count: 0, items: [] });
  });

  it('indexes a fork and an import as gists of their own', async () => {
    const id = await gist('original', alice.token, { 'g.txt': 'gooseberry\n' });
    expect((await s.api('POST', `/gists/${id}/forks`, { token: bob.token })).status).toBe(201);
    expect(await found('gooseberry fork:only user:bob')).toEqual(['original']);
    const imported = await s.api('POST', '/user/gist-imports', {
      token: carol.token,
      body: {
        source: 'https://api.github.com/gists/0123abcd',
        public: true,
        description: 'imported',
        files: { 'h.txt': { content: 'huckleberry\n' } },
      },
    });
    expect(imported.status, imported.text).toBe(201);
    expect(await found('huckleberry user:carol')).toEqual(['imported']);
  });

  it('follows a git push: the pushed files replace what was found', async () => {
    const g = await s.api('GET', `/gists/${await gist('pushed', alice.token, { 'i.txt': 'icecream\n' })}`);
    const dir = path.join(tmp, 'clone');
    await git(['clone', '-q', g.body.git_pull_url, dir], tmp);
    fs.writeFileSync(path.join(dir, 'i.txt'), 'jackfruit\n');
    fs.writeFileSync(path.join(dir, 'k.py'), 'kumquat = 1\n');
    await git(['add', '-A'], dir);
    await git(['commit', '-q', '-m', 'change'], dir);
    await git(['push', '-q', withCredentials(g.body.git_push_url, 'alice', alice.token), 'main'], dir);
    expect(await found('icecream')).toEqual([]);
    expect(await found('jackfruit')).toEqual(['pushed']);
    expect(await found('kumquat language:python')).toEqual(['pushed']);
  });

  it('needs no reindexing for an owner’s rename or a star; drops a deleted account’s gists', async () => {
    const dave = await s.userWithToken('dave', ['gist']);
    const id = await gist('daves', dave.token, { 'l.txt': 'lemoncurd\n' });
    const renamed = await s.api('PATCH', '/admin/users/dave', { token: s.adminToken, body: { login: 'david' } });
    expect(renamed.status).toBe(202);
    expect(await found('lemoncurd user:david')).toEqual(['daves']);
    expect((await search('lemoncurd user:dave')).status).toBe(422);
    expect(await found('lemoncurd stars:1')).toEqual([]);
    expect((await s.api('PUT', `/gists/${id}/star`, { token: alice.token })).status).toBe(204);
    expect(await found('lemoncurd stars:1')).toEqual(['daves']);
    expect((await s.api('DELETE', '/admin/users/david', { token: s.adminToken })).status).toBe(204);
    expect((await search('lemoncurd')).body).toMatchObject({ total_count: 0, items: [] });
  });

  it('is built for the gists that exist by the schema migration, as the writes build it', async () => {
    const queries = ['pivot', 'hushword', 'zebra', 'language:python pivot', 'extension:PY', 'user:bob', 'filename:.bashrc', 'size:>2000'];
    const answers = async () => Promise.all(queries.map(async (q) => (await search(q, { token: alice.token })).body));
    const before = await answers();
    for (const body of before) expect(body.total_count).toBeGreaterThan(0);
    await searchMigration.down(s.db);
    await searchMigration.up(s.db);
    expect(await answers()).toEqual(before);
  });
});
