// Writing gists in the browser's forms, signed in (over fetch, as a browser posts them): the new-gist form with "Add
// file" as a round trip, "Create secret gist" / "Create public gist", the API's refusals next to the field they concern
// with what was typed kept, the edit form (change, rename, add, delete a file; a new revision each time), delete after
// a confirmation page; nobody else may open another's edit or delete page. What the API then answers is the proof.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const PASSWORD = 'correct horse battery staple 42';
let s: TestServer;
let alice: WebClient;
let bob: WebClient;
let aliceToken: string;

beforeAll(async () => {
  s = await startServer();
  await s.createUser('alice', { password: PASSWORD });
  await s.createUser('bob', { password: PASSWORD });
  aliceToken = await s.createToken('alice', { scopes: ['gist'] });
  alice = new WebClient(s.url);
  bob = new WebClient(s.url);
  expect((await alice.signIn('alice', PASSWORD)).status).toBe(303);
  expect((await bob.signIn('bob', PASSWORD)).status).toBe(303);
}, 60_000);
afterAll(() => s?.close());

const gistIdOf = (location: string) => /\/gist\/([0-9a-f]{32})$/.exec(location)?.[1] ?? '';

/** The text of the element with this id (its error, say), or undefined. */
function textOf(page: string, id: string): string | undefined {
  return new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(page)?.[1];
}

async function apiGist(id: string) {
  const r = await s.api('GET', `/gists/${id}`, { token: aliceToken });
  return r;
}

async function newGist(fields: Record<string, string | string[]>) {
  await alice.get('/gist/new');
  return alice.post('/gist', fields);
}

