// Repository webhooks over HTTP: GitHub's twelve operations on a user's and an organization's repositories, with real
// receivers and real `git push`es (a repository's push reaches its hooks and its organization's), the latest push re-sent
// by `tests`, who may manage them (repository admins; 404 for anyone else), the SSRF guard, and GitHub's schemas.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';
import { authUrl, commitFiles, gitOk, tempDir } from '../repos/helpers.js';
import { signaturesValid, startReceiver, type Received, type Receiver } from './receiver.js';

let s: TestServer;
let rcv: Receiver;
let octo: { login: string; id: number; token: string };
let mona: { login: string; id: number; token: string };
let eve: { login: string; id: number; token: string };
let org: { login: string; id: number };
const repos: Record<string, { id: number }> = {};
const tmp = tempDir('hublet-repo-hooks-');

const at = (p: string, event?: string) => (r: Received) => r.path === p && (event === undefined || r.headers['x-service-event'] === event);
let n = 0;
const fresh = (name: string) => `/${name}/${++n}`;

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  rcv = await startReceiver();
  octo = await s.userWithToken('octo');
  mona = await s.userWithToken('mona');
  eve = await s.userWithToken('eve');
  org = await s.createOrg('Acme', 'octo');
  await s.addMember('acme', 'mona', 'member');
  const create = async (p: string, body: Record<string, unknown>) => {
    const r = await s.api('POST', p, { token: octo.token, body });
    expect(r.status).toBe(201);
    return r.body as { id: number };
  };
  repos.personal = await create('/user/repos', { name: 'personal' });
  repos.quiet = await create('/user/repos', { name: 'quiet' });
  repos.hidden = await create('/user/repos', { name: 'hidden', private: true });
  repos.widgets = await create('/orgs/acme/repos', { name: 'widgets', auto_init: true });
  await s.app.hublet.jobs.idle();
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
  tmp.cleanup();
});

/** GitHub's short form: a repository hook's `name` is optional ("Default: `web`"), so these hooks leave it out. */
async function createHook(repo: string, body: Record<string, unknown> = {}, token = octo.token) {
  const r = await s.api('POST', `/repos/${repo}/hooks`, {
    token,
    body: { config: { url: rcv.url + fresh('h'), content_type: 'json' }, ...body },
  });
  if (r.status !== 201) throw new Error(`create hook: ${r.status} ${r.text}`);
  return r.body as { id: number; url: string; config: { url: string } };
}

async function push(repo: string, file: string): Promise<string> {
  const dir = path.join(tmp.dir, `${repo.replace('/', '-')}-${++n}`);
  await gitOk(['clone', '-q', authUrl(s.url, 'octo', octo.token, `/${repo}.git`), dir], tmp.dir);
  const sha = await commitFiles(dir, `Add ${file}`, { [file]: `${file}\n` });
  await gitOk(['push', '-q', 'origin', 'HEAD:main'], dir);
  return sha;
}

const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

