// GET /gists, /gists/public, /gists/starred, /users/:username/gists: visibility, order, since, paging, the 3000 cap, profile counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; id: number; token: string };
let bob: { login: string; id: number; token: string };
let now = new Date('2026-01-01T00:00:00Z');
const ids: Record<string, string> = {};

async function gistAt(name: string, token: string, isPublic: boolean, at: string): Promise<void> {
  now = new Date(at);
  const r = await s.api('POST', '/gists', {
    token,
    body: { public: isPublic, description: name, files: { [`${name}.txt`]: { content: `${name}\n` } } },
  });
  expect(r.status).toBe(201);
  ids[name] = r.body.id;
}

beforeAll(async () => {
  s = await startServer({ clock: { now: () => now } });
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
  await gistAt('alice-public-1', alice.token, true, '2026-01-02T00:00:00Z');
  await gistAt('alice-secret', alice.token, false, '2026-01-03T00:00:00Z');
  await gistAt('bob-public', bob.token, true, '2026-01-04T00:00:00Z');
  await gistAt('bob-secret', bob.token, false, '2026-01-05T00:00:00Z');
  await gistAt('alice-public-2', alice.token, true, '2026-01-06T00:00:00Z');
  now = new Date('2026-01-10T00:00:00Z');
});
afterAll(async () => s?.close());

const names = (body: any[]) => body.map((g) => g.description);

