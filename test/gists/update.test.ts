// PATCH (and POST) /gists/:gist_id, history, GET /gists/:gist_id/commits, GET /gists/:gist_id/:sha and DELETE.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; token: string };
let bob: { login: string; token: string };

beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice');
  bob = await s.userWithToken('bob');
});
afterAll(async () => s?.close());

async function newGist(files: Record<string, string>, description = 'start'): Promise<any> {
  const r = await s.api('POST', '/gists', {
    token: alice.token,
    body: { description, files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, { content: v }])) },
  });
  expect(r.status).toBe(201);
  return r.body;
}

const patch = (id: string, body: unknown, token = alice.token, headers?: Record<string, string>) =>
  s.api('PATCH', `/gists/${id}`, { token, body, headers });
const contents = (gist: any) => Object.fromEntries(Object.entries(gist.files).map(([k, f]: [string, any]) => [k, f.content]));

describe('PATCH /gists/:gist_id', () => {
  it('changes the description alone without a new revision', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const r = await patch(g.id, { description: 'renamed' });
    const body = checkSchema(r, 'PATCH /gists/{gist_id}');
    expect(body.description).toBe('renamed');
    expect(body.history).toHaveLength(1);
    expect(contents(body)).toEqual({ 'a.txt': 'a\n' });
  });

  it('replaces content as a new revision with real line changes, keeping files it does not name', async () => {
    const g = await newGist({ 'code.txt': 'one\ntwo\nthree\n', 'other.txt': 'stays\n' });
    const r = await patch(g.id, { files: { 'code.txt': { content: 'one\n2\nthree\nfour\n' } } });
    const body = checkSchema(r, 'PATCH /gists/{gist_id}');
    expect(contents(body)).toEqual({ 'code.txt': 'one\n2\nthree\nfour\n', 'other.txt': 'stays\n' });
    expect(body.history).toHaveLength(2);
    expect(body.history[0].change_status).toEqual({ total: 3, additions: 2, deletions: 1 });
    expect(body.history[1].change_status).toEqual({ total: 4, additions: 4, deletions: 0 });
    expect(body.history[0].version).not.toBe(body.history[1].version);
    expect(body.files['other.txt'].raw_url).toBe(g.files['other.txt'].raw_url);
  });

  it('renames with filename (no lines change) and renames while changing content', async () => {
    const g = await newGist({ 'old.txt': 'same\n', 'x.txt': 'x\n' });
    const renamed = await patch(g.id, { files: { 'old.txt': { filename: 'new.md' } } });
    expect(renamed.status).toBe(200);
    expect(contents(renamed.body)).toEqual({ 'new.md': 'same\n', 'x.txt': 'x\n' });
    expect(renamed.body.files['new.md'].language).toBe('Markdown');
    expect(renamed.body.history[0].change_status).toEqual({ total: 0, additions: 0, deletions: 0 });
    const both = await patch(g.id, { files: { 'x.txt': { filename: 'y.txt', content: 'y\n' } } });
    expect(contents(both.body)).toEqual({ 'new.md': 'same\n', 'y.txt': 'y\n' });
    expect(both.body.history).toHaveLength(3);
  });

  it('deletes a file given null, an object with neither content nor filename, or empty content', async () => {
    const g = await newGist({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'd.txt': 'd\n', 'keep.txt': 'k\n' });
    const r = await patch(g.id, { files: { 'a.txt': null, 'b.txt': {}, 'c.txt': { filename: null }, 'd.txt': { content: '' } } });
    expect(r.status).toBe(200);
    expect(contents(r.body)).toEqual({ 'keep.txt': 'k\n' });
    expect(r.body.history[0].change_status).toEqual({ total: 4, additions: 0, deletions: 4 });
  });

  it('adds new files, naming unnamed ones gistfile<N>.txt', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const r = await patch(g.id, { files: { 'new.js': { content: 'let x = 1\n' }, '': { content: 'unnamed\n' } } });
    expect(contents(r.body)).toEqual({ 'a.txt': 'a\n', 'gistfile1.txt': 'unnamed\n', 'new.js': 'let x = 1\n' });
  });

  it('takes explicit gistfile<N> names for new and renamed files; unnamed ones get the next free name', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const r = await patch(g.id, {
      files: { 'a.txt': { filename: 'gistfile1.txt' }, 'gistfile3.txt': { content: 'three\n' }, '': { content: 'unnamed\n' } },
    });
    expect(r.status).toBe(200);
    expect(contents(r.body)).toEqual({ 'gistfile1.txt': 'a\n', 'gistfile2.txt': 'unnamed\n', 'gistfile3.txt': 'three\n' });
  });

  it('leaves the gist alone when the files sent equal the current ones', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const r = await patch(g.id, { files: { 'a.txt': { content: 'a\n' } } });
    expect(r.status).toBe(200);
    expect(r.body.history).toHaveLength(1);
  });

  it('accepts POST as PATCH (the gh CLI edits that way)', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const r = await s.api('POST', `/gists/${g.id}`, {
      token: alice.token,
      body: { description: 'via post', files: { 'a.txt': { content: 'b\n' } } },
    });
    expect(r.status).toBe(200);
    expect(r.body.description).toBe('via post');
    expect(contents(r.body)).toEqual({ 'a.txt': 'b\n' });
  });

  it('answers in base64 when asked', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const r = await patch(g.id, { files: { 'a.txt': { content: 'ünï\n' } } }, alice.token, {
      accept: 'application/vnd.service.base64+json',
    });
    expect(r.body.files['a.txt']).toMatchObject({ encoding: 'base64', content: Buffer.from('ünï\n').toString('base64') });
  });

  describe('refuses', () => {
    let id: string;
    beforeAll(async () => {
      id = (await newGist({ 'a.txt': 'a\n', 'b.txt': 'b\n' })).id;
    });
    const cases: [string, unknown, Record<string, unknown>][] = [
      ['a body with neither description nor files', {}, { field: 'files', code: 'missing_field' }],
      ['no body', undefined, { field: 'files', code: 'missing_field' }],
      ['files: null alone', { files: null }, { field: 'files', code: 'missing_field' }],
      ['renaming onto a file that stays', { files: { 'a.txt': { filename: 'b.txt' } } }, { field: 'files', code: 'already_exists' }],
      ['deleting every file', { files: { 'a.txt': null, 'b.txt': null } }, { field: 'files', code: 'missing_field' }],
      ['deleting a file the gist does not have', { files: { 'nope.txt': null } }, { field: 'files', code: 'missing' }],
      ['renaming a file the gist does not have', { files: { 'nope.txt': { filename: 'x.txt' } } }, { field: 'files', code: 'missing' }],
      ['a new name with a slash', { files: { 'a.txt': { filename: 'd/a.txt' } } }, { field: 'files', code: 'invalid' }],
      ['a rename to a blank name', { files: { 'a.txt': { filename: '  ' } } }, { field: 'files', code: 'invalid' }],
      ['blank content', { files: { 'a.txt': { content: '   ' } } }, { field: 'files', code: 'missing_field' }],
      ['content that is a number', { files: { 'a.txt': { content: 3 } } }, { field: 'files', code: 'invalid' }],
      ['a file value that is a string', { files: { 'a.txt': 'x' } }, { field: 'files', code: 'invalid' }],
      ['a description over 1000 characters', { description: 'x'.repeat(1001) }, { field: 'description', code: 'invalid' }],
      ['a description that is a number', { description: 1 }, { field: 'description', code: 'invalid' }],
    ];
    for (const [name, body, error] of cases) {
      it(name, async () => {
        const r = await patch(id, body);
        expect(r.status).toBe(422);
        expect(r.body).toMatchObject({ message: 'Validation Failed', status: '422' });
        expect(r.body.errors).toContainEqual(expect.objectContaining({ resource: 'Gist', ...error }));
        checkSchema(r, 'PATCH /gists/{gist_id}');
      });
    }
    const e = (field: string, code: string, message?: string) => ({
      resource: 'Gist',
      field,
      code,
      ...(message === undefined ? {} : { message }),
    });
    const notAFile = (key: string) => e('files', 'invalid', `files.${key} must be an object or null`);
    const exactly: [string, unknown, Record<string, unknown>[]][] = [
      ['neither description nor files', { files: null, other: 1 }, [e('files', 'missing_field', 'an update needs a description or files')]],
      ['files that are not an object', { files: ['a.txt'] }, [e('files', 'invalid', 'files must be object,null')]],
      [
        'a file value that is a string, a number, an array',
        { files: { 'a.txt': 'x', 'b/c~1': 5, 'b.txt': [] } },
        [notAFile('a.txt'), notAFile('b/c~1'), notAFile('b.txt')],
      ],
      [
        'content that is not a string',
        { files: { 'a.txt': { content: 3 } } },
        [e('files', 'invalid', 'files.a.txt.content must be a string')],
      ],
      [
        'a filename that is a number',
        { files: { 'a.txt': { filename: 5 } } },
        [e('files', 'invalid', 'files.a.txt.filename must be a string or null')],
      ],
      [
        'content and filename of the wrong types: the content',
        { files: { 'a.txt': { filename: 5, content: 5 } } },
        [e('files', 'invalid', 'files.a.txt.content must be a string')],
      ],
      [
        'a description that is a number',
        { description: 1, files: { 'a.txt': 'x' } },
        [e('description', 'invalid', 'description must be string,null')],
      ],
      ['a description with NUL', { description: 'a\u0000' }, [e('description', 'invalid', 'description cannot contain NUL characters')]],
      [
        'every problem at once, in the body’s order',
        {
          files: { 'nope.txt': null, 'a.txt': 'x', 'b.txt': { content: 3 }, 'c.txt': { filename: 5 }, 'new.txt': { content: ' ' } },
          description: 'x'.repeat(1001),
        },
        [
          e('description', 'invalid', 'description is too long (maximum is 1000 characters)'),
          e('files', 'missing', '"nope.txt" is not a file of this gist'),
          notAFile('a.txt'),
          e('files', 'invalid', 'files.b.txt.content must be a string'),
          e('files', 'invalid', 'files.c.txt.filename must be a string or null'),
          e('files', 'missing_field', 'contents of "new.txt" can\'t be blank'),
        ],
      ],
    ];
    for (const [name, body, errors] of exactly) {
      it(`${name}: exactly`, async () => {
        const r = await patch(id, body);
        expect([r.status, r.body.errors]).toEqual([422, errors]);
        expect((await s.api('POST', `/gists/${id}`, { token: alice.token, body })).body.errors).toEqual(errors);
      });
    }
    it('a body of the wrong types before the gist is looked up; what is wrong inside one after', async () => {
      const unknown = 'f'.repeat(32);
      expect((await patch(unknown, { description: 5, files: { 'a.txt': 5 } })).body.errors).toEqual([
        e('description', 'invalid', 'description must be string,null'),
      ]);
      expect((await patch(unknown, { files: 'x' })).body.errors).toEqual([e('files', 'invalid', 'files must be object,null')]);
      for (const body of [{}, { files: { 'a.txt': 5 } }, { description: 'a\u0000' }]) {
        expect((await patch(unknown, body)).status).toBe(404);
        expect((await patch(id, body, bob.token)).status).toBe(404);
      }
    });
    it('an empty file map changes nothing', async () => {
      expect((await patch(id, { files: {} })).status).toBe(200);
    });
    it('and changed nothing meanwhile', async () => {
      const r = await s.api('GET', `/gists/${id}`);
      expect(contents(r.body)).toEqual({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
      expect(r.body.history).toHaveLength(1);
    });
  });

  it('applies concurrent updates one after another: every change lands as its own revision', async () => {
    const g = await newGist({ 'base.txt': 'base\n' });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => patch(g.id, { files: { [`f${i}.txt`]: { content: `${i}\n` } } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const after = (await s.api('GET', `/gists/${g.id}`)).body;
    expect(Object.keys(after.files)).toEqual(['base.txt', 'f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt', 'f5.txt']);
    expect(after.history).toHaveLength(7);
    expect(new Set(after.history.map((h: any) => h.version)).size).toBe(7);
    expect(after.history.every((h: any) => h.change_status.additions === 1)).toBe(true);
  });

  it('lets only the owner update: 404 for other users, 401 anonymous, 404 without the gist scope', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const other = await patch(g.id, { description: 'mine now' }, bob.token);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ message: 'Not Found', status: '404' });
    expect((await s.api('PATCH', `/gists/${g.id}`, { body: { description: 'x' } })).status).toBe(401);
    const noScope = await s.createToken('alice', { scopes: ['user'] });
    expect((await patch(g.id, { description: 'x' }, noScope)).status).toBe(404);
    expect((await patch('f'.repeat(32), { description: 'x' })).status).toBe(404);
    expect((await s.api('GET', `/gists/${g.id}`)).body.description).toBe('start');
  });
});