describe('the twelve operations', () => {
  it("create, read, update, config, ping, deliveries, redelivery and delete on a user's repository, in GitHub's shapes", async () => {
    const url = rcv.url + fresh('ops');
    const where = new URL(url).pathname;
    const created = await s.api('POST', '/repos/octo/personal/hooks', {
      token: octo.token,
      body: { name: 'web', events: ['push', 'repository'], config: { url, content_type: 'json', secret: 'sekrit' } },
    });
    expect(created.status).toBe(201);
    const hook = checkSchema(created, 'POST /repos/{owner}/{repo}/hooks');
    const self = `${s.url}/repos/octo/personal/hooks/${hook.id}`;
    expect(hook).toEqual({
      type: 'Repository',
      id: expect.any(Number),
      name: 'web',
      active: true,
      events: ['push', 'repository'],
      config: { content_type: 'json', insecure_ssl: '0', url, secret: '********' },
      updated_at: iso,
      created_at: iso,
      url: self,
      test_url: `${self}/test`,
      ping_url: `${self}/pings`,
      deliveries_url: `${self}/deliveries`,
      last_response: { code: null, status: 'unused', message: null },
    });
    expect(created.headers.get('location')).toBe(self);
    expect(created.text).not.toContain('sekrit');

    // The creation's ping: signed, naming the repository as the hook's target.
    const [ping] = await rcv.waitFor(1, at(where, 'ping'));
    expect(signaturesValid(ping, 'sekrit')).toBe(true);
    expect(ping.headers).toMatchObject({
      'x-service-hook-id': String(hook.id),
      'x-service-hook-installation-target-type': 'repository',
      'x-service-hook-installation-target-id': String(repos.personal.id),
    });
    expect(ping.payload).toMatchObject({
      hook_id: hook.id,
      hook: { type: 'Repository', id: hook.id, url: self },
      sender: { login: 'octo' },
    });
    expectWebhookPayload('ping', ping.payload);

    await s.app.hublet.jobs.idle();
    const list = await s.api('GET', '/repos/octo/personal/hooks', { token: octo.token });
    expect(checkSchema(list, 'GET /repos/{owner}/{repo}/hooks').map((h: { id: number }) => h.id)).toContain(hook.id);
    const one = await s.api('GET', `/repos/OCTO/Personal/hooks/${hook.id}`, { token: octo.token });
    expect(checkSchema(one, 'GET /repos/{owner}/{repo}/hooks/{hook_id}')).toMatchObject({
      id: hook.id,
      last_response: { code: 200, status: 'active' },
    });

    const patched = await s.api('PATCH', `/repos/octo/personal/hooks/${hook.id}`, {
      token: octo.token,
      body: { events: ['*'], active: false },
    });
    expect(checkSchema(patched, 'PATCH /repos/{owner}/{repo}/hooks/{hook_id}')).toMatchObject({
      events: ['*'],
      active: false,
      config: { secret: '********' },
    });

    const config = await s.api('GET', `/repos/octo/personal/hooks/${hook.id}/config`, { token: octo.token });
    expect(checkSchema(config, 'GET /repos/{owner}/{repo}/hooks/{hook_id}/config')).toEqual({
      content_type: 'json',
      insecure_ssl: '0',
      url,
      secret: '********',
    });
    const config2 = await s.api('PATCH', `/repos/octo/personal/hooks/${hook.id}/config`, {
      token: octo.token,
      body: { content_type: 'form' },
    });
    expect(checkSchema(config2, 'PATCH /repos/{owner}/{repo}/hooks/{hook_id}/config')).toMatchObject({ content_type: 'form', url });

    // An inactive hook is still pinged on request; the ping is recorded in its delivery log.
    const pinged = await s.api('POST', `/repos/octo/personal/hooks/${hook.id}/pings`, { token: octo.token });
    expect(pinged.status).toBe(204);
    const pings = await rcv.waitFor(2, at(where, 'ping'));
    expect(pings[1].headers['content-type']).toBe('application/x-www-form-urlencoded');
    await s.app.hublet.jobs.idle();
    const deliveries = await s.api('GET', `/repos/octo/personal/hooks/${hook.id}/deliveries`, { token: octo.token });
    const items = checkSchema(deliveries, 'GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries') as {
      id: number;
      guid: string;
      event: string;
      repository_id: number | null;
    }[];
    expect(items.map((d) => d.event)).toEqual(['ping', 'ping']);
    expect(items[1]).toMatchObject({ guid: ping.headers['x-service-delivery'], repository_id: repos.personal.id });
    const detail = await s.api('GET', `/repos/octo/personal/hooks/${hook.id}/deliveries/${items[1].id}`, { token: octo.token });
    expect(checkSchema(detail, 'GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}')).toMatchObject({
      request: { headers: { 'X-Service-Hook-Installation-Target-Type': 'repository' }, payload: ping.payload },
      response: { payload: 'thanks' },
    });

    const again = await s.api('POST', `/repos/octo/personal/hooks/${hook.id}/deliveries/${items[1].id}/attempts`, { token: octo.token });
    expect(again.status).toBe(202);
    const third = (await rcv.waitFor(3, at(where, 'ping')))[2];
    expect(third.headers['x-service-delivery']).toBe(ping.headers['x-service-delivery']);

    // Deleting an active hook sends it `meta` (deleted); it is gone after.
    expect((await s.api('PATCH', `/repos/octo/personal/hooks/${hook.id}`, { token: octo.token, body: { active: true } })).status).toBe(200);
    const deleter = await s.createToken('octo', { scopes: ['admin:repo_hook'] });
    const deleted = await s.api('DELETE', `/repos/octo/personal/hooks/${hook.id}`, { token: deleter });
    expect(deleted.status).toBe(204);
    const [meta] = await rcv.waitFor(1, at(where, 'meta'));
    expect(meta.payload).toMatchObject({ action: 'deleted', hook_id: hook.id, hook: { type: 'Repository' } });
    expectWebhookPayload('meta', meta.payload);
    expect((await s.api('GET', `/repos/octo/personal/hooks/${hook.id}`, { token: octo.token })).status).toBe(404);
    expect((await s.api('GET', `/repos/octo/personal/hooks/${hook.id}/deliveries`, { token: octo.token })).status).toBe(404);
  });

  it("answers GitHub's 422s: a bad body, a URL the repository has already (another repository may use it)", async () => {
    const bad = await s.api('POST', '/repos/octo/personal/hooks', {
      token: octo.token,
      body: { name: 'web', config: { url: 'ftp://x.test/' }, events: ['nonsense'] },
    });
    expect(bad.status).toBe(422);
    checkSchema(bad, 'POST /repos/{owner}/{repo}/hooks');
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['url', 'events']);
    const first = await createHook('octo/personal');
    const dup = await s.api('POST', '/repos/octo/personal/hooks', {
      token: octo.token,
      body: { name: 'web', config: { url: first.config.url } },
    });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual([{ resource: 'Hook', code: 'custom', message: 'Hook already exists on this repository' }]);
    expect(
      (
        await s.api('POST', '/repos/octo/quiet/hooks', {
          token: octo.token,
          body: { name: 'web', active: false, config: { url: first.config.url } },
        })
      ).status,
    ).toBe(201);
  });
});

