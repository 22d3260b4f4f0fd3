// The gist write plans on their own (src/gists/plan.ts, pure): what a create or an update changes — names kept, changed,
// added, removed, where each file's bytes and blob come from, the rows that go — and the 422s of a body, with no server.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../src/core/errors.js';
import type { Received } from '../../src/gists/parse.js';
import { planCreate, planUpdate, revisionOf, treeChange, type CurrentFile, type FilesPlan } from '../../src/gists/plan.js';
import { createBody, updateBody, type CreateBody, type UpdateBody } from '../../src/gists/schemas.js';
import { createValidatorCompiler } from '../../src/http/validation.js';

const limits = { maxFiles: 5, maxFileBytes: 100, maxDescription: 20 };

const compile = createValidatorCompiler();
/** A body with its schema's failures, as a route hands it on (parse.ts `received`). */
function judged<T>(schema: object, body: unknown): Received<T> {
  const validate = compile({ schema, httpPart: 'body', method: 'POST', url: '/' });
  return { body: body as T, schemaErrors: validate(body) ? [] : (validate.errors ?? []) };
}
const create = (body: unknown) => judged<CreateBody>(createBody, body);
const update = (body: unknown) => judged<UpdateBody>(updateBody, body);

/** The blob id git gives these bytes. */
const blobId = (text: string) =>
  crypto
    .createHash('sha1')
    .update(`blob ${Buffer.byteLength(text)}\0${text}`)
    .digest('hex');

function gist(files: Record<string, string>, description = 'd'): { description: string; files: CurrentFile[] } {
  return {
    description,
    files: Object.entries(files).map(([filename, text]) => ({ filename, content: Buffer.from(text), blob_sha: blobId(text) })),
  };
}

/** A plan's files as text: name, what happens to it, where it comes from, its blob (or `new`). */
function files(plan: FilesPlan | undefined) {
  return plan?.files.map((f) => ({ name: f.filename, text: f.content.toString(), change: f.change, from: f.from, blob: f.blob ?? 'new' }));
}

/** The 422's errors a plan throws. */
function refusal(plan: () => unknown): unknown[] {
  try {
    plan();
  } catch (err) {
    if (err instanceof ValidationFailed) return (err.body().errors as unknown[]) ?? [];
    throw err;
  }
  throw new Error('the plan was not refused');
}

