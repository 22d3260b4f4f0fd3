// Star, Fork and comments from a gist's page, signed in: the counts beside the Star and Fork buttons, Unstar, a fork
// made as another person (and refused for one's own gist), comments in Markdown (sanitized), "Edit" and "Update
// comment" for their author, "Delete" (after a confirmation page) for their author or the gist's owner and for no one
// else; a blank comment comes back with its error; a visitor sees the comments and a link to sign in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
let s: TestServer;
let alice: WebClient;
let bob: WebClient;
let carol: WebClient;
let token: string;
let id: string;

beforeAll(async () => {
  s = await startServer();
  for (const login of ['alice', 'bob', 'carol']) await s.createUser(login, { password: PASSWORD });
  token = await s.createToken('alice', { scopes: ['gist'] });
  const made = await s.api('POST', '/gists', {
    token,
    body: { public: true, description: 'Shared', files: { 'a.md': { content: '# A' } } },
  });
  id = made.body.id;
  [alice, bob, carol] = [new WebClient(s.url), new WebClient(s.url), new WebClient(s.url)];
  for (const [c, login] of [
    [alice, 'alice'],
    [bob, 'bob'],
    [carol, 'carol'],
  ] as const)
    expect((await c.signIn(login, PASSWORD)).status).toBe(303);
}, 60_000);
afterAll(() => s?.close());

/** The Star/Unstar or Fork button's form and the count beside it. */
function counted(page: string, label: string): { count: number } | undefined {
  const m = new RegExp(`<button type="submit">${label}</button></form><span class="count"[^>]*>(\\d+)<`).exec(page);
  return m ? { count: Number(m[1]) } : undefined;
}

describe('the header menu and "Your gists"', () => {
  it('offers New gist, Your gists, Starred gists, settings and Sign out; Your gists shows the secret ones marked', async () => {
    const secret = await s.api('POST', '/gists', { token, body: { public: false, files: { 'hidden.txt': { content: 'x' } } } });
    const mine = await alice.get('/gist/alice');
    for (const link of ['/gist/new">New gist', '/gist/alice">Your gists', '/gist/alice/starred">Starred gists', '/settings/profile">'])
      expect(mine.text).toContain(`href="${s.url}${link}`);
    expect(mine.text).toContain('<h1>Your gists</h1>');
    expect(mine.text).toContain(`href="${s.url}/gist/${secret.body.id}"><strong>hidden.txt</strong></a> <span class="badge">Secret</span>`);
    const theirs = await bob.get('/gist/alice');
    expect(theirs.text).not.toContain('hidden.txt');
    expect(theirs.text).toContain('’s gists</h1>');
  });
});

