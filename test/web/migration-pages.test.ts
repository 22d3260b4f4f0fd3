// The migrations pages of their owners: a person's own at /settings/migrations and an organization's, for its owners,
// at /organizations/<org>/settings/migrations: each export with the API's state, its creation day, its repositories
// and, while the archive exists, a download link that redirects to the archive's signed URL (which downloads without
// a cookie or a token); members, strangers and other people's archives get the not-found page, visitors the sign-in.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForState } from '../migrations/support.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
const ORG_PAGE = '/organizations/Acme/settings/migrations';
let s: TestServer;
const web: Record<string, WebClient> = {};
let mona: string;
let octo: string;
let own: { id: number; guid: string };
let failed: { id: number };
let org: { id: number; guid: string };

async function start(path: string, token: string, repositories: string[]): Promise<{ id: number; guid: string }> {
  const r = await s.api('POST', path, { token, body: { repositories } });
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${r.text}`);
  return r.body;
}

beforeAll(async () => {
  s = await startServer();
  for (const login of ['mona', 'octo', 'eve']) await s.createUser(login, { password: PASSWORD });
  mona = await s.createToken('mona', { scopes: ['repo', 'user'] });
  octo = await s.createToken('octo', { scopes: ['repo', 'admin:org'] });
  await s.createOrg('Acme', 'octo');
  await s.addMember('Acme', 'mona');
  expect((await s.api('POST', '/user/repos', { token: mona, body: { name: 'hello', auto_init: true } })).status).toBe(201);
  expect((await s.api('POST', '/orgs/Acme/repos', { token: octo, body: { name: 'rocket', auto_init: true } })).status).toBe(201);
  own = await start('/user/migrations', mona, ['hello']);
  await waitForState(s, `/user/migrations/${own.id}`, mona);
  failed = await start('/user/migrations', mona, ['hello']);
  await waitForState(s, `/user/migrations/${failed.id}`, mona);
  // A failed export, its reason as the worker would record it (with markup in it, shown as text).
  await s.db
    .updateTable('migrations')
    .set({ state: 'failed', failure_reason: '<script>alert(1)</script> git said no', archive_key: null })
    .where('id', '=', failed.id)
    .execute();
  org = await start('/orgs/Acme/migrations', octo, ['rocket']);
  await waitForState(s, `/orgs/Acme/migrations/${org.id}`, octo);
  for (const login of ['mona', 'octo', 'eve']) {
    web[login] = new WebClient(s.url);
    expect((await web[login].signIn(login, PASSWORD)).status).toBe(303);
  }
}, 120_000);
afterAll(() => s?.close());

/** Follows a download link as a browser does: the page route's 302, then the signed URL with no cookie at all. */
async function download(client: WebClient, path: string): Promise<Buffer> {
  const r = await client.get(path);
  expect(r.status).toBe(302);
  expect(r.location).toMatch(new RegExp(`^${s.url}/storage/migrations/[0-9a-f-]{36}\\.tar\\.gz\\?expires=\\d+&signature=[0-9a-f]{64}$`));
  for (const secret of [mona, octo, 'token', 'hublet_session']) expect(r.location).not.toContain(secret);
  const file = await fetch(r.location);
  expect(file.status).toBe(200);
  expect(file.headers.get('content-type')).toBe('application/gzip');
  return Buffer.from(await file.arrayBuffer());
}

describe('GET /settings/migrations', () => {
  it('lists the person’s exports with the API’s states, their day and repositories, and a download link that works', async () => {
    const r = await web.mona.get('/settings/migrations');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    expect(r.text).toContain('<h1>Migrations</h1>');
    expect(r.text).toContain(`<a href="${s.url}/settings/migrations" aria-current="page">Migrations</a>`);
    const row = (id: number) =>
      r.text.slice(r.text.indexOf(`<tr id="migration-${id}">`), r.text.indexOf('</tr>', r.text.indexOf(`<tr id="migration-${id}">`)));
    expect(row(own.id)).toContain(`<code>${own.guid}</code>`);
    expect(row(own.id)).toContain('<span class="state state-exported">exported</span>');
    expect(row(own.id)).toMatch(/<time datetime="[^"]+">\w{3}, \w{3} \d{1,2}, \d{4}<\/time>/);
    expect(row(own.id)).toContain(`<a href="${s.url}/mona/hello">mona/hello</a>`);
    expect(row(own.id)).toContain(`<a href="${s.url}/settings/migrations/${own.id}/archive" download>Download`);
    expect(row(failed.id)).toContain('<span class="state state-failed">failed</span>');
    expect(row(failed.id)).toContain('&lt;script&gt;alert(1)&lt;/script&gt; git said no');
    expect(row(failed.id)).not.toContain('/archive');
    expect(r.text).not.toContain('<script>');
    // Newest first, and never the organization's.
    expect(r.text.indexOf(`migration-${failed.id}`)).toBeLessThan(r.text.indexOf(`migration-${own.id}`));
    expect(r.text).not.toContain(org.guid);
    const bytes = gunzipSync(await download(web.mona, `/settings/migrations/${own.id}/archive`));
    expect(bytes.toString('latin1')).toContain('repositories_');
  });

  it('the personal settings navigation names Migrations', async () => {
    const r = await web.eve.get('/settings/tokens');
    expect(r.text).toContain(`<a href="${s.url}/settings/migrations">Migrations</a>`);
  });

  it('shows someone else none of them, and their archive is not found; a visitor is sent to sign in', async () => {
    const r = await web.eve.get('/settings/migrations');
    expect(r.status).toBe(200);
    expect(r.text).toContain('There are no migrations yet.');
    expect(r.text).not.toContain(own.guid);
    expect((await web.eve.get(`/settings/migrations/${own.id}/archive`)).status).toBe(404);
    expect((await web.octo.get(`/settings/migrations/${org.id}/archive`)).status).toBe(404);
    const visitor = new WebClient(s.url);
    for (const path of ['/settings/migrations', `/settings/migrations/${own.id}/archive`, ORG_PAGE]) {
      const v = await visitor.get(path);
      expect([path, v.status, v.location]).toEqual([path, 303, `${s.url}/login?return_to=${encodeURIComponent(path)}`]);
    }
  });

  it('stops offering an archive once it is deleted: no link, and the old link is not found', async () => {
    expect((await s.api('DELETE', `/user/migrations/${own.id}/archive`, { token: mona })).status).toBe(204);
    const r = await web.mona.get('/settings/migrations');
    expect(r.text).not.toContain(`/settings/migrations/${own.id}/archive`);
    expect(r.text).toContain('Deleted or expired');
    expect((await web.mona.get(`/settings/migrations/${own.id}/archive`)).status).toBe(404);
  });
});

describe('GET /organizations/<org>/settings/migrations', () => {
  it('shows the owners the organization’s exports in the organization’s settings navigation, with a working download', async () => {
    const r = await web.octo.get(ORG_PAGE);
    expect(r.status).toBe(200);
    expect(r.text).toContain('aria-label="Organization settings"');
    expect(r.text).toContain(`<a href="${s.url}/organizations/Acme/settings/hooks">Webhooks</a>`);
    expect(r.text).toContain(`<a href="${s.url}${ORG_PAGE}" aria-current="page">Migrations</a>`);
    expect(r.text).toContain(`<code>${org.guid}</code>`);
    expect(r.text).toContain('<span class="state state-exported">exported</span>');
    expect(r.text).toContain(`<a href="${s.url}/Acme/rocket">Acme/rocket</a>`);
    expect(r.text).not.toContain(own.guid);
    const bytes = gunzipSync(await download(web.octo, `${ORG_PAGE}/${org.id}/archive`));
    expect(bytes.toString('latin1')).toContain('organizations_');
  });

  it('answers a member, a stranger and any other organization’s or missing migration with the not-found page', async () => {
    for (const who of ['mona', 'eve']) {
      for (const path of [ORG_PAGE, `${ORG_PAGE}/${org.id}/archive`]) {
        const r = await web[who].get(path);
        expect([who, path, r.status]).toEqual([who, path, 404]);
        expect(r.text).toContain('Page not found');
      }
    }
    for (const path of [
      `${ORG_PAGE}/${own.id}/archive`,
      `${ORG_PAGE}/999/archive`,
      `${ORG_PAGE}/x/archive`,
      '/organizations/Nope/settings/migrations',
    ])
      expect([path, (await web.octo.get(path)).status]).toEqual([path, 404]);
  });
});
