// The `repo` commands' run functions against a stubbed client and a fake I/O (no server, no data dir): whose repository
// a command means, the requests it makes, what it prints, and the typed confirmation before a delete.
import { describe, expect, it } from 'vitest';
import { runCreate } from '../../src/cli/commands/repo/create.js';
import { confirmDelete, runDelete } from '../../src/cli/commands/repo/delete.js';
import { runList } from '../../src/cli/commands/repo/list.js';
import { runView } from '../../src/cli/commands/repo/view.js';
import { fakeIO } from '../helpers/cli-inprocess.js';
import { BASE, repoBody } from './bodies.js';
import { stubClient } from './stub-client.js';

const me = { 'GET /user': { body: { login: 'Alice' } } };

describe('repo create', () => {
  it("creates NAME, or OWNER/NAME when OWNER is you, in your account; another OWNER's in that organization", async () => {
    const client = stubClient({
      ...me,
      'POST /user/repos': { status: 201, body: repoBody('alice/notes') },
      'POST /orgs/acme/repos': { status: 201, body: repoBody('acme/tools', { visibility: 'private' }) },
    });
    const fake = fakeIO();
    await runCreate({ client, json: false, spec: { owner: 'alice', name: 'notes' }, autoInit: true }, fake.io);
    await runCreate({ client, json: false, spec: { owner: 'acme', name: 'tools' }, private: true, description: 'build tools' }, fake.io);
    expect(client.sent.map((s) => [s.method, s.path, s.body])).toEqual([
      ['GET', '/user', undefined],
      ['POST', '/user/repos', { name: 'notes', private: false, auto_init: true, description: undefined }],
      ['GET', '/user', undefined],
      ['POST', '/orgs/acme/repos', { name: 'tools', private: true, auto_init: false, description: 'build tools' }],
    ]);
    expect(fake.stdout()).toBe(
      `created alice/notes (public)\nclone with: git clone ${BASE}/alice/notes.git\ncreated acme/tools (private)\nclone with: git clone ${BASE}/acme/tools.git\n`,
    );
  });
});

describe('repo list, view', () => {
  it("lists an organization's repositories by name, yours with affiliation=owner, another user's from /users", async () => {
    const client = stubClient({
      ...me,
      'GET /users/acme': { body: { login: 'acme', type: 'Organization' } },
      'GET /users/alice': { body: { login: 'alice', type: 'User' } },
      'GET /users/bob': { body: { login: 'bob', type: 'User' } },
      'GET /orgs/acme/repos?sort=full_name&per_page=100&page=1': {
        body: [repoBody('acme/tools', { description: 'build tools' }), repoBody('acme/web')],
      },
      'GET /user/repos?affiliation=owner&per_page=100&page=1': { body: [] },
      'GET /users/bob/repos?per_page=100&page=1': { body: [] },
    });
    const fake = fakeIO();
    await runList({ client, json: false, owner: 'acme', limit: 1 }, fake.io);
    expect(fake.stdout()).toBe(
      'NAME        VISIBILITY  BRANCH  PUSHED                DESCRIPTION\nacme/tools  public      main    2026-01-02T03:04:05Z  build tools\n',
    );
    await runList({ client, json: true, owner: 'alice', limit: 100 }, fakeIO().io);
    await runList({ client, json: true, owner: 'bob', limit: 100 }, fakeIO().io);
    expect(client.calls().filter((c) => c.includes('repos'))).toEqual([
      'GET /orgs/acme/repos?sort=full_name&per_page=100&page=1',
      'GET /user/repos?affiliation=owner&per_page=100&page=1',
      'GET /users/bob/repos?per_page=100&page=1',
    ]);
  });

  it('view prints fields, with your access when the API says', async () => {
    const client = stubClient({
      'GET /repos/acme/tools': {
        body: repoBody('acme/tools', { homepage: 'https://tools.example', permissions: { admin: false, push: true, pull: true } }),
      },
    });
    const fake = fakeIO();
    await runView({ client, json: false, spec: { owner: 'acme', name: 'tools' } }, fake.io);
    expect(fake.stdout().split('\n')).toEqual([
      'name:           acme/tools',
      'description:    ',
      'homepage:       https://tools.example',
      'visibility:     public',
      'default branch: main',
      `clone url:      ${BASE}/acme/tools.git`,
      'language:       ',
      'size:           0 KB',
      'pushed:         2026-01-02T03:04:05Z',
      'created:        2026-01-02T03:04:05Z',
      'your access:    write',
      '',
    ]);
  });
});

describe('repo delete', () => {
  it('asks for the full name on a terminal and goes on only when it is typed', async () => {
    const tty = fakeIO({ stdin: 'acme/tools\n', stdinIsTTY: true });
    await confirmDelete('acme/tools', tty.io);
    expect(tty.stderr()).toBe('Type acme/tools to delete it and all its git data: ');
    await expect(confirmDelete('acme/tools', fakeIO({ stdin: 'tools\n', stdinIsTTY: true }).io)).rejects.toMatchObject({
      code: 1,
      message: 'hublet: not deleted (the name did not match)',
    });
    await expect(confirmDelete('acme/tools', fakeIO({ stdin: 'acme/tools\n' }).io)).rejects.toMatchObject({
      code: 2,
      message: 'hublet: refusing to delete acme/tools without --yes (no terminal to confirm on)',
    });
  });

  it('deletes and says so', async () => {
    const client = stubClient({ 'DELETE /repos/acme/tools': { status: 204 } });
    const fake = fakeIO();
    await runDelete({ client, spec: { owner: 'acme', name: 'tools' } }, fake.io);
    expect(client.calls()).toEqual(['DELETE /repos/acme/tools']);
    expect(fake.stdout()).toBe('deleted acme/tools\n');
  });
});
