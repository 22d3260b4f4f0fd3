// Organization webhook endpoints over HTTP: create/read/update/delete, config endpoints, GitHub's 422s, masked secrets,
// who may see which hook (owners, scopes, fine-grained levels, OAuth apps), org names in any case, GitHub's schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from './receiver.js';

let s: TestServer;
let rcv: Receiver;
let owner: { login: string; id: number; token: string };
let member: { login: string; id: number; token: string };
let outsider: { login: string; id: number; token: string };

beforeAll(async () => {
  s = await startServer();
  rcv = await startReceiver();
  owner = await s.userWithToken('Octo');
  member = await s.userWithToken('mona');
  outsider = await s.userWithToken('eve');
  await s.createOrg('Acme', 'octo');
  await s.addMember('acme', 'mona', 'member');
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
});

let n = 0;
/** A fresh receiver URL per hook (an organization refuses a second hook for the same URL). */
const hookUrl = () => `${rcv.url}/h/${++n}`;

async function createHook(body: Record<string, unknown> = {}, token = owner.token, orgName = 'acme') {
  const r = await s.api('POST', `/orgs/${orgName}/hooks`, { token, body: { name: 'web', config: { url: hookUrl() }, ...body } });
  if (r.status !== 201) throw new Error(`create hook: ${r.status} ${r.text}`);
  return r.body;
}

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