describe('the new-gist form', () => {
  it('sends a visitor to sign in, and shows a signed-in person the form in GitHub words', async () => {
    const visitor = new WebClient(s.url);
    const r = await visitor.get('/gist/new');
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${s.url}/login?return_to=%2Fgist%2Fnew`);
    const form = await alice.get('/gist/new');
    expect(form.status).toBe(200);
    for (const words of ['Gist description', 'Filename including extension', 'Add file', 'Create secret gist', 'Create public gist'])
      expect(form.text).toContain(words);
    expect(form.text).toMatch(/name="authenticity_token" value="[^"]+"/);
  });

  it('"Add file" brings the form back with one more empty file and everything typed kept', async () => {
    const r = await newGist({
      description: 'Two <b>files</b>',
      file_name: ['a.txt'],
      file_content: ['first\r\nline'],
      file_original: [''],
      add_file: '1',
    });
    expect(r.status).toBe(200);
    expect(r.text.match(/name="file_name"/g)).toHaveLength(2);
    expect(r.text).toContain('value="Two &lt;b&gt;files&lt;/b&gt;"');
    expect(r.text).toContain('value="a.txt"');
    expect(r.text).toContain('>\nfirst\nline</textarea>');
    expect(await s.db.selectFrom('gists').select('id').execute()).toEqual([]);
  });

  it('creates a secret gist with two files, stored with LF line breaks as typed', async () => {
    const r = await newGist({
      description: 'Sorting',
      file_name: ['sort.py', 'README.md'],
      file_content: ['def sort(x):\r\n    return sorted(x)\r\n', '\n# Title\r\n'],
      file_original: ['', ''],
      visibility: 'secret',
    });
    expect(r.status).toBe(303);
    const id = gistIdOf(r.location);
    const g = await apiGist(id);
    expect(g.status).toBe(200);
    expect(g.body.public).toBe(false);
    expect(g.body.description).toBe('Sorting');
    expect(g.body.files['sort.py'].content).toBe('def sort(x):\n    return sorted(x)\n');
    expect(g.body.files['README.md'].content).toBe('\n# Title\n');
  });

  it('"Create public gist" makes a public one; a file without a name gets an automatic one', async () => {
    const r = await newGist({
      description: '',
      file_name: ['', ''],
      file_content: ['hello', 'world'],
      file_original: ['', ''],
      visibility: 'public',
    });
    expect(r.status).toBe(303);
    const g = await apiGist(gistIdOf(r.location));
    expect(g.body.public).toBe(true);
    expect(Object.keys(g.body.files).sort()).toEqual(['gistfile1.txt', 'gistfile2.txt']);
  });

  it('shows each refusal next to the field it concerns, tied to it, with what was typed kept; nothing is written', async () => {
    const before = await s.db.selectFrom('gists').select('id').execute();
    const long = await newGist({
      description: 'd'.repeat(100_000),
      file_name: ['ok.txt'],
      file_content: ['fine'],
      file_original: [''],
      visibility: 'public',
    });
    expect(long.status).toBe(422);
    expect(long.text).toContain('aria-describedby="gist-description-error"');
    expect(textOf(long.text, 'gist-description-error')).toMatch(/description is too long/);
    const r = await newGist({
      description: 'Two of one name',
      file_name: ['ok.txt', 'other.txt', 'ok.txt'],
      file_content: ['fine', 'x', 'again'],
      file_original: ['', '', ''],
      visibility: 'public',
    });
    expect(r.status).toBe(422);
    expect(textOf(r.text, 'file-name-2-error')).toBe('a file named &quot;ok.txt&quot; already exists in this gist');
    expect(r.text).toContain('id="file-name-2" name="file_name" type="text" value="ok.txt"');
    expect(r.text).toMatch(/id="file-name-2"[^>]*aria-describedby="file-name-2-error"/);
    expect(await s.db.selectFrom('gists').select('id').execute()).toEqual(before);

    const named = await newGist({
      description: '',
      file_name: ['fine.txt', 'bad/name.txt'],
      file_content: ['x', 'y'],
      file_original: ['', ''],
      visibility: 'public',
    });
    expect(named.status).toBe(422);
    expect(textOf(named.text, 'file-name-1-error')).toContain('file names cannot contain slashes');
    expect(textOf(named.text, 'file-name-0-error')).toBeUndefined();
    const blank = await newGist({
      description: '',
      file_name: ['fine.txt', 'blank.txt'],
      file_content: ['x', '  '],
      file_original: ['', ''],
      visibility: 'public',
    });
    expect(blank.status).toBe(422);
    expect(textOf(blank.text, 'file-content-1-error')).toContain('can&#39;t be blank');
    expect(blank.text).toMatch(/id="file-content-1"[^>]*aria-describedby="file-content-1-error"/);
    expect(blank.text).toContain('>\n  </textarea>');
    expect(await s.db.selectFrom('gists').select('id').execute()).toEqual(before);
  });
});

describe('the edit form', () => {
  let id: string;
  beforeAll(async () => {
    const r = await newGist({
      description: 'Notes',
      file_name: ['a.txt', 'b.txt'],
      file_content: ['one\n', 'two\n'],
      file_original: ['', ''],
      visibility: 'secret',
    });
    id = gistIdOf(r.location);
  });

  it('is the owner’s alone: anyone else gets the not-found page for edit and delete', async () => {
    expect((await bob.get(`/gist/${id}/edit`)).status).toBe(404);
    expect((await bob.get(`/gist/${id}/delete`)).status).toBe(404);
    const forged = await bob.post(`/gist/${id}`, { description: 'mine now', file_name: [], save: '1' });
    expect(forged.status).toBe(404);
    expect((await apiGist(id)).body.description).toBe('Notes');
    const page = await alice.get(`/gist/${id}/edit`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Update secret gist');
    expect(page.text.match(/Delete this file/g)).toHaveLength(2);
  });

  it('changes content, renames a file, adds one and deletes one: one new revision with all of it', async () => {
    await alice.get(`/gist/${id}/edit`);
    const r = await alice.post(`/gist/${id}`, {
      description: 'Notes, edited',
      file_name: ['a.txt', 'renamed.txt', 'c.txt'],
      file_content: ['one, changed\r\n', 'two\n', 'three\n'],
      file_original: ['a.txt', 'b.txt', ''],
      save: '1',
    });
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${s.url}/gist/${id}`);
    let g = await apiGist(id);
    expect(g.body.description).toBe('Notes, edited');
    expect(Object.fromEntries(Object.entries(g.body.files).map(([k, f]: [string, any]) => [k, f.content]))).toEqual({
      'a.txt': 'one, changed\n',
      'c.txt': 'three\n',
      'renamed.txt': 'two\n',
    });
    expect(g.body.history).toHaveLength(2);

    await alice.get(`/gist/${id}/edit`);
    const removed = await alice.post(`/gist/${id}`, {
      description: 'Notes, edited',
      file_name: ['a.txt', 'c.txt', 'renamed.txt'],
      file_content: ['one, changed\n', 'three\n', 'two\n'],
      file_original: ['a.txt', 'c.txt', 'renamed.txt'],
      remove_file: '1',
      save: '1',
    });
    expect(removed.status).toBe(303);
    g = await apiGist(id);
    expect(Object.keys(g.body.files).sort()).toEqual(['a.txt', 'renamed.txt']);
    expect(g.body.history).toHaveLength(3);
  });

  it('refuses an emptied file (the checkbox deletes) and a rename onto another file, next to the field', async () => {
    await alice.get(`/gist/${id}/edit`);
    const r = await alice.post(`/gist/${id}`, {
      description: 'x',
      file_name: ['a.txt', 'a.txt'],
      file_content: ['', 'two\n'],
      file_original: ['a.txt', 'renamed.txt'],
      save: '1',
    });
    expect(r.status).toBe(422);
    expect(textOf(r.text, 'file-content-0-error')).toContain('Delete this file');
    expect((await apiGist(id)).body.description).toBe('Notes, edited');
  });

  it('deletes after a confirmation page', async () => {
    const confirm = await alice.get(`/gist/${id}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Are you sure you want to delete this gist');
    expect((await apiGist(id)).status).toBe(200);
    const r = await alice.post(`/gist/${id}/delete`, {});
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${s.url}/gist/alice`);
    expect((await apiGist(id)).status).toBe(404);
  });
});
