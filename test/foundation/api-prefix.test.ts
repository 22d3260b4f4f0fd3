// GitHub Enterprise's /api/v3 prefix: a request under it gets every API URL (url and API *_url fields, Link, Location)
// under /api/v3, as PyGithub and Octokit configured with `…/api/v3` require; html, git, raw and avatar URLs stay at the
// root; webhook payloads carry root URLs whatever prefix the request that caused them used; each prefix is its own
// cached response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

let s: TestServer;
let rcv: Receiver;
let owner: { login: string; token: string };

beforeAll(async () => {
  s = await startServer();
  rcv = await startReceiver();
  owner = await s.userWithToken('octo', ['gist', 'repo', 'admin:org', 'admin:org_hook']);
  await s.createOrg('acme', 'octo');
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
});

/** Fields whose URLs are not API URLs: pages, git remotes, raw files, pictures. */
const ROOT_FIELDS = new Set([
  'html_url',
  'git_pull_url',
  'git_push_url',
  'raw_url',
  'clone_url',
  'git_url',
  'svn_url',
  'ssh_url',
  'avatar_url',
  'mirror_url',
  'homepage',
  'blog',
]);

/** Every URL on this server in a body, by field path: [path, url, whether it is an API URL]. */
function urlsIn(body: unknown, base: string, at = '$'): Array<[string, string, boolean]> {
  if (Array.isArray(body)) return body.flatMap((v, i) => urlsIn(v, base, `${at}[${i}]`));
  if (body === null || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([k, v]): Array<[string, string, boolean]> => {
    if (typeof v === 'string' && v.startsWith(base) && (k === 'url' || k.endsWith('_url') || ROOT_FIELDS.has(k)))
      return [[`${at}.${k}`, v, !ROOT_FIELDS.has(k)]];
    return urlsIn(v, base, `${at}.${k}`);
  });
}

/** Asserts each API URL is under /api/v3 (or at the root) and each page/git/raw URL at the root; returns how many were checked. */
function expectPrefixed(body: unknown, prefixed: boolean): number {
  const found = urlsIn(body, s.url);
  for (const [path, url, isApi] of found) {
    const underPrefix = url.startsWith(`${s.url}/api/v3/`) || url === `${s.url}/api/v3`;
    expect([path, url, underPrefix]).toEqual([path, url, isApi && prefixed]);
  }
  return found.length;
}

