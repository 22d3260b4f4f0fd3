// Reads kept per credential (respondForCaller, http/response-cache.ts): what the fast path answers from them is byte for
// byte what their route answers, and an entry built for one credential is never what another caller gets: not another
// user, not another token of the same user, not the same token once a change took its access away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { LOCAL_ACTOR_HEADER } from '../../src/http/auth.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { countRouted } from '../helpers/routed-count.js';
import { expectSame, routedThenFast, send } from '../helpers/raw-http.js';

let s: TestServer;
let routed: () => number;
let owner: { login: string; token: string };
let member: { login: string; token: string };
let hookId: number;
beforeAll(async () => {
  s = await startServer();
  owner = await s.userWithToken('olga');
  member = await s.userWithToken('mats');
  await s.createOrg('acme', 'olga');
  await s.addMember('acme', 'mats');
  const hook = await s.api('POST', '/orgs/acme/hooks', {
    token: owner.token,
    body: { name: 'web', active: false, config: { url: 'http://127.0.0.1:9/hook', secret: 'shh' } },
  });
  hookId = hook.body.id;
  await s.api('POST', `/orgs/acme/hooks/${hookId}/pings`, { token: owner.token });
  expect((await s.api('POST', '/orgs/acme/repos', { token: owner.token, body: { name: 'widgets', private: true } })).status).toBe(201);
  for (const who of [owner, member]) {
    const files = { [`${who.login}.txt`]: { content: `${who.login}'s\n` } };
    await s.api('POST', '/gists', { token: who.token, body: { public: false, files } });
  }
  const publicGist = await s.api('POST', '/gists', { token: member.token, body: { public: true, files: { 'p.txt': { content: 'p' } } } });
  await s.api('PUT', `/gists/${publicGist.body.id}/star`, { token: owner.token });
  routed = countRouted(s);
});
afterAll(() => s.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('reads kept per credential', () => {
  it('are answered from the cache exactly as their routes answer them', async () => {
    const cases: [string, Record<string, string>][] = [
      ['/users/olga', {}],
      ['/orgs/acme', bearer(member.token)],
      ['/repos/acme/widgets', bearer(owner.token)],
      ['/repos/acme/widgets', { ...bearer(owner.token), 'x-service-api-version': '2022-11-28' }],
      ['/orgs/acme/hooks', bearer(owner.token)],
      [`/orgs/acme/hooks/${hookId}`, bearer(owner.token)],
      [`/orgs/acme/hooks/${hookId}/deliveries?per_page=1`, bearer(owner.token)],
      ['/gists', bearer(owner.token)],
      ['/gists', {}],
      ['/gists/starred', bearer(owner.token)],
      ['/users/olga/gists', bearer(owner.token)],
      ['/api/v3/users/mats/gists', {}],
    ];
    for (const [path, headers] of cases) {
      const answered = await routedThenFast(s, routed, 'GET', path, headers);
      expect([path, answered !== undefined]).toEqual([path, true]);
      expect([path, answered!.byRoute.status]).toEqual([path, 200]);
      expectSame(answered!.byRoute, answered!.fast);
    }
  });

  it("never give one caller another's answer", async () => {
    const json = async (path: string, headers: Record<string, string>) => {
      const r = await send(s, 'GET', path, headers);
      return { status: r.status, body: r.status === 200 ? JSON.parse(r.body.toString()) : undefined };
    };
    // The owner's entries are built and current; each other caller still gets what their route gives them.
    for (let i = 0; i < 2; i++) {
      expect((await json('/orgs/acme/hooks', bearer(owner.token))).body).toHaveLength(1);
      expect((await json('/gists', bearer(owner.token))).body.map((g: any) => Object.keys(g.files))).toEqual([['olga.txt']]);
      expect((await json('/repos/acme/widgets', bearer(owner.token))).body.permissions.admin).toBe(true);
    }
    expect((await json('/orgs/acme/hooks', bearer(member.token))).status).toBe(404);
    expect((await json('/orgs/acme/hooks', {})).status).toBe(401);
    expect((await json('/gists', bearer(member.token))).body.map((g: any) => Object.keys(g.files))).toEqual([['p.txt'], ['mats.txt']]);
    expect((await json('/gists', {})).body.map((g: any) => Object.keys(g.files))).toEqual([['p.txt']]);
    const memberView = await json('/repos/acme/widgets', bearer(member.token));
    expect(memberView.body.permissions).toMatchObject({ admin: false, pull: true });

    // Another token of the owner's, without the hook scope: the route's refusal, not the owner's list.
    const gistOnly = await s.createToken('olga', { scopes: ['gist'] });
    expect((await json('/orgs/acme/hooks', bearer(gistOnly))).status).toBe(404);
    expect((await json('/orgs/acme/hooks', { authorization: `token ${owner.token}` })).body).toHaveLength(1);

    // The owner hands the organization over and leaves it: the same token, which got the list a moment ago, gets 404.
    await s.addMember('acme', 'mats', 'admin');
    expect((await s.api('DELETE', '/orgs/acme/members/olga', { token: member.token })).status).toBe(204);
    expect((await json('/orgs/acme/hooks', bearer(owner.token))).status).toBe(404);
    expect((await json('/repos/acme/widgets', bearer(owner.token))).status).toBe(404);
    expect((await json('/orgs/acme/hooks', bearer(member.token))).body).toHaveLength(1);

    // A revoked token gets 401, whatever was kept for it.
    const matsId = (await s.api('GET', '/users/mats')).body.id;
    await s.db.updateTable('tokens').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', matsId).execute();
    expect((await json('/orgs/acme/hooks', bearer(member.token))).status).toBe(401);
  });

  it("in the CLI's in-process app, keeps an entry per local actor", async () => {
    const local = await buildApp({ config: s.app.hublet.config, db: s.db, local: true });
    try {
      const gistsOf = async (login: string) => {
        const r = await local.inject({ method: 'GET', url: '/gists', headers: { [LOCAL_ACTOR_HEADER]: login } });
        expect(r.statusCode).toBe(200);
        return JSON.parse(r.body).map((g: any) => Object.keys(g.files)[0]);
      };
      expect(await gistsOf('olga')).toEqual(['olga.txt']);
      expect(await gistsOf('olga')).toEqual(['olga.txt']);
      expect(await gistsOf('mats')).toEqual(['p.txt', 'mats.txt']);
    } finally {
      await local.close();
    }
  });
});
