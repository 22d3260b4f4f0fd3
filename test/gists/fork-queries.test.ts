// A gist's forks (with their owners' profile counts) cost a fixed number of queries however many forks it has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries } from '../helpers/query-count.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const users: Record<string, { login: string; token: string }> = {};

async function newGist(token: string, isPublic = true): Promise<string> {
  const r = await s.api('POST', '/gists', { token, body: { public: isPublic, files: { 'a.txt': { content: 'a\n' } } } });
  if (r.status !== 201) throw new Error(`setup: ${r.status} ${r.text}`);
  return r.body.id;
}

async function fork(id: string, token: string): Promise<void> {
  const r = await s.api('POST', `/gists/${id}/forks`, { token });
  if (r.status !== 201) throw new Error(`setup: ${r.status} ${r.text}`);
}

let small: string;
let big: string;

beforeAll(async () => {
  s = await startServer({ config: { rateLimitAnonymous: 100_000 } });
  for (const login of ['alice', 'bob', 'carol', 'dave', 'erin']) users[login] = await s.userWithToken(login);
  small = await newGist(users.alice!.token);
  big = await newGist(users.alice!.token);
  await fork(small, users.bob!.token);
  for (const login of ['bob', 'carol', 'dave', 'erin']) await fork(big, users[login]!.token);
  // Counts that differ per fork owner: carol has two more public gists, dave a secret one (not shown to others).
  await newGist(users.carol!.token);
  await newGist(users.carol!.token);
  await newGist(users.dave!.token, false);
});
afterAll(async () => s?.close());

describe('GET /gists/{gist_id} forks', () => {
  it('shows four forks with their owners’ counts in as many queries as one fork', async () => {
    let one: any;
    let four: any;
    const oneCount = await countQueries(s, async () => {
      one = (await s.api('GET', `/gists/${small}`)).body;
    });
    const fourCount = await countQueries(s, async () => {
      four = (await s.api('GET', `/gists/${big}`)).body;
    });
    expect(one.forks.map((f: any) => [f.user.login, f.user.public_gists])).toEqual([['bob', 2]]);
    expect(four.forks.map((f: any) => [f.user.login, f.user.public_gists, f.user.private_gists ?? 0])).toEqual([
      ['bob', 2, 0],
      ['carol', 3, 0],
      ['dave', 1, 0],
      ['erin', 1, 0],
    ]);
    expect(fourCount).toBe(oneCount);
  });
});
