// Octokit (@octokit/rest, unchanged) with GitHub Enterprise's baseUrl `http://HOST/api/v3`: gists (create, get, update,
// every page through octokit.paginate), organization webhooks (create, ping, deliveries), repositories (create, get) and
// migrations (start, status, archive download). Every page Octokit followed must have stayed under /api/v3.
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

let server: TestServer;
let receiver: Receiver;
let api: string;

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const client = (token: string) => new Octokit({ baseUrl: api, auth: token, request: { retries: 0 }, log: quiet });

beforeAll(async () => {
  [server, receiver] = await Promise.all([startServer(), startReceiver()]);
  api = `${server.url}/api/v3`;
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

/** Polls until `check` answers a value (the migration export runs in the background). */
async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('Octokit with baseUrl …/api/v3', () => {
  it('gists: create, get, update, and every page of a list with octokit.paginate (token scope: gist)', async () => {
    const { token } = await server.userWithToken('alice', ['gist']);
    const octokit = client(token);

    const created = await octokit.rest.gists.create({ description: 'one', public: true, files: { 'a.txt': { content: 'a\n' } } });
    expect(created.status).toBe(201);
    expect(created.data.url).toBe(`${api}/gists/${created.data.id}`);
    expect(created.headers.location).toBe(`${api}/gists/${created.data.id}`);

    const updated = await octokit.rest.gists.update({
      gist_id: created.data.id!,
      description: 'one, edited',
      files: { 'a.txt': { content: 'A\n' }, 'b.md': { content: '# b\n' } },
    });
    expect(updated.data.description).toBe('one, edited');
    expect(Object.keys(updated.data.files!).sort()).toEqual(['a.txt', 'b.md']);

    const got = await octokit.rest.gists.get({ gist_id: created.data.id! });
    expect(got.data.files!['a.txt']!.content).toBe('A\n');
    expect(got.data.history!.length).toBe(2);

    for (const n of [2, 3, 4, 5])
      await octokit.rest.gists.create({ description: `gist ${n}`, public: n % 2 === 0, files: { [`f${n}.txt`]: { content: `${n}\n` } } });
    const pages: string[] = [];
    const all: string[] = [];
    for await (const page of octokit.paginate.iterator(octokit.rest.gists.list, { per_page: 2 })) {
      pages.push(page.url);
      all.push(...page.data.map((g) => g.description ?? ''));
    }
    expect(all.sort()).toEqual(['gist 2', 'gist 3', 'gist 4', 'gist 5', 'one, edited']);
    expect(pages).toHaveLength(3);
    // The later pages are the Link header's URLs: still under /api/v3.
    for (const url of pages) expect(url.startsWith(`${api}/gists`)).toBe(true);
    expect(await octokit.paginate(octokit.rest.gists.list, { per_page: 2 })).toHaveLength(5);

    const onServer = await server.api('GET', `/gists/${created.data.id}`);
    expect(onServer.body.files['b.md'].content).toBe('# b\n');
  });

  it('organizations: repository create and get; webhook create, ping and its deliveries; migration start, status and archive (scopes: repo, admin:org, admin:org_hook)', async () => {
    const { token } = await server.userWithToken('carol', ['repo', 'admin:org', 'admin:org_hook']);
    await server.createOrg('acme', 'carol');
    const octokit = client(token);

    const repo = await octokit.rest.repos.createInOrg({
      org: 'acme',
      name: 'site',
      description: 'the site',
      private: false,
      auto_init: true,
    });
    expect(repo.status).toBe(201);
    expect(repo.data.url).toBe(`${api}/repos/acme/site`);
    const got = await octokit.rest.repos.get({ owner: 'acme', repo: 'site' });
    expect(got.data).toMatchObject({ full_name: 'acme/site', description: 'the site', private: false, default_branch: 'main' });

    const hook = await octokit.rest.orgs.createWebhook({
      org: 'acme',
      name: 'web',
      config: { url: `${receiver.url}/octokit`, content_type: 'json' },
      events: ['push', 'repository'],
    });
    expect(hook.status).toBe(201);
    expect(hook.data.url).toBe(`${api}/orgs/acme/hooks/${hook.data.id}`);
    const ping = await octokit.rest.orgs.pingWebhook({ org: 'acme', hook_id: hook.data.id });
    expect(ping.status).toBe(204);
    await receiver.waitFor(1, (r) => r.path === '/octokit' && r.headers['x-service-event'] === 'ping');
    const deliveries = await eventually(async () => {
      const list = await octokit.paginate(octokit.rest.orgs.listWebhookDeliveries, { org: 'acme', hook_id: hook.data.id, per_page: 100 });
      return list.some((d) => d.event === 'ping') ? list : undefined;
    }, 'the ping delivery');
    expect(deliveries.every((d) => d.status_code === 200)).toBe(true);
    const hooks = await octokit.paginate(octokit.rest.orgs.listWebhooks, { org: 'acme' });
    expect(hooks.map((h) => h.id)).toEqual([hook.data.id]);

    const started = await octokit.rest.migrations.startForOrg({ org: 'acme', repositories: ['site'], exclude_attachments: true });
    expect(started.status).toBe(201);
    expect(started.data.url).toBe(`${api}/orgs/acme/migrations/${started.data.id}`);
    const exported = await eventually(async () => {
      const s = await octokit.rest.migrations.getStatusForOrg({ org: 'acme', migration_id: started.data.id });
      expect(['pending', 'exporting', 'exported']).toContain(s.data.state);
      return s.data.state === 'exported' ? s.data : undefined;
    }, 'the export');
    expect(exported.repositories.map((r) => r.full_name)).toEqual(['acme/site']);
    // Octokit follows the 302 to the signed URL and hands back the archive's bytes.
    const archive = await octokit.rest.migrations.downloadArchiveForOrg({ org: 'acme', migration_id: started.data.id });
    expect(archive.status).toBe(200);
    const bytes = Buffer.from(archive.data as unknown as ArrayBuffer);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  });
});
