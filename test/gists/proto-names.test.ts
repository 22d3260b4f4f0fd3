// File names that are also names of Object.prototype's members (`__proto__`, `constructor`, …) are ordinary file names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchema } from '../helpers/openapi.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let alice: { login: string; token: string };

beforeAll(async () => {
  s = await startServer();
  alice = await s.userWithToken('alice');
});
afterAll(async () => s?.close());

/** A body with a `files` object holding own keys like `__proto__`, as a client's JSON text would carry them. */
function body(files: [string, unknown][], extra = ''): string {
  return `{${extra}"files":{${files.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}}`;
}

const own = (o: object) => Object.keys(o);
/** The file named `__proto__` in a gist's `files`: an own property (never the object's prototype). */
const protoFile = (files: object) => Object.getOwnPropertyDescriptor(files, '__proto__')?.value;

describe('gist files named like Object.prototype members', () => {
  it('are created, shown, updated, renamed and deleted like any other file', async () => {
    const created = await s.api('POST', '/gists', {
      token: alice.token,
      body: body(
        [
          ['__proto__', { content: 'proto\n' }],
          ['constructor', { content: 'ctor\n' }],
          ['toString', { content: 'str\n' }],
          ['hasOwnProperty', { content: 'own\n' }],
        ],
        '"public":true,',
      ),
    });
    expect(created.status).toBe(201);
    checkSchema(created as any, 'POST /gists');
    expect(own(created.body.files).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString']);
    expect(protoFile(created.body.files)).toMatchObject({ filename: '__proto__', content: 'proto\n', size: 6 });
    expect(created.body.files.constructor).toMatchObject({ filename: 'constructor', content: 'ctor\n' });
    const id = created.body.id as string;

    // Every form: the single gist, lists, a past revision, the raw URL.
    const single = await s.api('GET', `/gists/${id}`);
    expect(own(single.body.files).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString']);
    const listed = (await s.api('GET', '/gists', { token: alice.token })).body.find((g: { id: string }) => g.id === id);
    expect(own(listed.files).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString']);
    const raw = await fetch(protoFile(single.body.files).raw_url);
    expect(await raw.text()).toBe('proto\n');

    // Update both, then rename them onto each other's kind of name, then delete them.
    const updated = await s.api('PATCH', `/gists/${id}`, {
      token: alice.token,
      body: body([
        ['__proto__', { content: 'proto 2\n' }],
        ['constructor', { content: 'ctor 2\n' }],
      ]),
    });
    expect(updated.status).toBe(200);
    expect(protoFile(updated.body.files).content).toBe('proto 2\n');
    expect(updated.body.files.constructor.content).toBe('ctor 2\n');

    const renamed = await s.api('PATCH', `/gists/${id}`, {
      token: alice.token,
      body: body([
        ['__proto__', { filename: 'prototype' }],
        ['constructor', { filename: '__defineGetter__' }],
        ['toString', { filename: '__proto__' }],
      ]),
    });
    expect(renamed.status).toBe(200);
    expect(own(renamed.body.files).sort()).toEqual(['__defineGetter__', '__proto__', 'hasOwnProperty', 'prototype']);
    expect(protoFile(renamed.body.files).content).toBe('str\n');
    expect(renamed.body.files.prototype.content).toBe('proto 2\n');

    const deleted = await s.api('PATCH', `/gists/${id}`, {
      token: alice.token,
      body: body([
        ['__proto__', null],
        ['__defineGetter__', null],
      ]),
    });
    expect(deleted.status).toBe(200);
    expect(own(deleted.body.files).sort()).toEqual(['hasOwnProperty', 'prototype']);

    const history = (await s.api('GET', `/gists/${id}`)).body.history;
    expect(history).toHaveLength(4);
    const first = await s.api('GET', `/gists/${id}/${history[3].version}`);
    expect(own(first.body.files).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString']);
  });

  it('are refused or accepted by the same rules as other names (a missing one is not a file of the gist)', async () => {
    const created = await s.api('POST', '/gists', { token: alice.token, body: { files: { 'a.txt': { content: 'a\n' } } } });
    for (const name of ['__proto__', 'constructor', 'valueOf']) {
      const r = await s.api('PATCH', `/gists/${created.body.id}`, { token: alice.token, body: body([[name, { filename: 'x.txt' }]]) });
      expect(r.status).toBe(422);
      expect(r.body.errors[0]).toMatchObject({ code: 'missing', message: `"${name}" is not a file of this gist` });
    }
  });
});
