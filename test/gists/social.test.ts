// Stars, forks and comments on gists.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; token: string };
let bob: { login: string; token: string };
let carol: { login: string; token: string };

beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
  carol = await s.userWithToken('carol');
});
afterAll(async () => s?.close());

async function newGist(token: string, files: Record<string, string>, isPublic = true, description = 'gist'): Promise<any> {
  const r = await s.api('POST', '/gists', {
    token,
    body: { public: isPublic, description, files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, { content: v }])) },
  });
  expect(r.status).toBe(201);
  return r.body;
}

describe('stars', () => {
  it('PUT and DELETE are idempotent 204s; the check answers 204 or 404', async () => {
    const g = await newGist(alice.token, { 'a.txt': 'a\n' });
    const star = `/gists/${g.id}/star`;
    expect((await s.api('GET', star, { token: bob.token })).status).toBe(404);
    for (let i = 0; i < 2; i++) {
      // No body: fetch sends `Content-Length: 0` for a PUT itself (the Fetch standard), as GitHub asks; naming the header
      // too is refused by undici's own fetch when a test file in the same worker has put it in place of Node's.
      const put = await s.api('PUT', star, { token: bob.token });
      expect(put.status).toBe(204);
      expect(put.text).toBe('');
      checkSchema(put, 'PUT /gists/{gist_id}/star');
    }
    const check = await s.api('GET', star, { token: bob.token });
    expect(check.status).toBe(204);
    checkSchema(check, 'GET /gists/{gist_id}/star');
    expect((await s.api('GET', star, { token: carol.token })).status).toBe(404);
    expect((await s.api('GET', star)).status).toBe(404);
    for (let i = 0; i < 2; i++) expect((await s.api('DELETE', star, { token: bob.token })).status).toBe(204);
    const gone = await s.api('GET', star, { token: bob.token });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ message: 'Not Found', status: '404' });
  });

  it('needs a signed-in caller with the gist grant, and an existing gist', async () => {
    const g = await newGist(alice.token, { 'a.txt': 'a\n' });
    expect((await s.api('PUT', `/gists/${g.id}/star`)).status).toBe(401);
    const noScope = await s.createToken('bob', { scopes: ['read:user'] });
    expect((await s.api('PUT', `/gists/${g.id}/star`, { token: noScope })).status).toBe(404);
    expect((await s.api('PUT', `/gists/${'a'.repeat(32)}/star`, { token: bob.token })).status).toBe(404);
    expect((await s.api('DELETE', `/gists/${'a'.repeat(32)}/star`, { token: bob.token })).status).toBe(404);
    expect((await s.api('GET', `/gists/${'a'.repeat(32)}/star`, { token: bob.token })).status).toBe(404);
  });

  it('GET /gists/starred lists what the caller starred, secret gists included, with paging', async () => {
    const one = await newGist(alice.token, { 'one.txt': '1\n' }, true, 'one');
    const two = await newGist(alice.token, { 'two.txt': '2\n' }, false, 'two');
    await newGist(alice.token, { 'three.txt': '3\n' }, true, 'not starred');
    for (const g of [one, two]) expect((await s.api('PUT', `/gists/${g.id}/star`, { token: carol.token })).status).toBe(204);
    const r = await s.api('GET', '/gists/starred', { token: carol.token });
    const body = checkSchema(r, 'GET /gists/starred');
    expect(body.map((g: any) => g.description).sort()).toEqual(['one', 'two']);
    const paged = await s.api('GET', '/gists/starred?per_page=1', { token: carol.token });
    expect(paged.body).toHaveLength(1);
    expect(paged.headers.get('link')).toContain('rel="next"');
    expect((await s.api('GET', '/gists/starred', { token: bob.token })).body.map((g: any) => g.description)).not.toContain('one');
  });

  it('works through Octokit', async () => {
    const g = await newGist(alice.token, { 'a.txt': 'a\n' });
    const octokit = s.octokit(bob.token);
    await octokit.rest.gists.star({ gist_id: g.id });
    expect((await octokit.rest.gists.checkIsStarred({ gist_id: g.id })).status).toBe(204);
    expect((await octokit.rest.gists.listStarred()).data.map((x) => x.id)).toContain(g.id);
    await octokit.rest.gists.unstar({ gist_id: g.id });
    await expect(octokit.rest.gists.checkIsStarred({ gist_id: g.id })).rejects.toMatchObject({ status: 404 });
  });
});