describe('POST /orgs/{org}/hooks', () => {
  it('creates a hook with GitHub defaults: form content, certificates verified, push events, active', async () => {
    const url = hookUrl();
    const r = await s.api('POST', '/orgs/acme/hooks', { token: owner.token, body: { name: 'web', config: { url } } });
    expect(r.status).toBe(201);
    const body = checkSchema(r, 'POST /orgs/{org}/hooks');
    const self = `${s.url}/orgs/Acme/hooks/${body.id}`;
    expect(body).toEqual({
      type: 'Organization',
      id: expect.any(Number),
      name: 'web',
      active: true,
      events: ['push'],
      config: { content_type: 'form', insecure_ssl: '0', url },
      updated_at: iso,
      created_at: iso,
      url: self,
      ping_url: `${self}/pings`,
      deliveries_url: `${self}/deliveries`,
      last_response: { code: null, status: 'unused', message: null },
    });
    expect(r.headers.get('location')).toBe(self);
  });

  it('takes the organization name in any case, and every option', async () => {
    const url = hookUrl();
    const r = await s.api('POST', '/orgs/ACME/hooks', {
      token: owner.token,
      body: {
        name: 'web',
        active: false,
        events: ['push', 'repository', 'push'],
        config: { url, content_type: 'json', insecure_ssl: 1, secret: 'hunter2' },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      active: false,
      events: ['push', 'repository'],
      config: { url, content_type: 'json', insecure_ssl: '1', secret: '********' },
    });
    expect(r.body.url).toBe(`${s.url}/orgs/Acme/hooks/${r.body.id}`);
    expect(r.text).not.toContain('hunter2');
    for (const insecure of ['0', '1', 0]) {
      const h = await createHook({ config: { url: hookUrl(), insecure_ssl: insecure } });
      expect(h.config.insecure_ssl).toBe(String(insecure));
    }
    const all = await createHook({ events: ['*'] });
    expect(all.events).toEqual(['*']);
  });

  it('answers each invalid field with 422 Validation Failed naming it (resource Hook)', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ config: { url: hookUrl() } }, { field: 'name', code: 'missing_field' }],
      [
        { name: 'json', config: { url: hookUrl() } },
        { field: 'name', code: 'invalid' },
      ],
      [{ name: 'web' }, { field: 'config', code: 'missing_field' }],
      [
        { name: 'web', config: 'http://x.test/' },
        { field: 'config', code: 'invalid' },
      ],
      [
        { name: 'web', config: {} },
        { field: 'url', code: 'custom', message: 'url cannot be blank' },
      ],
      [
        { name: 'web', config: { url: 'ftp://example.com/' } },
        { field: 'url', code: 'custom' },
      ],
      [
        { name: 'web', config: { url: 'not a url' } },
        { field: 'url', code: 'custom' },
      ],
      [
        { name: 'web', config: { url: `http://x.test/${'a'.repeat(3000)}` } },
        { field: 'url', code: 'custom' },
      ],
      [
        { name: 'web', config: { url: 12 } },
        { field: 'url', code: 'invalid' },
      ],
      [
        { name: 'web', config: { url: hookUrl(), content_type: 'xml' } },
        { field: 'content_type', code: 'invalid' },
      ],
      [
        { name: 'web', config: { url: hookUrl(), insecure_ssl: '2' } },
        { field: 'insecure_ssl', code: 'invalid' },
      ],
      [
        { name: 'web', config: { url: hookUrl(), insecure_ssl: true } },
        { field: 'insecure_ssl', code: 'invalid' },
      ],
      [
        { name: 'web', config: { url: hookUrl(), secret: 42 } },
        { field: 'secret', code: 'invalid' },
      ],
      [
        { name: 'web', config: { url: hookUrl(), secret: 'a\u0000b' } },
        { field: 'secret', code: 'invalid' },
      ],
      [
        { name: 'web', config: { url: hookUrl() }, events: 'push' },
        { field: 'events', code: 'invalid' },
      ],
      [
        { name: 'web', config: { url: hookUrl() }, events: [] },
        { field: 'events', code: 'custom' },
      ],
      [
        { name: 'web', config: { url: hookUrl() }, events: ['push', 'nonsense'] },
        { field: 'events', code: 'custom', message: 'Invalid event(s): "nonsense"' },
      ],
      [
        { name: 'web', config: { url: hookUrl() }, events: [1] },
        { field: 'events', code: 'invalid' },
      ],
      [
        { name: 'web', config: { url: hookUrl() }, events: Array.from({ length: 5000 }, (_, i) => `bogus-${i}`) },
        { field: 'events', code: 'custom', message: expect.stringMatching(/^Invalid event\(s\): "bogus-0", .* and 4990 more$/) },
      ],
      [
        { name: 'web', config: { url: hookUrl() }, active: 'yes' },
        { field: 'active', code: 'invalid' },
      ],
    ];
    for (const [body, error] of cases) {
      const r = await s.api('POST', '/orgs/acme/hooks', { token: owner.token, body });
      expect(r.status, JSON.stringify(body).slice(0, 100)).toBe(422);
      checkSchema(r, 'POST /orgs/{org}/hooks');
      expect(r.body.message).toBe('Validation Failed');
      expect(r.body.errors).toEqual([expect.objectContaining({ resource: 'Hook', ...error })]);
    }
    // Several problems at once are all reported.
    const many = await s.api('POST', '/orgs/acme/hooks', {
      token: owner.token,
      body: { name: 'x', config: { url: 'ftp://x', content_type: 'xml' }, active: 1 },
    });
    expect(many.status).toBe(422);
    expect(many.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['active', 'content_type', 'name', 'url']);
    // Not JSON, or no body at all.
    expect((await s.api('POST', '/orgs/acme/hooks', { token: owner.token, body: '{"name":' })).status).toBe(400);
    const empty = await s.api('POST', '/orgs/acme/hooks', { token: owner.token });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'name', code: 'missing_field' })]));
  });

  it('refuses a second hook for the same URL', async () => {
    const url = hookUrl();
    await createHook({ config: { url } });
    const r = await s.api('POST', '/orgs/acme/hooks', {
      token: owner.token,
      body: { name: 'web', config: { url }, events: ['repository'] },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([{ resource: 'Hook', code: 'custom', message: 'Hook already exists on this organization' }]);
  });

  it('refuses a hook past the per-event limit (configurable; a * hook counts for every event)', async () => {
    const small = await startServer({ config: { hookLimitPerEvent: 2 } });
    try {
      const o = await small.userWithToken('lim');
      await small.createOrg('limited', 'lim');
      const create = (events: string[], i: number) =>
        small.api('POST', '/orgs/limited/hooks', {
          token: o.token,
          body: { name: 'web', events, config: { url: `${rcv.url}/limit/${i}` } },
        });
      expect((await create(['push'], 1)).status).toBe(201);
      expect((await create(['*'], 2)).status).toBe(201);
      const third = await create(['push', 'repository'], 3);
      expect(third.status).toBe(422);
      expect(third.body.errors).toEqual([{ resource: 'Hook', code: 'custom', message: 'The "push" event cannot have more than 2 hooks' }]);
      // repository has one (the * hook), so there is room for one more.
      expect((await create(['repository'], 4)).status).toBe(201);
      const star = await create(['*'], 5);
      expect(star.status).toBe(422);
      expect(star.body.errors[0].message).toMatch(/^The "\w+" event cannot have more than 2 hooks$/);
    } finally {
      await small.close();
    }
  });
});