describe("GitHub's short forms for repository hooks", () => {
  it('creates a hook without `name` (GitHub: "Default: web"); an organization hook still needs it', async () => {
    const url = rcv.url + fresh('short');
    const created = await s.api('POST', '/repos/acme/widgets/hooks', { token: octo.token, body: { config: { url } } });
    expect(created.status).toBe(201);
    expect(checkSchema(created, 'POST /repos/{owner}/{repo}/hooks')).toMatchObject({
      name: 'web',
      events: ['push'],
      active: true,
      config: { url },
    });
    const wrongName = await s.api('POST', '/repos/acme/widgets/hooks', {
      token: octo.token,
      body: { name: 'email', config: { url: `${url}x` } },
    });
    expect(wrongName.status).toBe(422);
    expect(wrongName.body.errors).toEqual([{ resource: 'Hook', code: 'invalid', field: 'name', message: 'name must be "web"' }]);
    const org = await s.api('POST', '/orgs/acme/hooks', { token: octo.token, body: { config: { url: `${url}org` } } });
    expect(org.status).toBe(422);
    expect(org.body.errors).toEqual([{ resource: 'Hook', code: 'missing_field', field: 'name' }]);
  });

  it('PATCH adds and removes events with `add_events` and `remove_events`, applied to `events` when that is given too', async () => {
    const hook = await createHook('octo/personal', { events: ['push', 'create'] });
    const path = `/repos/octo/personal/hooks/${hook.id}`;
    const patched = await s.api('PATCH', path, { token: octo.token, body: { add_events: ['delete'], remove_events: ['create'] } });
    expect(patched.status).toBe(200);
    expect([...checkSchema(patched, 'PATCH /repos/{owner}/{repo}/hooks/{hook_id}').events].sort()).toEqual(['delete', 'push']);
    expect([...(await s.api('GET', path, { token: octo.token })).body.events].sort()).toEqual(['delete', 'push']);
    const both = await s.api('PATCH', path, {
      token: octo.token,
      body: { events: ['issues', 'fork'], add_events: ['push', 'fork'], remove_events: ['issues'] },
    });
    expect([...both.body.events].sort()).toEqual(['fork', 'push']);
    const unknown = await s.api('PATCH', path, { token: octo.token, body: { add_events: ['nonsense'], remove_events: 'push' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.map((e: { field: string }) => e.field)).toEqual(['add_events', 'remove_events']);
    const none = await s.api('PATCH', path, { token: octo.token, body: { remove_events: ['fork', 'push'] } });
    expect(none.status).toBe(422);
    expect((await s.api('GET', path, { token: octo.token })).body.events.sort()).toEqual(['fork', 'push']);
  });
});

describe('events reaching repository hooks', () => {
  it("a real git push to a user's repository reaches its hook; tests re-sends the latest push", async () => {
    const hook = await createHook('octo/personal', {
      events: ['push'],
      config: { url: rcv.url + fresh('push'), content_type: 'json', secret: 'pushed' },
    });
    const p = new URL(hook.config.url).pathname;
    const sha = await push('octo/personal', 'a.txt');
    const [got] = await rcv.waitFor(1, at(p, 'push'));
    expect(got.payload).toMatchObject({
      ref: 'refs/heads/main',
      after: sha,
      repository: { id: repos.personal.id, full_name: 'octo/personal' },
      pusher: { name: 'octo' },
    });
    expect(got.payload.organization).toBeUndefined();
    expectWebhookPayload('push', got.payload);
    expect(signaturesValid(got, 'pushed')).toBe(true);
    expect(got.headers).toMatchObject({
      'x-service-hook-installation-target-type': 'repository',
      'x-service-hook-installation-target-id': String(repos.personal.id),
    });

    const tested = await s.api('POST', `/repos/octo/personal/hooks/${hook.id}/tests`, { token: octo.token });
    expect(tested.status).toBe(204);
    const again = (await rcv.waitFor(2, at(p, 'push')))[1];
    expect(again.payload.after).toBe(sha);
    expect(again.headers['x-service-delivery']).toBe(got.headers['x-service-delivery']);

    // A hook not subscribed to push, or a repository never pushed to: 204, nothing sent.
    const other = await createHook('octo/personal', { events: ['repository'] });
    const quiet = await createHook('octo/quiet', { events: ['push'] });
    await s.app.hublet.jobs.idle();
    const before = rcv.received.length;
    expect((await s.api('POST', `/repos/octo/personal/hooks/${other.id}/tests`, { token: octo.token })).status).toBe(204);
    expect((await s.api('POST', `/repos/octo/quiet/hooks/${quiet.id}/tests`, { token: octo.token })).status).toBe(204);
    await s.app.hublet.jobs.idle();
    expect(rcv.received.length).toBe(before);
    expect((await s.api('POST', '/repos/octo/personal/hooks/999999/tests', { token: octo.token })).status).toBe(404);
  });

  it("an organization repository's push reaches both its hook and the organization's, one guid", async () => {
    const repoHook = await createHook('acme/widgets', { events: ['push'] });
    const orgHook = await s.api('POST', '/orgs/acme/hooks', {
      token: octo.token,
      body: { name: 'web', events: ['push'], config: { url: rcv.url + fresh('org'), content_type: 'json' } },
    });
    expect(orgHook.status).toBe(201);
    await s.app.hublet.jobs.idle();
    const sha = await push('Acme/widgets', 'b.txt');
    const [toRepo] = await rcv.waitFor(1, at(new URL(repoHook.config.url).pathname, 'push'));
    const [toOrg] = await rcv.waitFor(1, at(new URL(orgHook.body.config.url).pathname, 'push'));
    expect(toRepo.payload.after).toBe(sha);
    expect(toRepo.headers['x-service-delivery']).toBe(toOrg.headers['x-service-delivery']);
    expect(toRepo.headers).toMatchObject({
      'x-service-hook-installation-target-type': 'repository',
      'x-service-hook-installation-target-id': String(repos.widgets.id),
    });
    expect(toOrg.headers).toMatchObject({
      'x-service-hook-installation-target-type': 'organization',
      'x-service-hook-installation-target-id': String(org.id),
    });
    expect(toRepo.payload.organization).toMatchObject({ login: 'Acme' });
  });

  it('refuses a link-local destination (the SSRF guard holds for repository hooks)', async () => {
    const hook = await createHook('octo/quiet', { config: { url: 'http://169.254.10.20:8080/', content_type: 'json' } });
    await s.app.hublet.jobs.idle();
    const r = await s.api('GET', `/repos/octo/quiet/hooks/${hook.id}/deliveries`, { token: octo.token });
    expect(r.status).toBe(200);
    expect(r.body[0]).toMatchObject({
      event: 'ping',
      status_code: 0,
      status: expect.stringMatching(/^Destination refused: 169\.254\.10\.20 is a link-local address$/),
    });
  });
});

describe('who may manage them', () => {
  it('repository admins only: a member with write access, another user and anonymous callers get 404 (401)', async () => {
    const hook = await createHook('acme/widgets');
    for (const token of [mona.token, eve.token]) {
      for (const p of [
        '/repos/acme/widgets/hooks',
        `/repos/acme/widgets/hooks/${hook.id}`,
        `/repos/acme/widgets/hooks/${hook.id}/config`,
      ]) {
        expect((await s.api('GET', p, { token })).status, p).toBe(404);
      }
      expect(
        (await s.api('POST', '/repos/acme/widgets/hooks', { token, body: { name: 'web', config: { url: rcv.url + fresh('x') } } })).status,
      ).toBe(404);
      expect((await s.api('DELETE', `/repos/acme/widgets/hooks/${hook.id}`, { token })).status).toBe(404);
      expect((await s.api('GET', '/repos/octo/hidden/hooks', { token })).status).toBe(404);
    }
    expect((await s.api('GET', '/repos/octo/personal/hooks')).status).toBe(401);
    expect((await s.api('GET', '/repos/octo/nothing/hooks', { token: octo.token })).status).toBe(404);
    // An organization admin manages the organization's repositories' hooks.
    await s.addMember('acme', 'mona', 'admin');
    expect((await s.api('GET', `/repos/acme/widgets/hooks/${hook.id}`, { token: mona.token })).status).toBe(200);
    await s.addMember('acme', 'mona', 'member');
    expect((await s.api('GET', `/repos/acme/widgets/hooks/${hook.id}`, { token: mona.token })).status).toBe(404);
  });

  it('classic scopes: repo or *:repo_hook (public_repo on public repositories); fine-grained repository_hooks', async () => {
    const tok = (scopes: string[]) => s.createToken('octo', { scopes });
    const hookReader = await tok(['read:repo_hook']);
    const publicOnly = await tok(['public_repo']);
    const none = await tok(['gist']);
    expect((await s.api('GET', '/repos/octo/hidden/hooks', { token: hookReader })).status).toBe(200);
    expect((await s.api('GET', '/repos/octo/personal/hooks', { token: publicOnly })).status).toBe(200);
    expect((await s.api('GET', '/repos/octo/hidden/hooks', { token: publicOnly })).status).toBe(404);
    expect((await s.api('GET', '/repos/octo/personal/hooks', { token: none })).status).toBe(404);
    // read:repo_hook does not write; write:repo_hook does not delete.
    expect(
      (await s.api('POST', '/repos/octo/hidden/hooks', { token: hookReader, body: { name: 'web', config: { url: rcv.url + fresh('r') } } }))
        .status,
    ).toBe(404);
    const writer = await tok(['write:repo_hook']);
    const made = await s.api('POST', '/repos/octo/hidden/hooks', {
      token: writer,
      body: { name: 'web', active: false, config: { url: rcv.url + fresh('w') } },
    });
    expect(made.status).toBe(201);
    expect((await s.api('DELETE', `/repos/octo/hidden/hooks/${made.body.id}`, { token: writer })).status).toBe(404);
    expect((await s.api('DELETE', `/repos/octo/hidden/hooks/${made.body.id}`, { token: await tok(['repo']) })).status).toBe(204);

    const fgRead = await s.createToken('octo', { kind: 'fine_grained', permissions: { repository_hooks: 'read' } });
    const fgNone = await s.createToken('octo', { kind: 'fine_grained', permissions: { contents: 'write' } });
    expect((await s.api('GET', '/repos/octo/personal/hooks', { token: fgRead })).status).toBe(200);
    const refused = await s.api('POST', '/repos/octo/personal/hooks', {
      token: fgRead,
      body: { name: 'web', config: { url: rcv.url + fresh('f') } },
    });
    expect(refused.status).toBe(403);
    expect((await s.api('GET', '/repos/octo/personal/hooks', { token: fgNone })).status).toBe(403);
  });
});