const current = gist({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
const [A, B] = [blobId('a\n'), blobId('b\n')];

describe('planCreate', () => {
  it('adds every file as new bytes, in git’s order of names, with the description and visibility', () => {
    const plan = planCreate(
      create({ description: 'x', public: 'true', files: { 'b.md': { content: '# b' }, 'a.txt': { content: 'a' } } }),
      limits,
    );
    expect(plan).toMatchObject({ description: 'x', public: true, files: { before: [], removed: [], gone: [] } });
    expect(files(plan.files)).toEqual([
      { name: 'a.txt', text: 'a', change: 'added', from: null, blob: 'new' },
      { name: 'b.md', text: '# b', change: 'added', from: null, blob: 'new' },
    ]);
  });

  it('names unnamed files with the next free automatic names, after the named ones', () => {
    const plan = planCreate(
      create({ files: { '': { content: 'one' }, 'gistfile1.txt': { content: 'taken' }, ' ': { content: 'two' } } }),
      limits,
    );
    expect(plan).toMatchObject({ description: '', public: false });
    expect(plan.files.files.map((f) => [f.filename, f.content.toString()])).toEqual([
      ['gistfile1.txt', 'taken'],
      ['gistfile2.txt', 'one'],
      ['gistfile3.txt', 'two'],
    ]);
  });

  it('refuses with every problem of the body at once, in its order', () => {
    expect(
      refusal(() =>
        planCreate(
          create({ description: 'x'.repeat(21), public: 'yes', files: { 'a.txt': 'x', 'b.txt': {}, 'c.txt': { content: ' ' } } }),
          limits,
        ),
      ),
    ).toEqual([
      { resource: 'Gist', field: 'description', code: 'invalid', message: 'description is too long (maximum is 20 characters)' },
      { resource: 'Gist', field: 'public', code: 'invalid', message: 'public must be true or false' },
      { resource: 'Gist', field: 'files', code: 'invalid', message: 'files.a.txt must be an object with a content string' },
      { resource: 'Gist', field: 'files', code: 'missing_field', message: 'files.b.txt.content is required and must be a string' },
      { resource: 'Gist', field: 'files', code: 'missing_field', message: 'contents of "c.txt" can\'t be blank' },
    ]);
    expect(refusal(() => planCreate(create({ files: {} }), limits))).toEqual([
      { resource: 'Gist', field: 'files', code: 'missing_field', message: 'files cannot be empty' },
    ]);
  });

  it('refuses names and sizes by rules.ts, automatic names aside', () => {
    const many = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((n) => [n, { content: n }]));
    expect(refusal(() => planCreate(create({ files: many }), limits))).toEqual([
      { resource: 'Gist', field: 'files', code: 'invalid', message: 'a gist can hold at most 5 files' },
    ]);
    expect(
      refusal(() => planCreate(create({ files: { 'd/a.txt': { content: 'x' }, 'big.txt': { content: 'x'.repeat(101) } } }), limits)),
    ).toEqual([
      {
        resource: 'Gist',
        field: 'files',
        code: 'invalid',
        message: '"d/a.txt": file names cannot contain slashes (gists have no directories)',
      },
      { resource: 'Gist', field: 'files', code: 'invalid', message: '"big.txt" is larger than the limit of 100 bytes for a gist file' },
    ]);
  });
});

describe('planUpdate', () => {
  it('adds a file: new bytes under a new name, the others kept with their blobs, no row goes', () => {
    const plan = planUpdate(update({ files: { 'c.txt': { content: 'c\n' } } }), current, limits);
    expect(plan.description).toBeUndefined();
    expect(files(plan.files)).toEqual([
      { name: 'a.txt', text: 'a\n', change: 'kept', from: 'a.txt', blob: A },
      { name: 'b.txt', text: 'b\n', change: 'kept', from: 'b.txt', blob: B },
      { name: 'c.txt', text: 'c\n', change: 'added', from: null, blob: 'new' },
    ]);
    expect(plan.files).toMatchObject({ removed: [], gone: [] });
  });

  it('changes a file: new bytes under its name, whose row goes', () => {
    const plan = planUpdate(update({ files: { 'b.txt': { content: 'B\n' } } }), current, limits);
    expect(files(plan.files)?.[1]).toEqual({ name: 'b.txt', text: 'B\n', change: 'changed', from: 'b.txt', blob: 'new' });
    expect(plan.files).toMatchObject({ removed: [], gone: ['b.txt'] });
  });

  it('renames a file: its blob under the new name, nothing new to write', () => {
    const plan = planUpdate(update({ files: { 'a.txt': { filename: 'z.txt' } } }), current, limits);
    expect(files(plan.files)).toEqual([
      { name: 'b.txt', text: 'b\n', change: 'kept', from: 'b.txt', blob: B },
      { name: 'z.txt', text: 'a\n', change: 'added', from: 'a.txt', blob: A },
    ]);
    expect(plan.files).toMatchObject({ removed: ['a.txt'], gone: ['a.txt'] });
  });

  it('renames and changes a file: new bytes under the new name', () => {
    const plan = planUpdate(update({ files: { 'a.txt': { filename: 'z.txt', content: 'z\n' } } }), current, limits);
    expect(files(plan.files)?.[1]).toEqual({ name: 'z.txt', text: 'z\n', change: 'added', from: 'a.txt', blob: 'new' });
    expect(plan.files).toMatchObject({ removed: ['a.txt'], gone: ['a.txt'] });
  });

  it('removes a file for null, an object with neither content nor filename, or empty content', () => {
    for (const value of [null, {}, { content: '' }, { content: null, filename: null }]) {
      const plan = planUpdate(update({ files: { 'b.txt': value } }), current, limits);
      expect(files(plan.files), JSON.stringify(value)).toEqual([{ name: 'a.txt', text: 'a\n', change: 'kept', from: 'a.txt', blob: A }]);
      expect(plan.files).toMatchObject({ removed: ['b.txt'], gone: ['b.txt'] });
    }
  });

  it('plans no revision for an update that changes no file (same bytes, a rename onto itself)', () => {
    expect(planUpdate(update({ files: { 'a.txt': { content: 'a\n' }, 'b.txt': { filename: 'b.txt' } } }), current, limits)).toEqual({});
    expect(planUpdate(update({ description: 'd', files: {} }), current, limits)).toEqual({});
  });

  it('changes the description alone, and only when it differs (null reads as empty)', () => {
    expect(planUpdate(update({ description: 'new' }), current, limits)).toEqual({ description: 'new' });
    expect(planUpdate(update({ description: 'd' }), current, limits)).toEqual({});
    expect(planUpdate(update({ description: null, files: null }), current, limits)).toEqual({ description: '' });
    const both = planUpdate(update({ description: 'new', files: { 'a.txt': null } }), current, limits);
    expect(both.description).toBe('new');
    expect(both.files?.removed).toEqual(['a.txt']);
  });

  it('renames a file onto a name removed in the same update: that name changes to the moved blob', () => {
    const plan = planUpdate(update({ files: { 'a.txt': { filename: 'b.txt' }, 'b.txt': null } }), current, limits);
    expect(files(plan.files)).toEqual([{ name: 'b.txt', text: 'a\n', change: 'changed', from: 'a.txt', blob: A }]);
    expect(plan.files).toMatchObject({ removed: ['a.txt'], gone: ['a.txt', 'b.txt'] });
    // Onto a file with the same bytes: that name's row stays.
    const twins = planUpdate(
      update({ files: { 'a.txt': { filename: 'b.txt' }, 'b.txt': null } }),
      gist({ 'a.txt': 'x', 'b.txt': 'x' }),
      limits,
    );
    expect(files(twins.files)).toEqual([{ name: 'b.txt', text: 'x', change: 'kept', from: 'a.txt', blob: blobId('x') }]);
    expect(twins.files).toMatchObject({ removed: ['a.txt'], gone: ['a.txt'] });
  });

  it('swaps two names: both change, their blobs moved, nothing removed or written', () => {
    const plan = planUpdate(update({ files: { 'a.txt': { filename: 'b.txt' }, 'b.txt': { filename: 'a.txt' } } }), current, limits);
    expect(files(plan.files)).toEqual([
      { name: 'a.txt', text: 'b\n', change: 'changed', from: 'b.txt', blob: B },
      { name: 'b.txt', text: 'a\n', change: 'changed', from: 'a.txt', blob: A },
    ]);
    expect(plan.files).toMatchObject({ removed: [], gone: ['a.txt', 'b.txt'] });
  });

  it('refuses a rename onto a name that stays', () => {
    expect(refusal(() => planUpdate(update({ files: { 'a.txt': { filename: 'b.txt' } } }), current, limits))).toEqual([
      { resource: 'Gist', field: 'files', code: 'already_exists', message: 'a file named "b.txt" already exists in this gist' },
    ]);
  });

  it('gives a new unnamed file the next free automatic name; names the gist keeps are not checked again', () => {
    const plan = planUpdate(update({ files: { ' ': { content: 'new\n' } } }), gist({ 'gistfile1.txt': 'x', 'a/b': 'pushed' }), limits);
    expect(files(plan.files)?.map((f) => [f.name, f.change])).toEqual([
      ['a/b', 'kept'],
      ['gistfile1.txt', 'kept'],
      ['gistfile2.txt', 'added'],
    ]);
  });

  it('refuses with every problem of the body at once, in its order', () => {
    const body = {
      description: 'x'.repeat(21),
      files: { 'a.txt': 'x', 'b.txt': { content: 3 }, 'c.txt': null, 'd.txt': { filename: 'e.txt' }, 'e.txt': { content: '  ' } },
    };
    expect(refusal(() => planUpdate(update(body), current, limits))).toEqual([
      { resource: 'Gist', field: 'description', code: 'invalid', message: 'description is too long (maximum is 20 characters)' },
      { resource: 'Gist', field: 'files', code: 'invalid', message: 'files.a.txt must be an object or null' },
      { resource: 'Gist', field: 'files', code: 'invalid', message: 'files.b.txt.content must be a string' },
      { resource: 'Gist', field: 'files', code: 'missing', message: '"c.txt" is not a file of this gist' },
      { resource: 'Gist', field: 'files', code: 'missing', message: '"d.txt" is not a file of this gist' },
      { resource: 'Gist', field: 'files', code: 'missing_field', message: 'contents of "e.txt" can\'t be blank' },
    ]);
    // A field of the wrong type is the body's one problem (the route answers it before looking the gist up).
    expect(refusal(() => planUpdate(update({ ...body, description: 5 }), current, limits))).toEqual([
      { resource: 'Gist', field: 'description', code: 'invalid', message: 'description must be string,null' },
    ]);
    expect(refusal(() => planUpdate(update({}), current, limits))).toEqual([
      { resource: 'Gist', field: 'files', code: 'missing_field', message: 'an update needs a description or files' },
    ]);
    expect(refusal(() => planUpdate(update({ files: { 'a.txt': { filename: ' ' } } }), current, limits))[0]).toMatchObject({
      message: 'files.a.txt.filename cannot be blank',
    });
    expect(refusal(() => planUpdate(update({ files: { 'a.txt': null, 'b.txt': null } }), current, limits))).toEqual([
      { resource: 'Gist', field: 'files', code: 'missing_field', message: 'a gist needs at least one file' },
    ]);
  });

  it('checks the whole next set against the limits, also when nothing changes', () => {
    expect(refusal(() => planUpdate(update({ files: {} }), gist({ 'big.txt': 'x'.repeat(101) }), limits))).toEqual([
      { resource: 'Gist', field: 'files', code: 'invalid', message: '"big.txt" is larger than the limit of 100 bytes for a gist file' },
    ]);
  });
});

describe('revisionOf', () => {
  it('gives the new bytes their written blob ids, in the plan’s order, and keeps the others', () => {
    const plan = planUpdate(update({ files: { 'c.txt': { content: 'c\n' }, 'b.txt': { content: 'B\n' } } }), current, limits).files!;
    const revision = revisionOf(plan, ['id-of-B', 'id-of-c']);
    expect(revision.files.map((f) => [f.filename, f.blob])).toEqual([
      ['a.txt', A],
      ['b.txt', 'id-of-B'],
      ['c.txt', 'id-of-c'],
    ]);
    expect(revision.change).toEqual({ additions: 2, deletions: 1, total: 3 });
  });

  it('counts the lines of a new gist, and none for a rename', () => {
    expect(
      revisionOf(planCreate(create({ files: { 'a.txt': { content: '1\n2\n' }, 'b.txt': { content: '3' } } }), limits).files, ['x', 'y'])
        .change,
    ).toEqual({ additions: 3, deletions: 0, total: 3 });
    const renamed = planUpdate(update({ files: { 'a.txt': { filename: 'z.txt' } } }), current, limits).files!;
    expect(revisionOf(renamed, []).change).toEqual({ additions: 0, deletions: 0, total: 0 });
  });

  it('counts a file deleted and sent again under another name as a rename once its blob id is known', () => {
    const plan = planUpdate(update({ files: { 'a.txt': null, 'c.txt': { content: 'a\n' } } }), current, limits).files!;
    expect(files(plan)?.[1]).toMatchObject({ name: 'c.txt', change: 'added', blob: 'new' });
    expect(revisionOf(plan, [A]).change).toEqual({ additions: 0, deletions: 0, total: 0 });
    expect(revisionOf(plan, [blobId('other')]).change).toEqual({ additions: 1, deletions: 1, total: 2 });
  });
});

describe('treeChange', () => {
  it('replaces the rows of names gone or holding another blob, by blob id', () => {
    const row = (filename: string, blob_sha: string) => ({
      gist_id: 'g',
      filename,
      content: Buffer.from(''),
      size: 0,
      blob_sha,
      language: null,
      type: 'text/plain',
      binary: 0,
    });
    const before = [row('a', '1'), row('b', '2'), row('c', '3')];
    const next = [row('a', '1'), row('b', '9'), row('d', '4')];
    expect(treeChange(before, next)).toEqual({ gone: ['b', 'c'], rows: [next[1], next[2]] });
  });
});