describe('GET /orgs/{org}/hooks and GET /orgs/{org}/hooks/{hook_id}', () => {
  it('lists the hooks oldest first, paged with Link headers, in GitHub shape', async () => {
    const other = await s.userWithToken('lister');
    await s.createOrg('Listed', 'lister');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createHook({}, other.token, 'listed')).id);
    const all = await s.api('GET', '/orgs/listed/hooks', { token: other.token });
    expect(all.status).toBe(200);
    expect(checkSchema(all, 'GET /orgs/{org}/hooks').map((h: { id: number }) => h.id)).toEqual(ids);
    const page = await s.api('GET', '/orgs/listed/hooks?per_page=2&page=2', { token: other.token });
    expect(page.body.map((h: { id: number }) => h.id)).toEqual([ids[2]]);
    expect(page.headers.get('link')).toContain(`<${s.url}/orgs/listed/hooks?per_page=2&page=1>; rel="prev"`);
    const first = await s.api('GET', '/orgs/listed/hooks?per_page=2', { token: other.token });
    expect(first.headers.get('link')).toContain('page=2>; rel="next"');
    // Octokit, as any GitHub client.
    const { data } = await s.octokit(other.token).rest.orgs.listWebhooks({ org: 'Listed' });
    expect(data.map((h) => h.id)).toEqual(ids);
  });

  it("reads one hook; unknown, malformed and other organizations' ids are 404", async () => {
    const h = await createHook({ config: { url: hookUrl(), secret: 'sekrit' } });
    // Creating it sent a ping; once that is answered, last_response says so.
    await s.app.hublet.jobs.idle();
    const r = await s.api('GET', `/orgs/acme/hooks/${h.id}`, { token: owner.token });
    expect(r.status).toBe(200);
    expect(checkSchema(r, 'GET /orgs/{org}/hooks/{hook_id}')).toEqual({
      ...h,
      last_response: { code: 200, status: 'active', message: 'OK' },
    });
    expect(r.text).not.toContain('sekrit');
    const foreign = await s.userWithToken('foreigner');
    await s.createOrg('Elsewhere', 'foreigner');
    for (const path of [
      `/orgs/acme/hooks/999999`,
      '/orgs/acme/hooks/abc',
      '/orgs/acme/hooks/99999999999999',
      '/orgs/acme/hooks/-1',
      '/orgs/nope/hooks/1',
    ]) {
      const miss = await s.api('GET', path, { token: owner.token });
      expect(miss.status, path).toBe(404);
      expect(miss.body).toMatchObject({ message: 'Not Found', status: '404' });
    }
    expect((await s.api('GET', `/orgs/elsewhere/hooks/${h.id}`, { token: foreign.token })).status).toBe(404);
  });
});