describe('forks', () => {
  let parent: any;
  let fork: any;
  beforeAll(async () => {
    parent = await newGist(alice.token, { 'a.txt': 'one\n', 'b.txt': 'b\n' }, true, 'the parent');
    parent = (await s.api('PATCH', `/gists/${parent.id}`, { token: alice.token, body: { files: { 'a.txt': { content: 'two\n' } } } })).body;
  });

  it('POST /gists/:gist_id/forks: 201, a new gist owned by the caller with the history carried over', async () => {
    const r = await s.api('POST', `/gists/${parent.id}/forks`, { token: bob.token });
    fork = checkSchema(r, 'POST /gists/{gist_id}/forks');
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.url}/gists/${fork.id}`);
    expect(fork.id).not.toBe(parent.id);
    expect(fork).toMatchObject({ owner: { login: 'bob' }, description: 'the parent', public: true });
    expect(Object.fromEntries(Object.entries(fork.files).map(([k, f]: [string, any]) => [k, f.content]))).toEqual({
      'a.txt': 'two\n',
      'b.txt': 'b\n',
    });
    expect(fork.history.map((h: any) => h.version)).toEqual(parent.history.map((h: any) => h.version));
  });

  it('shows fork_of on the fork and the fork in the parent’s forks', async () => {
    const got = await s.api('GET', `/gists/${fork.id}`);
    const body = checkSchema(got, 'GET /gists/{gist_id}');
    expect(body.fork_of).toMatchObject({ id: parent.id, owner: { login: 'alice' }, url: `${s.url}/gists/${parent.id}` });
    expect(body.fork_of.files['a.txt']).not.toHaveProperty('content');
    const p = checkSchema(await s.api('GET', `/gists/${parent.id}`), 'GET /gists/{gist_id}');
    expect(p).not.toHaveProperty('fork_of');
    expect(p.forks).toEqual([
      expect.objectContaining({
        id: fork.id,
        url: `${s.url}/gists/${fork.id}`,
        user: expect.objectContaining({ login: 'bob', public_gists: 1 }),
      }),
    ]);
  });

  it('GET /gists/:gist_id/forks lists the forks', async () => {
    const r = await s.api('GET', `/gists/${parent.id}/forks`);
    const list = checkSchema(r, 'GET /gists/{gist_id}/forks');
    expect(list.map((g: any) => g.id)).toEqual([fork.id]);
    expect((await s.api('GET', `/gists/${'c'.repeat(32)}/forks`)).status).toBe(404);
  });

  it('returns the existing fork when the same user forks again', async () => {
    const again = await s.api('POST', `/gists/${parent.id}/forks`, { token: bob.token });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(fork.id);
    expect((await s.api('GET', `/gists/${parent.id}/forks`)).body).toHaveLength(1);
  });

  it('refuses forking your own gist with 422', async () => {
    const r = await s.api('POST', `/gists/${parent.id}/forks`, { token: alice.token });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('You cannot fork your own gist');
    expect(r.body.errors).toEqual([
      expect.objectContaining({ resource: 'Gist', code: 'custom', message: 'You cannot fork your own gist' }),
    ]);
    checkSchema(r, 'POST /gists/{gist_id}/forks');
  });

  it('needs a signed-in caller and an existing gist', async () => {
    expect((await s.api('POST', `/gists/${parent.id}/forks`)).status).toBe(401);
    expect((await s.api('POST', `/gists/${'d'.repeat(32)}/forks`, { token: carol.token })).status).toBe(404);
  });

  it('keeps the fork independent: its own repository, its own revisions', async () => {
    const changed = await s.api('PATCH', `/gists/${fork.id}`, { token: bob.token, body: { files: { 'b.txt': { content: 'bob\n' } } } });
    expect(changed.status).toBe(200);
    expect(changed.body.history).toHaveLength(3);
    const p = await s.api('GET', `/gists/${parent.id}`);
    expect(p.body.files['b.txt'].content).toBe('b\n');
    expect(p.body.history).toHaveLength(2);

    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-fork-'));
    try {
      const run = promisify(execFile);
      await run('git', ['clone', '-q', fork.git_pull_url, 'f'], { cwd: tmp, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
      const log = (await run('git', ['log', '--format=%H'], { cwd: path.join(tmp, 'f') })).stdout.trim().split('\n');
      expect(log).toEqual(changed.body.history.map((h: any) => h.version));
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('outlives its deleted parent', async () => {
    const other = await newGist(alice.token, { 'x.txt': 'x\n' });
    const f = (await s.api('POST', `/gists/${other.id}/forks`, { token: carol.token })).body;
    expect((await s.api('DELETE', `/gists/${other.id}`, { token: alice.token })).status).toBe(204);
    const got = await s.api('GET', `/gists/${f.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('fork_of');
    expect(got.body.files['x.txt'].content).toBe('x\n');
  });

  it('forks a secret gist as a secret gist, through Octokit', async () => {
    const secret = await newGist(alice.token, { 's.txt': 's\n' }, false);
    const r = await s.octokit(carol.token).rest.gists.fork({ gist_id: secret.id });
    expect(r.status).toBe(201);
    expect(r.data.public).toBe(false);
    expect((await s.octokit().rest.gists.listForks({ gist_id: secret.id })).data.map((g) => g.id)).toEqual([r.data.id]);
  });
});