describe('links follow the /api/v3 prefix of the request', () => {
  it('a gist: API URLs under the prefix, html, git and raw URLs at the root; the root request keeps root URLs', async () => {
    const created = await s.api('POST', '/api/v3/gists', {
      token: owner.token,
      body: { public: true, files: { 'a.txt': { content: 'x' } } },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.headers.get('location')).toBe(`${s.url}/api/v3/gists/${id}`);
    expect(created.body.url).toBe(`${s.url}/api/v3/gists/${id}`);
    expect(created.body.html_url).toBe(`${s.url}/gist/${id}`);
    expect(created.body.files['a.txt'].raw_url.startsWith(`${s.url}/gist/`)).toBe(true);
    expect(expectPrefixed(created.body, true)).toBeGreaterThan(8);
    // Reads alternate between the two forms: each is its own cached response, never the other's.
    for (let i = 0; i < 2; i++) {
      const viaPrefix = await s.api('GET', `/api/v3/gists/${id}`);
      expect(viaPrefix.body.commits_url).toBe(`${s.url}/api/v3/gists/${id}/commits`);
      expect(viaPrefix.body.owner.url).toBe(`${s.url}/api/v3/users/octo`);
      expect(viaPrefix.body.history[0].url).toMatch(new RegExp(`^${s.url}/api/v3/gists/${id}/[0-9a-f]{40}$`));
      expectPrefixed(viaPrefix.body, true);
      const atRoot = await s.api('GET', `/gists/${id}`);
      expect(atRoot.body.url).toBe(`${s.url}/gists/${id}`);
      expectPrefixed(atRoot.body, false);
    }
    const fork = await s.api('POST', `/api/v3/gists/${id}/forks`, { token: (await s.userWithToken('mona', ['gist'])).token });
    expect(fork.headers.get('location')).toBe(`${s.url}/api/v3/gists/${fork.body.id}`);
  });

  it('Link headers of page-number, since and cursor lists', async () => {
    for (let i = 0; i < 2; i++)
      await s.api('POST', '/gists', { token: owner.token, body: { public: true, files: { 'b.txt': { content: `${i}` } } } });
    const pages = await s.api('GET', '/api/v3/gists/public?per_page=1');
    const link = pages.headers.get('link')!;
    expect(link).toContain(`<${s.url}/api/v3/gists/public?per_page=1&page=2>; rel="next"`);
    expect(link).not.toMatch(new RegExp(`<${s.url}/gists`));
    expectPrefixed(pages.body, true);
    expect((await s.api('GET', '/gists/public?per_page=1')).headers.get('link')).toContain(`<${s.url}/gists/public?per_page=1&page=2>`);
    await s.createUser('zed');
    const users = await s.api('GET', '/api/v3/users?per_page=1');
    expect(users.headers.get('link')).toMatch(new RegExp(`^<${s.url}/api/v3/users\\?per_page=1&since=\\d+>; rel="next"$`));
    expectPrefixed(users.body, true);
  });

  it('an org hook and its deliveries under the prefix; the ping payload it sent carries root URLs', async () => {
    const created = await s.api('POST', '/api/v3/orgs/acme/hooks', {
      token: owner.token,
      body: { name: 'web', config: { url: `${rcv.url}/p`, content_type: 'json' } },
    });
    expect(created.status).toBe(201);
    const self = `${s.url}/api/v3/orgs/acme/hooks/${created.body.id}`;
    expect(created.headers.get('location')).toBe(self);
    expect([created.body.url, created.body.ping_url, created.body.deliveries_url]).toEqual([self, `${self}/pings`, `${self}/deliveries`]);
    const [ping] = await rcv.waitFor(1, (r) => r.headers['x-service-event'] === 'ping');
    expect(ping!.payload.hook.url).toBe(`${s.url}/orgs/acme/hooks/${created.body.id}`);
    expectPrefixed(ping!.payload, false);
    const list = await s.api('GET', '/api/v3/orgs/acme/hooks', { token: owner.token });
    expect(expectPrefixed(list.body, true)).toBeGreaterThan(2);
  });

  it('a repository: API URLs under the prefix, clone and page URLs at the root', async () => {
    const created = await s.api('POST', '/api/v3/orgs/acme/repos', { token: owner.token, body: { name: 'tool' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${s.url}/api/v3/repos/acme/tool`);
    const repo = await s.api('GET', '/api/v3/repos/acme/tool', { token: owner.token });
    expect(repo.body.url).toBe(`${s.url}/api/v3/repos/acme/tool`);
    expect(repo.body.owner.repos_url).toBe(`${s.url}/api/v3/users/acme/repos`);
    expect(repo.body.clone_url).toBe(`${s.url}/acme/tool.git`);
    expect(repo.body.html_url).toBe(`${s.url}/acme/tool`);
    expect(expectPrefixed(repo.body, true)).toBeGreaterThan(20);
  });

  it('a migration and the root document', async () => {
    const m = await s.api('POST', '/api/v3/orgs/acme/migrations', { token: owner.token, body: { repositories: ['tool'] } });
    expect(m.status).toBe(201);
    expect(m.body.url).toBe(`${s.url}/api/v3/orgs/acme/migrations/${m.body.id}`);
    expectPrefixed(m.body, true);
    const root = await s.api('GET', '/api/v3');
    expect(root.body.current_user_url).toBe(`${s.url}/api/v3/user`);
    expect((await s.api('GET', '/')).body.current_user_url).toBe(`${s.url}/user`);
  });
});