describe('PATCH /orgs/{org}/hooks/{hook_id}', () => {
  it('replaces the config (without a secret the secret is removed), and changes events and active', async () => {
    const h = await createHook({ config: { url: hookUrl(), secret: 'old', content_type: 'json' } });
    const url = hookUrl();
    const r = await s.api('PATCH', `/orgs/acme/hooks/${h.id}`, {
      token: owner.token,
      body: { config: { url }, events: ['repository'], active: false },
    });
    expect(r.status).toBe(200);
    expect(checkSchema(r, 'PATCH /orgs/{org}/hooks/{hook_id}')).toMatchObject({
      id: h.id,
      active: false,
      events: ['repository'],
      config: { url, content_type: 'form', insecure_ssl: '0' },
    });
    expect(r.body.config.secret).toBeUndefined();
    const config = await s.api('GET', `/orgs/acme/hooks/${h.id}/config`, { token: owner.token });
    expect(config.body).toEqual({ url, content_type: 'form', insecure_ssl: '0' });
  });

  it('keeps the config when none is given, and takes the same or a new secret', async () => {
    const h = await createHook({ config: { url: hookUrl(), secret: 'old' } });
    const r = await s.api('PATCH', `/orgs/acme/hooks/${h.id}`, { token: owner.token, body: { events: ['push', 'repository'] } });
    expect(r.body.config).toEqual({ ...h.config, secret: '********' });
    const again = await s.api('PATCH', `/orgs/acme/hooks/${h.id}`, {
      token: owner.token,
      body: { name: 'web', config: { url: h.config.url, secret: 'new' } },
    });
    expect(again.body.config.secret).toBe('********');
    expect(again.text).not.toContain('new"');
  });

  it('answers bad fields, a taken URL and unknown hooks', async () => {
    const a = await createHook();
    const b = await createHook();
    const bad = await s.api('PATCH', `/orgs/acme/hooks/${a.id}`, {
      token: owner.token,
      body: { name: 'email', config: { content_type: 'json' }, active: 'no' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['active', 'name', 'url']);
    const taken = await s.api('PATCH', `/orgs/acme/hooks/${a.id}`, { token: owner.token, body: { config: { url: b.config.url } } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors[0].message).toBe('Hook already exists on this organization');
    expect((await s.api('PATCH', '/orgs/acme/hooks/424242', { token: owner.token, body: { active: true } })).status).toBe(404);
  });
});

describe('DELETE /orgs/{org}/hooks/{hook_id}', () => {
  it('deletes the hook: 204, then 404', async () => {
    const h = await createHook();
    const r = await s.api('DELETE', `/orgs/acme/hooks/${h.id}`, { token: owner.token });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await s.api('GET', `/orgs/acme/hooks/${h.id}`, { token: owner.token })).status).toBe(404);
    expect((await s.api('DELETE', `/orgs/acme/hooks/${h.id}`, { token: owner.token })).status).toBe(404);
  });
});

describe('GET and PATCH /orgs/{org}/hooks/{hook_id}/config', () => {
  it('reads the config with the secret masked', async () => {
    const h = await createHook({ config: { url: hookUrl(), secret: 'shh', content_type: 'json' } });
    const r = await s.api('GET', `/orgs/acme/hooks/${h.id}/config`, { token: owner.token });
    expect(r.status).toBe(200);
    expect(checkSchema(r, 'GET /orgs/{org}/hooks/{hook_id}/config')).toEqual({
      content_type: 'json',
      insecure_ssl: '0',
      url: h.config.url,
      secret: '********',
    });
    const { data } = await s.octokit(owner.token).rest.orgs.getWebhookConfigForOrg({ org: 'acme', hook_id: h.id });
    expect(data).toEqual(r.body);
  });

  it('changes only the properties named (the secret stays unless named)', async () => {
    const h = await createHook({ config: { url: hookUrl(), secret: 'shh' }, events: ['repository'] });
    const r = await s.api('PATCH', `/orgs/acme/hooks/${h.id}/config`, {
      token: owner.token,
      body: { content_type: 'json', insecure_ssl: '1' },
    });
    expect(r.status).toBe(200);
    expect(checkSchema(r, 'PATCH /orgs/{org}/hooks/{hook_id}/config')).toEqual({
      content_type: 'json',
      insecure_ssl: '1',
      url: h.config.url,
      secret: '********',
    });
    const url = hookUrl();
    const moved = await s.api('PATCH', `/orgs/acme/hooks/${h.id}/config`, { token: owner.token, body: { url } });
    expect(moved.body).toEqual({ content_type: 'json', insecure_ssl: '1', url, secret: '********' });
    const cleared = await s.api('PATCH', `/orgs/acme/hooks/${h.id}/config`, { token: owner.token, body: { secret: '' } });
    expect(cleared.body).toEqual({ content_type: 'json', insecure_ssl: '1', url });
    // The hook itself is otherwise untouched.
    const hookNow = await s.api('GET', `/orgs/acme/hooks/${h.id}`, { token: owner.token });
    expect(hookNow.body).toMatchObject({ events: ['repository'], active: true });
    const bad = await s.api('PATCH', `/orgs/acme/hooks/${h.id}/config`, {
      token: owner.token,
      body: { url: 'gopher://x', content_type: 'yaml', insecure_ssl: 3 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['content_type', 'insecure_ssl', 'url']);
  });
});

describe('who may manage hooks', () => {
  it('owners only: members, outsiders and unknown organizations get 404; no token gets 401', async () => {
    const h = await createHook();
    for (const who of [member, outsider]) {
      for (const [method, path] of [
        ['GET', '/orgs/acme/hooks'],
        ['POST', '/orgs/acme/hooks'],
        ['GET', `/orgs/acme/hooks/${h.id}`],
        ['PATCH', `/orgs/acme/hooks/${h.id}/config`],
        ['DELETE', `/orgs/acme/hooks/${h.id}`],
        ['POST', `/orgs/acme/hooks/${h.id}/pings`],
        ['GET', `/orgs/acme/hooks/${h.id}/deliveries`],
      ]) {
        const r = await s.api(method, path, {
          token: who.token,
          body: method === 'GET' || method === 'DELETE' ? undefined : { name: 'web', config: { url: hookUrl() } },
        });
        expect(r.status, `${who.login} ${method} ${path}`).toBe(404);
      }
    }
    expect((await s.api('GET', '/orgs/acme/hooks')).status).toBe(401);
    expect((await s.api('GET', `/orgs/acme/hooks/${h.id}`, { token: owner.token })).status).toBe(200);
  });

  it('classic tokens need admin:org_hook (404 without it) and are told so in X-Accepted-OAuth-Scopes', async () => {
    const noScope = await s.createToken('octo', { scopes: ['repo', 'admin:org'] });
    const r = await s.api('GET', '/orgs/acme/hooks', { token: noScope });
    expect(r.status).toBe(404);
    expect(r.headers.get('x-accepted-oauth-scopes')).toBe('admin:org_hook');
    const ok = await s.api('GET', '/orgs/acme/hooks', { token: owner.token });
    expect(ok.headers.get('x-accepted-oauth-scopes')).toBe('admin:org_hook');
  });

  it('fine-grained tokens: Webhooks read for reads, write for changes', async () => {
    const h = await createHook();
    const reader = await s.createToken('octo', { kind: 'fine_grained', permissions: { organization_hooks: 'read' } });
    const writer = await s.createToken('octo', { kind: 'fine_grained', permissions: { organization_hooks: 'write' } });
    const none = await s.createToken('octo', { kind: 'fine_grained', permissions: { gists: 'write' } });
    for (const path of [
      '/orgs/acme/hooks',
      `/orgs/acme/hooks/${h.id}`,
      `/orgs/acme/hooks/${h.id}/config`,
      `/orgs/acme/hooks/${h.id}/deliveries`,
    ]) {
      const r = await s.api('GET', path, { token: reader });
      expect(r.status, path).toBe(200);
      expect(r.headers.get('x-accepted-service-permissions')).toBe('organization_hooks=read');
      expect((await s.api('GET', path, { token: none })).status, path).toBe(403);
    }
    const write = [
      ['POST', '/orgs/acme/hooks', { name: 'web', config: { url: hookUrl() } }],
      ['PATCH', `/orgs/acme/hooks/${h.id}`, { active: true }],
      ['PATCH', `/orgs/acme/hooks/${h.id}/config`, { content_type: 'json' }],
      ['POST', `/orgs/acme/hooks/${h.id}/pings`, undefined],
    ] as const;
    for (const [method, path, body] of write) {
      const refused = await s.api(method, path, { token: reader, body });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.message).toBe('Resource not accessible by personal access token');
      expect(refused.headers.get('x-accepted-service-permissions')).toBe('organization_hooks=write');
      expect((await s.api(method, path, { token: writer, body })).status, `${method} ${path}`).toBeLessThan(300);
    }
    expect((await s.api('DELETE', `/orgs/acme/hooks/${h.id}`, { token: reader })).status).toBe(403);
    expect((await s.api('DELETE', `/orgs/acme/hooks/${h.id}`, { token: writer })).status).toBe(204);
  });

  it('OAuth apps see only the hooks they created, and people do not see those', async () => {
    const app7 = await s.createToken('octo', { kind: 'oauth', app_id: 7, scopes: ['admin:org_hook'] });
    const app8 = await s.createToken('octo', { kind: 'oauth', app_id: 8, scopes: ['admin:org_hook'] });
    const app7NoScope = await s.createToken('octo', { kind: 'oauth', app_id: 7, scopes: ['repo'] });
    const viaApp = await createHook({}, app7);
    const byPerson = await createHook();
    const ids = async (token: string) =>
      (await s.api('GET', '/orgs/acme/hooks?per_page=100', { token })).body.map((h: { id: number }) => h.id);
    expect(await ids(app7)).toEqual([viaApp.id]);
    expect(await ids(app8)).toEqual([]);
    const personal = await ids(owner.token);
    expect(personal).toContain(byPerson.id);
    expect(personal).not.toContain(viaApp.id);
    for (const [token, id, status] of [
      [app7, viaApp.id, 200],
      [app8, viaApp.id, 404],
      [owner.token, viaApp.id, 404],
      [app7, byPerson.id, 404],
    ] as const) {
      expect((await s.api('GET', `/orgs/acme/hooks/${id}`, { token })).status).toBe(status);
      expect((await s.api('GET', `/orgs/acme/hooks/${id}/config`, { token })).status).toBe(status);
      expect((await s.api('PATCH', `/orgs/acme/hooks/${id}`, { token, body: { active: true } })).status).toBe(status);
    }
    expect((await s.api('GET', '/orgs/acme/hooks', { token: app7NoScope })).status).toBe(404);
    expect((await s.api('DELETE', `/orgs/acme/hooks/${viaApp.id}`, { token: owner.token })).status).toBe(404);
    expect((await s.api('DELETE', `/orgs/acme/hooks/${viaApp.id}`, { token: app7 })).status).toBe(204);
  });

  it('GitHub App tokens are refused (403 Resource not accessible by integration)', async () => {
    const inst = await s.createToken('octo', { kind: 'installation' });
    const r = await s.api('GET', '/orgs/acme/hooks', { token: inst });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('Resource not accessible by integration');
  });
});

describe('hostile delivery parameters', () => {
  it('404 for malformed ids, 400 for a malformed cursor, 422 for an unknown status filter', async () => {
    const h = await createHook();
    const base = `/orgs/acme/hooks/${h.id}/deliveries`;
    expect((await s.api('GET', `${base}/abc`, { token: owner.token })).status).toBe(404);
    expect((await s.api('GET', `${base}/0`, { token: owner.token })).status).toBe(404);
    expect((await s.api('GET', `${base}/12345678901234567890`, { token: owner.token })).status).toBe(404);
    expect((await s.api('POST', `${base}/77777/attempts`, { token: owner.token })).status).toBe(404);
    const cursor = await s.api('GET', `${base}?cursor=garbage`, { token: owner.token });
    expect(cursor.status).toBe(400);
    checkSchema(cursor, 'GET /orgs/{org}/hooks/{hook_id}/deliveries');
    const status = await s.api('GET', `${base}?status=maybe`, { token: owner.token });
    expect(status.status).toBe(422);
    checkSchema(status, 'GET /orgs/{org}/hooks/{hook_id}/deliveries');
    expect(status.body.errors).toEqual([expect.objectContaining({ field: 'status', code: 'invalid' })]);
    const bigPage = await s.api('GET', `${base}?per_page=100000`, { token: owner.token });
    expect(bigPage.status).toBe(200);
  });
});
