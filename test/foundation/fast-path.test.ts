// Cached reads answered before routing (src/http/fast-path.ts) are byte for byte what the route answers: the same
// request is sent with the cache stale (its route answers) and then current (the fast path answers, or hands it to
// Fastify when a rule refuses it), and both answers must have the same status, headers in the same order and bytes.
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { countRouted } from '../helpers/routed-count.js';
import { expectSame, routedThenFast, send, staleEverything } from '../helpers/raw-http.js';

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const FILES = { 'a.txt': { content: 'first\n' }, 'b.md': { content: '# two\n' } };

describe('the cached-read fast path', () => {
  it('answers every kind of caller, media type, version, HEAD and conditional request exactly as the route does', async () => {
    s = await startServer();
    const server = s;
    const owner = await s.userWithToken('ann', ['gist']);
    const plain = await s.createToken('ann', { scopes: [] });
    const fine = await s.createToken('ann', { kind: 'fine_grained', permissions: { gists: 'read' } });
    const appUser = await s.createToken('ann', { kind: 'app_user', app_id: 7, permissions: { gists: 'read' } });
    const publicId = (await s.api('POST', '/gists', { token: owner.token, body: { public: true, files: FILES } })).body.id;
    const secretId = (await s.api('POST', '/gists', { token: owner.token, body: { public: false, files: FILES } })).body.id;
    const etag = (await s.api('GET', `/gists/${publicId}`)).headers.get('etag')!;
    const lastModified = (await s.api('GET', `/gists/${publicId}`)).headers.get('last-modified')!;
    const routed = countRouted(s);

    const cases: [string, string, Record<string, string>][] = [
      ['GET', `/gists/${publicId}`, { authorization: `Bearer ${owner.token}` }],
      ['GET', `/gists/${secretId}`, { authorization: `token ${plain}` }],
      ['GET', `/gists/${secretId}`, {}],
      ['GET', `/gists/${publicId}`, { authorization: `Bearer ${fine}` }],
      ['GET', `/gists/${publicId}`, { authorization: `Bearer ${appUser}` }],
      ['GET', `/gists/${publicId}`, { authorization: `Basic ${Buffer.from(`x:${owner.token}`).toString('base64')}` }],
      ['GET', `/gists/${publicId}`, { accept: 'application/vnd.service.base64+json' }],
      ['GET', `/gists/${publicId}`, { accept: 'application/vnd.github.raw+json', authorization: `Bearer ${owner.token}` }],
      ['GET', `/gists/${publicId}`, { 'x-service-api-version': '2026-03-10' }],
      ['GET', `/gists/${publicId}`, { 'if-none-match': etag }],
      ['GET', `/gists/${publicId}`, { 'if-none-match': 'W/"other", *' }],
      ['GET', `/gists/${publicId}`, { 'if-modified-since': lastModified, authorization: `Bearer ${owner.token}` }],
      ['GET', `/gists/${publicId}`, { 'if-modified-since': 'Thu, 01 Jan 2015 00:00:00 GMT' }],
      ['HEAD', `/gists/${publicId}`, { authorization: `Bearer ${owner.token}` }],
      ['HEAD', `/gists/${secretId}`, { 'if-none-match': etag }],
      ['GET', `/api/v3/gists/${publicId}`, {}],
      ['GET', '/gists/public?per_page=1', { authorization: `Bearer ${owner.token}` }],
      ['GET', '/gists/public?per_page=1&page=2', {}],
      ['HEAD', '/gists/public', {}],
    ];
    for (const [method, path, headers] of cases) {
      const answered = await routedThenFast(server, routed, method, path, headers);
      expect([method, path, headers, answered !== undefined]).toEqual([method, path, headers, true]);
      expect(answered!.byRoute.status === 200 || answered!.byRoute.status === 304).toBe(true);
      expectSame(answered!.byRoute, answered!.fast);
    }
  });

  it('leaves every refusal to Fastify: a bad token, an unknown API version, a grant the caller lacks', async () => {
    s = await startServer();
    const server = s;
    const owner = await s.userWithToken('bo', ['gist']);
    const installation = await s.createToken('bo', { kind: 'installation', app_id: 7, permissions: { gists: 'read' } });
    const id = (await s.api('POST', '/gists', { token: owner.token, body: { public: true, files: FILES } })).body.id;
    const cases: [Record<string, string>, number][] = [
      [{ authorization: 'Bearer hlp_nosuchtoken000000000000000000000000' }, 401],
      [{ authorization: 'Basic !!!' }, 401],
      [{ authorization: `Bearer ${installation}` }, 403],
      [{ 'x-service-api-version': '1999-01-01' }, 400],
    ];
    for (const [headers, status] of cases) {
      await staleEverything(server);
      const refused = await send(server, 'GET', `/gists/${id}`, headers);
      expect((await send(server, 'GET', `/gists/${id}`)).status).toBe(200); // the entry is current again
      const again = await send(server, 'GET', `/gists/${id}`, headers);
      expect([headers, refused.status]).toEqual([headers, status]);
      expectSame(refused, again);
    }
  });

  it('a caller over the rate limit gets the 403 of the route, counted once', async () => {
    // A fixed clock: the 403's Retry-After counts seconds to the window's end, which a second boundary between the two
    // refusals would move by one on a loaded machine.
    const now = new Date();
    s = await startServer({ clock: { now: () => now }, config: { rateLimitAnonymous: 3 } });
    const server = s;
    const owner = await s.userWithToken('cy', ['gist']);
    const id = (await s.api('POST', '/gists', { token: owner.token, body: { public: true, files: FILES } })).body.id;
    const signedIn = { authorization: `Bearer ${owner.token}` };
    for (let i = 0; i < 3; i++) expect((await send(server, 'GET', `/gists/${id}`)).status).toBe(200);
    await staleEverything(server);
    const byRoute = await send(server, 'GET', `/gists/${id}`);
    expect(byRoute.status).toBe(403);
    expect((await send(server, 'GET', `/gists/${id}`, signedIn)).status).toBe(200); // current again, for someone else
    const again = await send(server, 'GET', `/gists/${id}`);
    expectSame(byRoute, again);
    expect(JSON.parse(again.body.toString()).message).toMatch(/^API rate limit exceeded for /);
  });

  it('writes never take it: a PATCH to a URL whose read is cached is answered by its route', async () => {
    s = await startServer();
    const server = s;
    const owner = await s.userWithToken('di', ['gist']);
    const id = (await s.api('POST', '/gists', { token: owner.token, body: { public: true, description: 'one', files: FILES } })).body.id;
    const routed = countRouted(server);
    // The first GET builds the entry; one of the next answers from it without its route (on PostgreSQL another test
    // file's commit can make an entry stale in between: hence a few tries).
    expect((await s.api('GET', `/gists/${id}`)).body.description).toBe('one');
    let fastAnswers = 0;
    for (let i = 0; i < 5 && fastAnswers === 0; i++) {
      const before = routed();
      expect((await s.api('GET', `/gists/${id}`)).body.description).toBe('one');
      if (routed() === before) fastAnswers++;
    }
    expect(fastAnswers).toBe(1);
    const beforePatch = routed();
    const patched = await s.api('PATCH', `/gists/${id}`, { token: owner.token, body: { description: 'two' } });
    expect(patched.status).toBe(200);
    expect(patched.body.description).toBe('two');
    expect(routed()).toBe(beforePatch); // the PATCH went to its own route, not through the read's cache
    expect((await s.api('GET', `/gists/${id}`)).body.description).toBe('two');
    expect(routed()).toBe(beforePatch + 1); // the read after the write was built again
  });
});
