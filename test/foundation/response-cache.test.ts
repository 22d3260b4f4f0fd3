// Hot reads answered from the response cache are never stale: every write this server commits, and every write another
// process commits to the same database (the CLI in local mode, a second connection), is in the very next response.
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import { startCliServer, type CliServer } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer | undefined;
let cli: CliServer | undefined;
afterEach(async () => {
  await s?.close();
  await cli?.close();
  s = cli = undefined;
});

const FILES = { 'a.txt': { content: 'first\n' } };

/** Counts the responses the app's response cache builds (a miss) from now on. */
function countBuilds(server: TestServer): () => number {
  const cache = server.app.hublet.responses;
  const respond = cache.respond.bind(cache);
  let builds = 0;
  cache.respond = (request, reply, key, build) =>
    respond(request, reply, key, () => {
      builds++;
      return build();
    });
  return () => builds;
}

describe('GET /gists/{id} through the response cache', () => {
  it('answers repeated reads with the same bytes and ETag, and 304 to If-None-Match', async () => {
    s = await startServer();
    const { token } = await s.userWithToken('ann', ['gist']);
    const id = (await s.api('POST', '/gists', { token, body: { files: FILES } })).body.id;
    const first = await s.api('GET', `/gists/${id}`);
    const second = await s.api('GET', `/gists/${id}`, { token });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second.headers.get('last-modified')).toBe(first.headers.get('last-modified'));
    // Rate-limit headers stay per request (they are not part of what is cached).
    const third = await s.api('GET', `/gists/${id}`, { token });
    expect(Number(third.headers.get('x-ratelimit-used'))).toBe(Number(second.headers.get('x-ratelimit-used')) + 1);
    const again = await s.api('GET', `/gists/${id}`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('each media type is its own entry', async () => {
    s = await startServer();
    const { token } = await s.userWithToken('bo', ['gist']);
    const id = (await s.api('POST', '/gists', { token, body: { files: FILES } })).body.id;
    const json = await s.api('GET', `/gists/${id}`);
    const base64 = await s.api('GET', `/gists/${id}`, { headers: { accept: 'application/vnd.service.base64+json' } });
    expect(json.body.files['a.txt'].content).toBe('first\n');
    expect(base64.body.files['a.txt'].content).toBe(Buffer.from('first\n').toString('base64'));
    expect((await s.api('GET', `/gists/${id}`)).body.files['a.txt'].content).toBe('first\n');
  });

  it('a write this server commits to another table (a fork, a comment, an account deleted) is in the next read', async () => {
    s = await startServer();
    const owner = await s.userWithToken('cy', ['gist']);
    const forker = await s.userWithToken('di', ['gist']);
    const id = (await s.api('POST', '/gists', { token: owner.token, body: { public: true, files: FILES } })).body.id;
    expect((await s.api('GET', `/gists/${id}`)).body.forks).toEqual([]);
    expect((await s.api('POST', `/gists/${id}/forks`, { token: forker.token })).status).toBe(201);
    const forked = await s.api('GET', `/gists/${id}`);
    expect(forked.body.forks.map((f: { user: { login: string } }) => f.user.login)).toEqual(['di']);
    expect((await s.api('POST', `/gists/${id}/comments`, { token: forker.token, body: { body: 'nice' } })).status).toBe(201);
    expect((await s.api('GET', `/gists/${id}`)).body.comments).toBe(1);
    expect((await s.api('GET', '/gists/public')).body.find((g: { id: string }) => g.id === id).comments).toBe(1);
    expect((await s.api('DELETE', '/admin/users/di', { token: s.adminToken })).status).toBe(204);
    const after = await s.api('GET', `/gists/${id}`);
    expect(after.body.forks).toEqual([]);
  });

  it('a statement that changes nothing (the job worker claiming when no job is due) keeps the cached response', async () => {
    s = await startServer();
    const server = s;
    const { token } = await s.userWithToken('eli', ['gist']);
    const id = (await s.api('POST', '/gists', { token, body: { public: true, files: FILES } })).body.id;
    const builds = countBuilds(s);
    const read = async () => expect((await server.api('GET', `/gists/${id}`)).status).toBe(200);
    /**
     * Whether a read after `between` is answered without a build, the entry filled first. A commit of this server's
     * background work meanwhile makes the entry stale, so a round that saw a build is tried again (a few times at
     * most); a step that always empties the cache fails every round.
     */
    const keptAcross = async (between: () => Promise<unknown>) => {
      for (let attempt = 0; attempt < 5; attempt++) {
        await read();
        const filled = builds();
        await between();
        await read();
        if (builds() === filled) return true;
      }
      return false;
    };
    expect(await keptAcross(async () => undefined)).toBe(true);
    // A commit (a star) empties it: the read after it builds anew, every time.
    const before = builds();
    expect((await s.api('PUT', `/gists/${id}/star`, { token })).status).toBe(204);
    await read();
    expect(builds()).toBe(before + 1);
    let starred = true;
    const toggleStar = async () => {
      starred = !starred;
      expect((await server.api(starred ? 'PUT' : 'DELETE', `/gists/${id}/star`, { token })).status).toBe(204);
    };
    expect(await keptAcross(toggleStar)).toBe(false);
    // UPDATEs that match no row, as the worker's claim on every poll: nothing is committed, the next read is a hit.
    const claimNothing = async () => {
      for (let i = 0; i < 3; i++)
        await server.app.hublet.db.updateTable('jobs').set({ locked_by: 'nobody' }).where('id', '=', -1).execute();
    };
    expect(await keptAcross(claimNothing)).toBe(true);
  });

  it("another connection's commit to the same database is in the very next read", async () => {
    s = await startServer();
    const { token } = await s.userWithToken('ed', ['gist']);
    const id = (await s.api('POST', '/gists', { token, body: { description: 'before', public: true, files: FILES } })).body.id;
    const before = await s.api('GET', `/gists/${id}`);
    expect(before.body.description).toBe('before');
    expect((await s.api('GET', '/gists/public')).body[0].description).toBe('before');
    // As another process would: its own connections, invisible to this server's write observer.
    const other = connect(s.databaseUrl);
    try {
      await other.updateTable('gists').set({ description: 'after' }).where('id', '=', id).execute();
    } finally {
      await other.destroy();
    }
    const after = await s.api('GET', `/gists/${id}`);
    expect(after.body.description).toBe('after');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect((await s.api('GET', '/gists/public')).body[0].description).toBe('after');
  });

  it('the CLI in local mode (another process) edits a gist: the server answers with the edit at once', async () => {
    cli = await startCliServer();
    const server = cli.server;
    const { token } = await server.userWithToken('flo', ['gist']);
    const id = (await server.api('POST', '/gists', { token, body: { public: true, files: FILES } })).body.id;
    expect((await server.api('GET', `/gists/${id}`)).body.files['a.txt'].content).toBe('first\n');
    const edited = await cli.local(['--as', 'flo', 'gist', 'edit', id, '--desc', 'edited by the CLI']);
    expect(edited.stderr).toBe('');
    expect(edited.code).toBe(0);
    expect((await server.api('GET', `/gists/${id}`)).body.description).toBe('edited by the CLI');
  });
});

describe('HUBLET_RESPONSE_CACHE_MB=0', () => {
  it('builds every response afresh, with the same bytes, headers and ETag as the cache would give', async () => {
    s = await startServer({ config: { responseCacheMiB: 0 } });
    const { token } = await s.userWithToken('hal', ['gist']);
    const id = (await s.api('POST', '/gists', { token, body: { files: FILES } })).body.id;
    const [a, b] = [await s.api('GET', `/gists/${id}`), await s.api('GET', `/gists/${id}`)];
    expect(b.text).toBe(a.text);
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
    expect(b.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await s.api('GET', `/gists/${id}`, { headers: { 'if-none-match': a.headers.get('etag')! } })).status).toBe(304);
    expect((await s.api('GET', '/gists/public')).body.map((g: { id: string }) => g.id)).toEqual([]);
  });
});

describe('GET /gists/public through the response cache', () => {
  it('keeps each page with its Link header, and a new gist is at the top of the next read', async () => {
    s = await startServer();
    const { token } = await s.userWithToken('gus', ['gist']);
    for (let i = 0; i < 3; i++) await s.api('POST', '/gists', { token, body: { description: `g${i}`, public: true, files: FILES } });
    const page1 = await s.api('GET', '/gists/public?per_page=2');
    const page1again = await s.api('GET', '/gists/public?per_page=2');
    expect(page1again.headers.get('link')).toBe(page1.headers.get('link'));
    expect(page1again.headers.get('link')).toContain('rel="next"');
    const page2 = await s.api('GET', '/gists/public?per_page=2&page=2');
    expect(page2.body.map((g: { description: string }) => g.description)).toEqual(['g0']);
    expect(page2.headers.get('link')).toContain('rel="prev"');
    await s.api('POST', '/gists', { token, body: { description: 'newest', public: true, files: FILES } });
    const fresh = await s.api('GET', '/gists/public?per_page=2');
    expect(fresh.body.map((g: { description: string }) => g.description)).toEqual(['newest', 'g2']);
  });
});