describe('history', () => {
  let g: any;
  let v1: string;
  let v2: string;
  let v3: string;
  beforeAll(async () => {
    g = await newGist({ 'poem.txt': 'roses\n' });
    v1 = g.history[0].version;
    v2 = (await patch(g.id, { files: { 'poem.txt': { content: 'roses\nviolets\n' }, 'extra.txt': { content: 'e\n' } } })).body.history[0]
      .version;
    v3 = (await patch(g.id, { files: { 'extra.txt': null } })).body.history[0].version;
  });

  it('GET /gists/:gist_id/commits lists revisions newest first with their line changes', async () => {
    const r = await s.api('GET', `/gists/${g.id}/commits`);
    const commits = checkSchema(r, 'GET /gists/{gist_id}/commits');
    expect(commits.map((c: any) => c.version)).toEqual([v3, v2, v1]);
    expect(commits.map((c: any) => c.change_status)).toEqual([
      { total: 1, additions: 0, deletions: 1 },
      { total: 2, additions: 2, deletions: 0 },
      { total: 1, additions: 1, deletions: 0 },
    ]);
    expect(commits[0]).toMatchObject({
      url: `${s.url}/gists/${g.id}/${v3}`,
      user: { login: 'alice' },
      committed_at: expect.stringMatching(/Z$/),
    });
    const gist = (await s.api('GET', `/gists/${g.id}`)).body;
    expect(gist.history.map((h: any) => h.version)).toEqual([v3, v2, v1]);
  });

  it('pages the commits with Link headers, and answers 304 when unchanged', async () => {
    const first = await s.api('GET', `/gists/${g.id}/commits?per_page=2`);
    expect(first.body).toHaveLength(2);
    expect(first.headers.get('link')).toBe(
      `<${s.url}/gists/${g.id}/commits?per_page=2&page=2>; rel="next", <${s.url}/gists/${g.id}/commits?per_page=2&page=2>; rel="last"`,
    );
    const second = await s.api('GET', `/gists/${g.id}/commits?per_page=2&page=2`);
    expect(second.body.map((c: any) => c.version)).toEqual([v1]);
    const again = await s.api('GET', `/gists/${g.id}/commits?per_page=2`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('GET /gists/:gist_id/:sha shows the gist as it was at that revision', async () => {
    const r = await s.api('GET', `/gists/${g.id}/${v2}`);
    const body = checkSchema(r, 'GET /gists/{gist_id}/{sha}');
    expect(contents(body)).toEqual({ 'extra.txt': 'e\n', 'poem.txt': 'roses\nviolets\n' });
    expect(body.history.map((h: any) => h.version)).toEqual([v2, v1]);
    expect(body.files['extra.txt'].raw_url).toMatch(/\/raw\/[0-9a-f]{40}\/extra\.txt$/);
    const raw = await fetch(body.files['extra.txt'].raw_url);
    expect(await raw.text()).toBe('e\n');
    const first = await s.api('GET', `/gists/${g.id}/${v1.slice(0, 7)}`);
    expect(contents(first.body)).toEqual({ 'poem.txt': 'roses\n' });
    const b64 = await s.api('GET', `/gists/${g.id}/${v1}`, { headers: { accept: 'application/vnd.service.base64+json' } });
    expect(b64.body.files['poem.txt']).toMatchObject({ encoding: 'base64', content: Buffer.from('roses\n').toString('base64') });
  });

  it('answers an unknown revision with 404 and a malformed one with 422', async () => {
    expect((await s.api('GET', `/gists/${g.id}/${'0'.repeat(40)}`)).status).toBe(404);
    const bad = await s.api('GET', `/gists/${g.id}/not-a-sha`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ resource: 'Gist', field: 'sha', code: 'invalid' })]);
    checkSchema(bad, 'GET /gists/{gist_id}/{sha}');
  });

  it('works through Octokit', async () => {
    const octokit = s.octokit(alice.token);
    const commits = await octokit.rest.gists.listCommits({ gist_id: g.id });
    expect(commits.data.map((c) => c.version)).toEqual([v3, v2, v1]);
    const revision = await octokit.rest.gists.getRevision({ gist_id: g.id, sha: v1 });
    expect(revision.data.files!['poem.txt']!.content).toBe('roses\n');
    const updated = await octokit.rest.gists.update({
      gist_id: g.id,
      description: 'octo',
      files: { 'poem.txt': { content: 'roses\nviolets\nblue\n' } },
    });
    expect(updated.data.history![0].change_status).toEqual({ total: 1, additions: 1, deletions: 0 });
  });
});

describe('DELETE /gists/:gist_id', () => {
  it('deletes the gist and its repository; the owner only', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const repo = path.join(s.dataDir, 'git', 'gists', `${g.id}.git`);
    expect(fs.existsSync(path.join(repo, 'HEAD'))).toBe(true);
    expect((await s.api('DELETE', `/gists/${g.id}`, { token: bob.token })).status).toBe(404);
    expect((await s.api('DELETE', `/gists/${g.id}`)).status).toBe(401);
    const r = await s.api('DELETE', `/gists/${g.id}`, { token: alice.token });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(fs.existsSync(repo)).toBe(false);
    expect((await s.api('GET', `/gists/${g.id}`)).status).toBe(404);
    expect((await s.api('GET', new URL(g.files['a.txt'].raw_url).pathname)).status).toBe(404);
    expect((await s.api('DELETE', `/gists/${g.id}`, { token: alice.token })).status).toBe(404);
  });

  it('works through Octokit', async () => {
    const g = await newGist({ 'a.txt': 'a\n' });
    const r = await s.octokit(alice.token).rest.gists.delete({ gist_id: g.id });
    expect(r.status).toBe(204);
  });
});