describe('comments', () => {
  let g: any;
  let bobComment: any;
  beforeAll(async () => {
    g = await newGist(alice.token, { 'a.txt': 'a\n' }, false);
  });

  it('POST /gists/:gist_id/comments: 201 with the comment, and the gist counts it', async () => {
    const r = await s.api('POST', `/gists/${g.id}/comments`, { token: bob.token, body: { body: 'Nice gist!' } });
    bobComment = checkSchema(r, 'POST /gists/{gist_id}/comments');
    expect(r.status).toBe(201);
    expect(bobComment).toMatchObject({
      body: 'Nice gist!',
      user: { login: 'bob' },
      author_association: 'NONE',
      url: `${s.url}/gists/${g.id}/comments/${bobComment.id}`,
    });
    expect(r.headers.get('location')).toBe(bobComment.url);
    const own = await s.api('POST', `/gists/${g.id}/comments`, { token: alice.token, body: { body: 'Thanks' } });
    expect(own.body.author_association).toBe('OWNER');
    expect((await s.api('GET', `/gists/${g.id}`)).body.comments).toBe(2);
    expect((await s.api('GET', '/gists', { token: alice.token })).body.find((x: any) => x.id === g.id).comments).toBe(2);
  });

  it('lists and reads comments anonymously, with paging', async () => {
    const list = await s.api('GET', `/gists/${g.id}/comments`);
    expect(checkSchema(list, 'GET /gists/{gist_id}/comments').map((c: any) => c.body)).toEqual(['Nice gist!', 'Thanks']);
    const paged = await s.api('GET', `/gists/${g.id}/comments?per_page=1&page=2`);
    expect(paged.body.map((c: any) => c.body)).toEqual(['Thanks']);
    expect(paged.headers.get('link')).toContain('rel="prev"');
    const one = await s.api('GET', `/gists/${g.id}/comments/${bobComment.id}`);
    expect(checkSchema(one, 'GET /gists/{gist_id}/comments/{comment_id}').body).toBe('Nice gist!');
    for (const bad of ['999999', 'abc', '99999999999999999999', '0']) {
      expect((await s.api('GET', `/gists/${g.id}/comments/${bad}`)).status, bad).toBe(404);
    }
  });

  it('lets only the author edit a comment', async () => {
    expect(
      (await s.api('PATCH', `/gists/${g.id}/comments/${bobComment.id}`, { token: alice.token, body: { body: 'hijacked' } })).status,
    ).toBe(404);
    const r = await s.api('PATCH', `/gists/${g.id}/comments/${bobComment.id}`, { token: bob.token, body: { body: 'Very nice gist!' } });
    expect(checkSchema(r, 'PATCH /gists/{gist_id}/comments/{comment_id}').body).toBe('Very nice gist!');
  });

  it('refuses bad comment bodies with 422', async () => {
    for (const body of [{}, { body: '' }, { body: '   ' }, { body: 7 }, { body: 'x'.repeat(65536) }]) {
      const r = await s.api('POST', `/gists/${g.id}/comments`, { token: bob.token, body });
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(422);
      expect(r.body.message).toBe('Validation Failed');
      expect(r.body.errors[0]).toMatchObject({ field: 'body' });
    }
    expect((await s.api('POST', `/gists/${g.id}/comments`, { body: { body: 'anon' } })).status).toBe(401);
    expect((await s.api('POST', `/gists/${'b'.repeat(32)}/comments`, { token: bob.token, body: { body: 'x' } })).status).toBe(404);
  });

  it('lets the author or the gist owner delete a comment, keeping the count true', async () => {
    const carols = (await s.api('POST', `/gists/${g.id}/comments`, { token: carol.token, body: { body: 'hi' } })).body;
    expect((await s.api('GET', `/gists/${g.id}`)).body.comments).toBe(3);
    expect((await s.api('DELETE', `/gists/${g.id}/comments/${carols.id}`, { token: bob.token })).status).toBe(404);
    const byOwner = await s.api('DELETE', `/gists/${g.id}/comments/${carols.id}`, { token: alice.token });
    expect(byOwner.status).toBe(204);
    checkSchema(byOwner, 'DELETE /gists/{gist_id}/comments/{comment_id}');
    expect((await s.api('DELETE', `/gists/${g.id}/comments/${bobComment.id}`, { token: bob.token })).status).toBe(204);
    expect((await s.api('GET', `/gists/${g.id}/comments/${bobComment.id}`)).status).toBe(404);
    expect((await s.api('GET', `/gists/${g.id}`)).body.comments).toBe(1);
  });

  it('works through Octokit', async () => {
    const octokit = s.octokit(carol.token);
    const created = await octokit.rest.gists.createComment({ gist_id: g.id, body: 'octo' });
    const updated = await octokit.rest.gists.updateComment({ gist_id: g.id, comment_id: created.data.id, body: 'octo!' });
    expect(updated.data.body).toBe('octo!');
    expect((await octokit.rest.gists.getComment({ gist_id: g.id, comment_id: created.data.id })).data.body).toBe('octo!');
    expect((await octokit.rest.gists.listComments({ gist_id: g.id })).data.map((c) => c.body)).toEqual(['Thanks', 'octo!']);
    await octokit.rest.gists.deleteComment({ gist_id: g.id, comment_id: created.data.id });
  });
});
