// What hooks say about themselves and where they live: a repository hook's `ping` and `meta` (deleted) name its
// repository (GitHub's `repository` object, checked against @octokit/openapi-webhooks), an organization hook's do not;
// and an organization's `deleted` event reaches the organization's own hooks, which go with it in that transaction:
// signed with each hook's secret, sent from a farewell row that is gone once the delivery ran.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { expectWebhookPayload } from '../helpers/webhook-schemas.js';
import { signaturesValid, startReceiver, type Received, type Receiver } from './receiver.js';

let s: TestServer;
let rcv: Receiver;
let octo: { login: string; id: number; token: string };

const at = (p: string, event: string) => (r: Received) => r.path === p && r.headers['x-service-event'] === event;

beforeAll(async () => {
  s = await startServer();
  rcv = await startReceiver();
  octo = await s.userWithToken('octo');
});
afterAll(async () => {
  await s?.close();
  await rcv?.close();
});

async function created(p: string, body: Record<string, unknown>): Promise<{ id: number }> {
  const r = await s.api('POST', p, { token: octo.token, body });
  if (r.status !== 201) throw new Error(`POST ${p}: ${r.status} ${r.text}`);
  return r.body as { id: number };
}

const hookBody = (path: string, secret: string, events?: string[], active = true) => ({
  name: 'web',
  active,
  ...(events ? { events } : {}),
  config: { url: `${rcv.url}${path}`, content_type: 'json', secret },
});

/** The hooks rows and farewell rows of an organization's hooks (by hook id), as the database holds them now. */
async function rowsOf(hookIds: number[]) {
  const db = s.app.hublet.db;
  const hooks = await db.selectFrom('hooks').select('id').where('id', 'in', hookIds).execute();
  const farewells = await db.selectFrom('hook_farewells').select('hook_id').where('hook_id', 'in', hookIds).execute();
  return { hooks: hooks.length, farewells: farewells.length };
}

describe("a repository hook's own events name its repository", () => {
  it.each([
    ['a user’s repository', '/user/repos', 'octo/gadget', undefined],
    ['an organization’s repository', '/orgs/widgetco/repos', 'WidgetCo/widgets', 'WidgetCo'],
  ])('ping (on create and on request) and meta deleted carry the repository of %s', async (_what, createPath, fullName, orgLogin) => {
    if (orgLogin) await s.createOrg(orgLogin, 'octo');
    const repo = (await created(createPath, { name: fullName.split('/')[1], description: 'things' })) as {
      id: number;
      full_name: string;
      node_id: string;
    };
    const where = `/repo/${repo.id}`;
    const hook = await created(`/repos/${fullName}/hooks`, hookBody(where, 'repo-secret'));

    const [ping] = await rcv.waitFor(1, at(where, 'ping'));
    expect(signaturesValid(ping, 'repo-secret')).toBe(true);
    expect(ping.payload).toMatchObject({
      hook_id: hook.id,
      hook: { type: 'Repository', id: hook.id },
      repository: {
        id: repo.id,
        node_id: repo.node_id,
        full_name: repo.full_name,
        description: 'things',
        private: false,
        owner: { login: fullName.split('/')[0] },
      },
      sender: { login: 'octo' },
    });
    if (orgLogin) expect(ping.payload.organization).toMatchObject({ login: orgLogin });
    else expect(ping.payload).not.toHaveProperty('organization');
    expectWebhookPayload('ping', ping.payload);

    expect((await s.api('POST', `/repos/${fullName}/hooks/${hook.id}/pings`, { token: octo.token })).status).toBe(204);
    const again = (await rcv.waitFor(2, at(where, 'ping')))[1];
    expect(again.payload.repository).toEqual(ping.payload.repository);
    expectWebhookPayload('ping', again.payload);

    expect((await s.api('DELETE', `/repos/${fullName}/hooks/${hook.id}`, { token: octo.token })).status).toBe(204);
    const [meta] = await rcv.waitFor(1, at(where, 'meta'));
    expect(meta.payload).toMatchObject({ action: 'deleted', hook_id: hook.id, repository: { id: repo.id, full_name: repo.full_name } });
    expectWebhookPayload('meta', meta.payload);
  });

  it('an organization hook’s ping names the organization and no repository', async () => {
    await s.createOrg('Plain', 'octo');
    await created('/orgs/plain/hooks', hookBody('/plain', 'plain-secret'));
    const [ping] = await rcv.waitFor(1, at('/plain', 'ping'));
    expect(ping.payload.organization).toMatchObject({ login: 'Plain' });
    expect(ping.payload).not.toHaveProperty('repository');
    expectWebhookPayload('ping', ping.payload);
  });
});

describe("an organization's deletion reaches its own hooks", () => {
  it('sends organization deleted to its active hooks subscribed to it, each signed with its secret, then nothing of them is left', async () => {
    const org = await s.createOrg('Doomed', 'octo');
    const subscribed = await created('/orgs/doomed/hooks', hookBody('/doomed/org', 'first-secret', ['organization']));
    const everything = await created('/orgs/doomed/hooks', hookBody('/doomed/all', 'second-secret', ['*']));
    const pushOnly = await created('/orgs/doomed/hooks', hookBody('/doomed/push', 'third-secret', ['push']));
    const inactive = await created('/orgs/doomed/hooks', hookBody('/doomed/off', 'fourth-secret', ['organization'], false));
    await created('/orgs/doomed/repos', { name: 'inside' });
    await created('/repos/Doomed/inside/hooks', hookBody('/doomed/repo', 'repo-secret', ['*']));
    await s.app.hublet.jobs.idle();
    const from = rcv.received.length;

    expect((await s.api('DELETE', '/orgs/doomed', { token: octo.token })).status).toBe(202);
    await s.app.hublet.jobs.idle();
    const got = rcv.received.slice(from).filter((r) => r.path.startsWith('/doomed/'));
    // Only the two active hooks subscribed to `organization` (by name or `*`); repository hooks get no organization events.
    expect(got.map((r) => r.path).sort()).toEqual(['/doomed/all', '/doomed/org']);
    for (const [path, secret, hook] of [
      ['/doomed/org', 'first-secret', subscribed],
      ['/doomed/all', 'second-secret', everything],
    ] as const) {
      const r = got.find((g) => g.path === path)!;
      expect(r.headers).toMatchObject({
        'x-service-event': 'organization',
        'x-service-hook-id': String(hook.id),
        'x-service-hook-installation-target-type': 'organization',
        'x-service-hook-installation-target-id': String(org.id),
      });
      expect(signaturesValid(r, secret)).toBe(true);
      expect(r.payload).toMatchObject({ action: 'deleted', organization: { login: 'Doomed', id: org.id }, sender: { login: 'octo' } });
      expectWebhookPayload('organization', r.payload);
    }
    expect(got[0].headers['x-service-delivery']).toBe(got[1].headers['x-service-delivery']);

    // The hooks went with the organization; the farewell rows that held their configs went with the deliveries.
    expect(await rowsOf([subscribed.id, everything.id, pushOnly.id, inactive.id])).toEqual({ hooks: 0, farewells: 0 });
    expect((await s.api('GET', '/orgs/doomed/hooks', { token: octo.token })).status).toBe(404);
  });
});