describe('Star and Fork', () => {
  it('shows a visitor the counts with links to sign in, and the owner Edit and Delete but no Fork', async () => {
    const visitor = await new WebClient(s.url).get(`/gist/${id}`);
    expect(visitor.text).toContain(`href="${s.url}/login?return_to=%2Fgist%2F${id}">Star</a><span class="count"`);
    expect(visitor.text).not.toContain('/edit">Edit</a>');
    const own = await alice.get(`/gist/${id}`);
    expect(own.text).toContain(`href="${s.url}/gist/${id}/edit">Edit</a>`);
    expect(own.text).toContain(`href="${s.url}/gist/${id}/delete">Delete</a>`);
    expect(counted(own.text, 'Fork')).toBeUndefined();
    expect(counted(own.text, 'Star')).toEqual({ count: 0 });
  });

  it('stars and unstars, the count beside the button following', async () => {
    await bob.get(`/gist/${id}`);
    const r = await bob.post(`/gist/${id}/star`, {});
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${s.url}/gist/${id}`);
    const bobToken = await s.createToken('bob', { scopes: ['gist'] });
    expect((await s.api('GET', `/gists/${id}/star`, { token: bobToken })).status).toBe(204);
    const page = await bob.get(`/gist/${id}`);
    expect(counted(page.text, 'Unstar')).toEqual({ count: 1 });
    // alice's page, kept for her, counts bob's star too.
    expect(counted((await alice.get(`/gist/${id}`)).text, 'Star')).toEqual({ count: 1 });
    // "Starred gists", reached from the header's menu: one's own list; anyone else's is not found.
    expect(page.text).toContain(`href="${s.url}/gist/bob/starred">Starred gists</a>`);
    const starred = await bob.get('/gist/bob/starred');
    expect(starred.status).toBe(200);
    expect(starred.text).toContain(`href="${s.url}/gist/${id}"><strong>a.md</strong></a>`);
    expect((await alice.get('/gist/bob/starred')).status).toBe(404);
    expect((await new WebClient(s.url).get('/gist/bob/starred')).status).toBe(404);
    expect((await bob.post(`/gist/${id}/unstar`, {})).status).toBe(303);
    expect((await bob.get('/gist/bob/starred')).text).toContain('You have not starred any gists yet.');
    expect((await s.api('GET', `/gists/${id}/star`, { token: bobToken })).status).toBe(404);
    expect(counted((await bob.get(`/gist/${id}`)).text, 'Star')).toEqual({ count: 0 });
  });

  it('forks as another person (on to the fork) and refuses one’s own gist with a page', async () => {
    await bob.get(`/gist/${id}`);
    const r = await bob.post(`/gist/${id}/fork`, {});
    expect(r.status).toBe(303);
    const forkId = /\/gist\/([0-9a-f]{32})$/.exec(r.location)?.[1];
    const fork = await s.api('GET', `/gists/${forkId}`, { token });
    expect(fork.body.owner.login).toBe('bob');
    expect(fork.body.fork_of.id).toBe(id);
    expect(counted((await carol.get(`/gist/${id}`)).text, 'Fork')).toEqual({ count: 1 });
    await alice.get(`/gist/${id}`);
    const own = await alice.post(`/gist/${id}/fork`, {});
    expect(own.status).toBe(422);
    expect(own.text).toContain('You cannot fork your own gist');
  });
});

describe('comments', () => {
  let commentId: string;

  it('"Comment" adds one rendered from Markdown, sanitized, and lands on it', async () => {
    await bob.get(`/gist/${id}`);
    const r = await bob.post(`/gist/${id}/comments`, {
      body: 'Nice **work**\r\n\r\n<script>alert(1)</script><img src=x onerror=alert(2)>',
    });
    expect(r.status).toBe(303);
    commentId = /#gistcomment-(\d+)$/.exec(r.location)?.[1] ?? '';
    expect(r.location).toBe(`${s.url}/gist/${id}#gistcomment-${commentId}`);
    const api = await s.api('GET', `/gists/${id}/comments`, { token });
    expect(api.body.map((c: any) => c.body)).toEqual(['Nice **work**\n\n<script>alert(1)</script><img src=x onerror=alert(2)>']);
    const page = await carol.get(`/gist/${id}`);
    expect(page.text).toContain(`id="gistcomment-${commentId}"`);
    expect(page.text).toContain('Nice <strong>work</strong>');
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).not.toMatch(/onerror/i);
    expect(page.text).toContain('1 comment');
    const visitor = await new WebClient(s.url).get(`/gist/${id}`);
    expect(visitor.text).toContain('Nice <strong>work</strong>');
    expect(visitor.text).toContain('to leave a comment');
    expect(visitor.text).not.toContain('Leave a comment');
  });

  it('brings a blank comment back with its error, tied to the field', async () => {
    await carol.get(`/gist/${id}`);
    const r = await carol.post(`/gist/${id}/comments`, { body: '   ' });
    expect(r.status).toBe(422);
    expect(r.text).toMatch(/id="new-comment"[^>]*aria-describedby="new-comment-error"/);
    expect(r.text).toMatch(/id="new-comment-error">[^<]+</);
    expect((await s.api('GET', `/gists/${id}/comments`, { token })).body).toHaveLength(1);
  });

  it('lets its author alone edit it ("Update comment")', async () => {
    expect((await carol.get(`/gist/${id}/comments/${commentId}/edit`)).status).toBe(404);
    expect((await alice.get(`/gist/${id}/comments/${commentId}/edit`)).status).toBe(404);
    await carol.get(`/gist/${id}`);
    expect((await carol.post(`/gist/${id}/comments/${commentId}`, { body: 'hijacked' })).status).toBe(404);
    const form = await bob.get(`/gist/${id}/comments/${commentId}/edit`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('Update comment');
    expect(form.text).toContain('Nice **work**');
    const r = await bob.post(`/gist/${id}/comments/${commentId}`, { body: 'Nice work, edited' });
    expect(r.status).toBe(303);
    const api = await s.api('GET', `/gists/${id}/comments`, { token });
    expect(api.body.map((c: any) => c.body)).toEqual(['Nice work, edited']);
    const bobPage = await bob.get(`/gist/${id}`);
    expect(bobPage.text).toContain(`/comments/${commentId}/edit">Edit</a>`);
    expect((await alice.get(`/gist/${id}`)).text).not.toContain(`/comments/${commentId}/edit">Edit</a>`);
  });

  it('lets the gist’s owner delete it after a confirmation page, and no one else', async () => {
    expect((await carol.get(`/gist/${id}/comments/${commentId}/delete`)).status).toBe(404);
    await carol.get(`/gist/${id}`);
    expect((await carol.post(`/gist/${id}/comments/${commentId}/delete`, {})).status).toBe(404);
    const confirm = await alice.get(`/gist/${id}/comments/${commentId}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Are you sure you want to delete bob’s comment?');
    const r = await alice.post(`/gist/${id}/comments/${commentId}/delete`, {});
    expect(r.status).toBe(303);
    expect((await s.api('GET', `/gists/${id}/comments`, { token })).body).toEqual([]);
  });
});
