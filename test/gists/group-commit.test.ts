// Group commit (src/gists/group-commit.ts): concurrent creates and updates of different gists share transactions and
// all land, each with its files, revision and search document; updates of one gist keep their order and every
// revision; a write that fails inside a shared batch fails alone, the others are written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitRevision } from '../../src/gists/group-commit.js';
import { countQueries } from '../helpers/query-count.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let token: string;
let userId: number;
beforeAll(async () => {
  s = await startServer({ config: { rateLimitAuthenticated: 100_000 } });
  const u = await s.userWithToken('gia', ['gist']);
  token = u.token;
  userId = u.id;
});
afterAll(() => s.close());

const create = (i: number) =>
  s.api('POST', '/gists', {
    token,
    body: { public: true, description: `batch ${i}`, files: { [`f${i}.txt`]: { content: `zebu${i} words\n` } } },
  });

describe('gist writes committed together', () => {
  it('lands every one of 30 concurrent creates and 30 concurrent updates, in fewer statements than one by one', async () => {
    let created: { status: number; body: any }[] = [];
    const statements = await countQueries(s, async () => {
      created = await Promise.all(Array.from({ length: 30 }, (_, i) => create(i)));
    });
    expect(created.map((r) => r.status)).toEqual(Array(30).fill(201));
    // Alone, a create runs 11 (PostgreSQL) to 13 (SQLite) statements, its writes and the reads of its answer; shared, the
    // writes of a batch take a few statements for all of them.
    expect(statements).toBeLessThan(30 * 8);

    const updated = await Promise.all(
      created.map((r, i) => s.api('PATCH', `/gists/${r.body.id}`, { token, body: { files: { [`f${i}.txt`]: { content: `yak${i}\n` } } } })),
    );
    expect(updated.map((r) => r.status)).toEqual(Array(30).fill(200));
    for (const [i, r] of created.entries()) {
      const gist = (await s.api('GET', `/gists/${r.body.id}`)).body;
      expect(gist.files[`f${i}.txt`].content).toBe(`yak${i}\n`);
      expect(gist.history.map((h: { version: string }) => h.version)).toEqual([
        updated[i].body.history[0].version,
        r.body.history[0].version,
      ]);
    }
    const found = await s.api('GET', '/search/gists?q=yak7');
    expect(found.body.items.map((g: { id: string }) => g.id)).toEqual([created[7].body.id]);
  });

  it('keeps every one of 12 concurrent updates of one gist, in the order they were applied', async () => {
    const id = (await create(100)).body.id;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        s.api('PATCH', `/gists/${id}`, { token, body: { files: { [`n${i}.txt`]: { content: `${i}\n` } } } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    const gist = (await s.api('GET', `/gists/${id}`)).body;
    expect(Object.keys(gist.files).sort()).toEqual(['f100.txt', ...Array.from({ length: 12 }, (_, i) => `n${i}.txt`)].sort());
    const history = (await s.api('GET', `/gists/${id}/commits?per_page=100`)).body;
    expect(history).toHaveLength(13);
    // Each revision adds one file to the one before it: the history is a chain, newest first, nothing lost between.
    const sizes = history.map((c: { change_status: { additions: number } }) => c.change_status.additions);
    expect(sizes.slice(0, 12)).toEqual(Array(12).fill(1));
  });

  it('fails only the write that fails when it shares a batch with others', async () => {
    const at = new Date().toISOString();
    const write = (id: string, fails: boolean) =>
      commitRevision(s.db, {
        gistId: id,
        claim: {
          insert: {
            id,
            owner_id: userId,
            description: id,
            public: 1,
            fork_of: null,
            head_sha: 'a'.repeat(40),
            comments: 0,
            created_at: at,
            updated_at: at,
          },
          alsoRecord: async () => {
            if (fails) throw new Error('this write fails');
          },
        },
        gone: [],
        rows: [],
        revision: { gist_id: id, version: 'a'.repeat(40), user_id: userId, committed_at: at, additions: 0, deletions: 0, total: 0 },
        first: true,
      });
    const outcomes = await Promise.allSettled([write('okfirst00001', false), write('badwrite0001', true), write('oklast000001', false)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('this write fails');
    const rows = await s.db.selectFrom('gists').select('id').where('id', 'in', ['okfirst00001', 'badwrite0001', 'oklast000001']).execute();
    expect(rows.map((r) => r.id).sort()).toEqual(['okfirst00001', 'oklast000001']);
    const revisions = await s.db
      .selectFrom('gist_revisions')
      .select('gist_id')
      .where('gist_id', 'in', ['okfirst00001', 'oklast000001'])
      .execute();
    expect(revisions).toHaveLength(2);
  });

  it('moves a head only from where it is, once: a stale move and a second move of the same gist in a batch are not claimed', async () => {
    const id = (await create(200)).body.id;
    const head = (await s.db.selectFrom('gists').select('head_sha').where('id', '=', id).executeTakeFirstOrThrow()).head_sha;
    const at = new Date().toISOString();
    const move = (from: string, to: string) =>
      commitRevision(s.db, {
        gistId: id,
        claim: { move: { id, from, changes: { head_sha: to, description: `moved to ${to[0]}`, updated_at: at } } },
        gone: [],
        rows: [],
        revision: { gist_id: id, version: to, user_id: userId, committed_at: at, additions: 0, deletions: 0, total: 0 },
        first: false,
      });
    // Three at once share one batch: the first from the real head wins, the same move again and a stale one do not.
    const outcomes = await Promise.all([move(head, 'b'.repeat(40)), move(head, 'c'.repeat(40)), move('d'.repeat(40), 'e'.repeat(40))]);
    expect(outcomes).toEqual([true, false, false]);
    const row = await s.db.selectFrom('gists').select(['head_sha', 'description']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ head_sha: 'b'.repeat(40), description: 'moved to b' });
    const versions = await s.db.selectFrom('gist_revisions').select('version').where('gist_id', '=', id).orderBy('position').execute();
    expect(versions.map((v) => v.version)).toEqual([head, 'b'.repeat(40)]);
  });
});

describe('the answer to a write', () => {
  it('to a create is byte for byte the gist as read back, built from what was written', async () => {
    const body = {
      public: false,
      description: 'read back',
      files: {
        'z.py': { content: 'print(1)\n' },
        'A.md': { content: '# a\n' },
        'b.txt': { content: 'b' },
        'img.bin': { content: '\u0000\u0001' },
      },
    };
    const created = await s.api('POST', '/gists', { token, body });
    expect(created.status).toBe(201);
    const read = await s.api('GET', `/gists/${created.body.id}`, { token });
    expect(created.text).toBe(read.text);
    expect(created.headers.get('last-modified')).toBe(read.headers.get('last-modified'));
  });

  it('to an update is byte for byte the gist as read back: a change, a rename, a deletion, a description alone', async () => {
    const body = { public: true, files: { 'a.txt': { content: 'a' }, 'b.txt': { content: 'b' }, 'c.txt': { content: 'c' } } };
    const id = (await s.api('POST', '/gists', { token, body })).body.id;
    const updates = [
      { files: { 'a.txt': { content: 'a2' } } },
      { files: { 'b.txt': { filename: 'B.md', content: '# b' }, 'c.txt': null } },
      { files: { 'd.txt': { content: 'new' }, 'a.txt': { filename: 'z.txt' } } },
      { description: 'only the description' },
    ];
    for (const update of updates) {
      const patched = await s.api('PATCH', `/gists/${id}`, { token, body: update });
      expect([update, patched.status]).toEqual([update, 200]);
      const read = await s.api('GET', `/gists/${id}`, { token });
      expect([update, patched.text]).toEqual([update, read.text]);
    }
  });
});
