// Gist stars, forks and comments raced over HTTP: one star, one fork, a comment on a vanishing gist a 404; never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let ann: { token: string };
let ben: { token: string };
beforeAll(async () => {
  s = await startServer();
  ann = await s.userWithToken('ann', ['gist']);
  ben = await s.userWithToken('ben', ['gist']);
});
afterAll(async () => s?.close());

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function gistOf(token: string, i: number): Promise<string> {
  const r = await s.api('POST', '/gists', { token, body: { public: true, files: { [`f${i}.txt`]: { content: `gist ${i}\n` } } } });
  if (r.status !== 201) throw new Error(`create gist: ${r.status} ${r.text}`);
  return r.body.id as string;
}

describe('PUT /gists/{gist_id}/star, at the same moment', () => {
  it('answers 204 to every one of several stars at once and keeps one star', async () => {
    const ids = [];
    for (const i of range(6)) ids.push(await gistOf(ann.token, i));
    const results = await Promise.all(ids.flatMap((id) => range(4).map(() => s.api('PUT', `/gists/${id}/star`, { token: ben.token }))));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 204));
    const starred = await s.api('GET', '/gists/starred?per_page=100', { token: ben.token });
    expect(starred.body.map((g: { id: string }) => g.id).sort()).toEqual([...ids].sort());
  });
});

describe('POST /gists/{gist_id}/forks, at the same moment', () => {
  it('makes one fork when the same user forks a gist several times at once; every answer names that fork', async () => {
    for (const i of range(6)) {
      const parent = await gistOf(ann.token, 100 + i);
      const results = await Promise.all(range(3).map(() => s.api('POST', `/gists/${parent}/forks`, { token: ben.token })));
      expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
      expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
      const forks = await s.api('GET', `/gists/${parent}/forks`, { token: ben.token });
      expect(forks.body.map((f: { id: string }) => f.id)).toEqual([results[0].body.id]);
      const raw = await s.api('GET', `/gists/${results[0].body.id}`, { token: ben.token });
      expect(raw.body.files[`f${100 + i}.txt`].content).toBe(`gist ${100 + i}\n`);
    }
  });
});

describe('POST /gists/{gist_id}/comments while the gist is deleted', () => {
  it('answers 201 or 404 to a comment racing the deletion of its gist, never a 500', async () => {
    for (const i of range(20)) {
      const id = await gistOf(ann.token, 200 + i);
      const [comments, deleted] = await Promise.all([
        Promise.all(range(3).map(() => s.api('POST', `/gists/${id}/comments`, { token: ben.token, body: { body: 'late' } }))),
        s.api('DELETE', `/gists/${id}`, { token: ann.token }),
      ]);
      expect(deleted.status).toBe(204);
      for (const c of comments) {
        expect([201, 404], c.text).toContain(c.status);
        if (c.status === 404) expect(c.body).toMatchObject({ message: 'Not Found' });
      }
      expect((await s.api('GET', `/gists/${id}/comments`, { token: ben.token })).status).toBe(404);
    }
  });
});
