// `hublet gist search QUERY` in-process against a test server: the same lines as `gist list` (id first, with the
// owner) in local and remote mode, best match first, --limit over several pages, --json with the API's items, --sort,
// secret gists for their owner only (anonymous remote: public ones), and a query the server refuses (exit 1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSearch } from '../../src/cli/commands/gist/search.js';
import { failed, ok } from '../helpers/cli.js';
import { fakeIO, startInProcessCliServer, type InProcessCliServer } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';
import { gistBody } from './bodies.js';
import { stubClient } from './stub-client.js';

let cli: InProcessCliServer;
let s: TestServer;
let alice: { login: string; token: string };
let bob: { login: string; token: string };

beforeAll(async () => {
  cli = await startInProcessCliServer();
  s = cli.server;
  alice = await s.userWithToken('alice', ['gist']);
  bob = await s.userWithToken('bob', ['gist']);
});
afterAll(async () => cli?.close());

/** Table lines without the header, their columns split on the table's spacing. */
const rows = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => line.split(/ {2,}/));

describe('gist search', () => {
  it('asks for the query and its sort, no bigger page than --limit, following Link to the next page', async () => {
    const item = (id: string) => gistBody({ 'a.txt': 'x' }, { id, public: true, description: `gist ${id}` });
    const client = stubClient({
      'GET /search/gists?q=user%3Aalice+%22two+words%22&per_page=3&page=1&sort=stars&order=asc': {
        body: { total_count: 3, incomplete_results: false, items: [item('a1'), item('a2')] },
        headers: { link: '<http://hublet.test/search/gists?page=2>; rel="next"' },
      },
      'GET /search/gists?q=user%3Aalice+%22two+words%22&per_page=3&page=2&sort=stars&order=asc': {
        body: { total_count: 3, incomplete_results: false, items: [item('a3')] },
      },
    });
    const fake = fakeIO();
    await runSearch({ client, json: false, query: 'user:alice "two words"', limit: 3, sort: 'stars', order: 'asc' }, fake.io);
    expect(client.calls()).toHaveLength(2);
    expect(fake.stdout().split('\n')).toEqual([
      'ID  OWNER  DESCRIPTION  FILES   VISIBILITY  UPDATED',
      'a1  alice  gist a1      1 file  public      2026-01-02T03:04:05Z',
      'a2  alice  gist a2      1 file  public      2026-01-02T03:04:05Z',
      'a3  alice  gist a3      1 file  public      2026-01-02T03:04:05Z',
      '',
    ]);
    const all = fakeIO();
    await runSearch({ client, json: true, query: 'user:alice "two words"', limit: 3, sort: 'stars', order: 'asc' }, all.io);
    expect(JSON.parse(all.stdout()).map((g: any) => g.id)).toEqual(['a1', 'a2', 'a3']);
  });

  it('prints the matches as gist list does, best match first, the same in local and remote mode', async () => {
    const weak = await s.createGist(bob.token, 'an essay', { 'essay.txt': `${'words about other things here '.repeat(20)}walrus\n` });
    const strong = await s.createGist(alice.token, 'Walrus facts', { 'walrus.md': 'the walrus is big\n' });
    const local = ok(await cli.local(['--as', 'alice', 'gist', 'search', 'walrus']));
    const remote = ok(await cli.remote(alice.token, ['gist', 'search', 'walrus']));
    expect(remote.stdout).toBe(local.stdout);
    const lines = local.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+OWNER\s+DESCRIPTION\s+FILES\s+VISIBILITY\s+UPDATED$/);
    expect(rows(local.stdout).map((r) => r.slice(0, 5))).toEqual([
      [strong, 'alice', 'Walrus facts', '1 file', 'public'],
      [weak, 'bob', 'an essay', '1 file', 'public'],
    ]);
    // What gist list prints for the same gist, the same way.
    const listed = ok(await cli.local(['--as', 'alice', 'gist', 'list']));
    const mine = listed.stdout.split('\n').find((l) => l.startsWith(strong))!;
    expect(rows(local.stdout)[0].filter((_, i) => i !== 1)).toEqual(mine.split(/ {2,}/));
  });

  it('follows pages up to --limit, prints the API’s items with --json, and sorts with --sort', async () => {
    const made: string[] = [];
    for (let i = 0; i < 12; i++) made.push(await s.createGist(bob.token, `paged ${i}`, { 'p.txt': `narwhal ${i}\n` }));
    const limited = ok(await cli.remote(null, ['gist', 'search', 'narwhal', '--limit', '11']));
    expect(rows(limited.stdout)).toHaveLength(11);
    const all = ok(await cli.remote(null, ['--json', 'gist', 'search', 'narwhal', '-L', '50']));
    const items = JSON.parse(all.stdout);
    expect(items.map((g: any) => g.id).sort()).toEqual([...made].sort());
    const api = await s.api('GET', '/search/gists?q=narwhal&per_page=1');
    expect(items.find((g: any) => g.id === api.body.items[0].id)).toEqual(api.body.items[0]);
    const oldest = ok(await cli.remote(null, ['gist', 'search', 'narwhal', '--sort', 'updated', '--order', 'asc', '-L', '1']));
    expect(rows(oldest.stdout).map((r) => r[0])).toEqual([made[0]]);
  });

  it('finds secret gists for their owner only, and ends with the API’s error for a query it refuses', async () => {
    const secret = await s.createGist(alice.token, 'hidden', { 'h.txt': 'platypus\n' }, false);
    const own = ok(await cli.local(['--as', 'alice', 'gist', 'search', 'platypus']));
    expect(rows(own.stdout).map((r) => [r[0], r[4]])).toEqual([[secret, 'secret']]);
    expect(rows(ok(await cli.remote(bob.token, ['gist', 'search', 'platypus'])).stdout)).toEqual([]);
    expect(rows(ok(await cli.remote(null, ['gist', 'search', 'platypus'])).stdout)).toEqual([]);
    const refused = failed(await cli.remote(null, ['gist', 'search', 'stars:>abc']), 1);
    expect(JSON.parse(refused.stderr.split('\nhint:')[0])).toMatchObject({
      message: 'Validation Failed',
      errors: [{ resource: 'Search', field: 'q', code: 'invalid' }],
    });
  });
});