describe('GET /gists', () => {
  it("lists the caller's own gists, secret ones too, newest updated first, in list form", async () => {
    const r = await s.api('GET', '/gists', { token: alice.token });
    const body = checkSchema(r, 'GET /gists');
    expect(names(body)).toEqual(['alice-public-2', 'alice-secret', 'alice-public-1']);
    const item = body[0];
    expect(item.files['alice-public-2.txt']).toEqual({
      filename: 'alice-public-2.txt',
      type: 'text/plain',
      language: 'Text',
      raw_url: expect.stringContaining(`/gist/alice/${ids['alice-public-2']}/raw/`),
      size: 15,
    });
    for (const key of ['history', 'forks', 'comments_enabled', 'fork_of']) expect(item).not.toHaveProperty(key);
    expect(item).toMatchObject({ user: null, truncated: false, owner: { login: 'alice' }, public: true, comments: 0 });
  });

  it('needs no permission from a fine-grained token to read', async () => {
    const token = await s.createToken('alice', { kind: 'fine_grained', permissions: {} });
    const r = await s.api('GET', '/gists', { token });
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(['alice-public-2', 'alice-secret', 'alice-public-1']);
    expect((await s.api('GET', `/gists/${ids['bob-secret']}`, { token })).status).toBe(200);
  });

  it('lists every public gist when called anonymously', async () => {
    const r = await s.api('GET', '/gists');
    expect(names(checkSchema(r, 'GET /gists'))).toEqual(['alice-public-2', 'bob-public', 'alice-public-1']);
  });

  it('filters on updated_at with since, and refuses a malformed since with 422', async () => {
    const r = await s.api('GET', '/gists?since=2026-01-03T00:00:00Z', { token: alice.token });
    expect(names(r.body)).toEqual(['alice-public-2', 'alice-secret']);
    for (const path of ['/gists', '/gists/public', '/gists/starred', '/users/alice/gists']) {
      for (const since of ['yesterday', '2026-13-45T00:00:00Z', '1', '2026-02-30T00:00:00Z', '2026-01-01T25:00:00Z']) {
        const bad = await s.api('GET', `${path}?since=${since}`, { token: alice.token });
        expect(bad.status, `${path} ${since}`).toBe(422);
        expect(bad.body).toMatchObject({
          message: 'Validation Failed',
          errors: [expect.objectContaining({ resource: 'Gist', field: 'since', code: 'invalid' })],
        });
      }
    }
  });

  it('pages with Link headers and answers 304 when nothing changed', async () => {
    const r = await s.api('GET', '/gists?per_page=2', { token: alice.token });
    expect(names(r.body)).toEqual(['alice-public-2', 'alice-secret']);
    expect(r.headers.get('link')).toBe(`<${s.url}/gists?per_page=2&page=2>; rel="next", <${s.url}/gists?per_page=2&page=2>; rel="last"`);
    const page2 = await s.api('GET', '/gists?per_page=2&page=2', { token: alice.token });
    expect(names(page2.body)).toEqual(['alice-public-1']);
    expect(page2.headers.get('link')).toBe(
      `<${s.url}/gists?per_page=2&page=1>; rel="prev", <${s.url}/gists?per_page=2&page=1>; rel="first"`,
    );
    const again = await s.api('GET', '/gists?per_page=2', { token: alice.token, headers: { 'if-none-match': r.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
});

describe('GET /gists/public', () => {
  it('lists public gists only, newest updated first', async () => {
    const r = await s.api('GET', '/gists/public', { token: bob.token });
    expect(names(checkSchema(r, 'GET /gists/public'))).toEqual(['alice-public-2', 'bob-public', 'alice-public-1']);
    const prefixed = await s.api('GET', '/api/v3/gists/public');
    expect(JSON.parse(prefixed.text.replaceAll(`${s.url}/api/v3/`, `${s.url}/`))).toEqual(r.body);
    expect(prefixed.body[0].url).toBe(`${s.url}/api/v3/gists/${ids['alice-public-2']}`);
  });

  it('puts an updated gist first', async () => {
    now = new Date('2026-01-11T00:00:00Z');
    const r = await s.api('PATCH', `/gists/${ids['alice-public-1']}`, {
      token: alice.token,
      body: { files: { 'alice-public-1.txt': { content: 'changed\n' } } },
    });
    expect(r.status).toBe(200);
    expect(r.body.updated_at).toBe('2026-01-11T00:00:00Z');
    const list = await s.api('GET', '/gists/public');
    expect(names(list.body)).toEqual(['alice-public-1', 'alice-public-2', 'bob-public']);
  });
});

describe('GET /users/:username/gists', () => {
  it('shows another user only the public gists, and the user their own secret ones too', async () => {
    const asBob = await s.api('GET', '/users/alice/gists', { token: bob.token });
    expect(names(checkSchema(asBob, 'GET /users/{username}/gists'))).toEqual(['alice-public-1', 'alice-public-2']);
    expect(names((await s.api('GET', '/users/alice/gists')).body)).toEqual(['alice-public-1', 'alice-public-2']);
    const asAlice = await s.api('GET', '/users/alice/gists', { token: alice.token });
    expect(names(asAlice.body)).toEqual(['alice-public-1', 'alice-public-2', 'alice-secret']);
  });

  it('answers an unknown user with 404', async () => {
    const r = await s.api('GET', '/users/nobody-here/gists');
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('Not Found');
  });

  it('works through Octokit, pages included', async () => {
    const all = await s.octokit().paginate(s.octokit().rest.gists.listForUser, { username: 'alice', per_page: 1 });
    expect(all.map((g) => g.description)).toEqual(['alice-public-1', 'alice-public-2']);
    const mine = await s.octokit(alice.token).rest.gists.list();
    expect(mine.data).toHaveLength(3);
  });
});

describe('GET /gists/starred', () => {
  it('needs a signed-in caller (401)', async () => {
    const r = await s.api('GET', '/gists/starred');
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ message: 'Requires authentication', status: '401' });
  });
});

describe('profile counts', () => {
  it('counts public gists on every profile and secret ones on the own profile only', async () => {
    const pub = await s.api('GET', '/users/alice', { token: bob.token });
    expect(pub.body.public_gists).toBe(2);
    expect(pub.body).not.toHaveProperty('private_gists');
    const own = await s.api('GET', '/user', { token: alice.token });
    expect(own.body).toMatchObject({ public_gists: 2, private_gists: 1 });
    const bobs = await s.api('GET', '/user', { token: bob.token });
    expect(bobs.body).toMatchObject({ public_gists: 1, private_gists: 1 });
  });
});

describe('the public listing depth', () => {
  it('refuses pages past 3000 gists with 422 and GitHub’s message', async () => {
    for (const q of ['per_page=100&page=31', 'per_page=30&page=101', 'per_page=1&page=3001']) {
      const r = await s.api('GET', `/gists/public?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.message).toMatch(/^In order to keep the API fast for everyone, pagination is limited for this resource\./);
      checkSchema(r, 'GET /gists/public');
    }
    expect((await s.api('GET', '/gists?per_page=100&page=31')).status).toBe(422);
  });

  it('stops at 3000 gists: the last page ends there and links no further', async () => {
    // 3000 more public gists, written straight into the table (creating them over HTTP would only make this slow).
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: `b${String(i).padStart(31, '0')}`,
      owner_id: bob.id,
      description: `bulk-${i}`,
      public: 1,
      fork_of: null,
      head_sha: '0'.repeat(40),
      comments: 0,
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: `2025-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await s.db
        .insertInto('gists')
        .values(rows.slice(i, i + 200))
        .execute();

    const first = await s.api('GET', '/gists/public?per_page=100');
    expect(first.body).toHaveLength(100);
    expect(first.headers.get('link')).toContain(`<${s.url}/gists/public?per_page=100&page=30>; rel="last"`);
    const last = await s.api('GET', '/gists/public?per_page=100&page=30');
    expect(last.status).toBe(200);
    expect(last.body).toHaveLength(100);
    expect(last.headers.get('link')).not.toContain('rel="next"');
    const odd = await s.api('GET', '/gists/public?per_page=7&page=429');
    expect(odd.body).toHaveLength(3000 - 7 * 428);
  });
});
