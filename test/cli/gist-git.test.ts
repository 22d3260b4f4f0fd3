// `gist edit`, `gist clone` and `gist import` run apart from a server: the stubbed client answers the API, an editor
// given in the environment edits the draft, git clones a bare repository the client's reach() points at, and the
// import's source is a stub of what the import asks of the server it copies from.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runClone } from '../../src/cli/commands/gist/clone.js';
import { runEdit } from '../../src/cli/commands/gist/edit.js';
import { runImport } from '../../src/cli/commands/gist/import.js';
import { fakeIO } from '../helpers/cli-inprocess.js';
import { BASE, GIST_ID as ID, gistBody } from './bodies.js';
import { stubClient } from './stub-client.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-cli-gist-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const noPlan = { replace: [], add: [], remove: [] };

describe('gist edit', () => {
  it('sends only what the plan names: removed files as null, the description', async () => {
    const client = stubClient({ [`PATCH /gists/${ID}`]: { body: gistBody({ 'a.md': 'a' }) } });
    const fake = fakeIO();
    await runEdit({ client, json: false, id: ID, env: {}, plan: { ...noPlan, remove: ['old.txt'], description: 'new' } }, fake.io);
    expect(client.sent).toEqual([{ method: 'PATCH', path: `/gists/${ID}`, body: { description: 'new', files: { 'old.txt': null } } }]);
    expect(fake.stdout()).toBe(`updated gist ${ID}\n`);
  });

  it('refuses to replace a file the gist does not have (a typo never adds one): exit 1, nothing sent', async () => {
    const client = stubClient({ [`GET /gists/${ID}`]: { body: gistBody({ 'a.md': 'a' }) } });
    const plan = { ...noPlan, replace: [{ filename: 'b.md', content: 'b' }] };
    await expect(runEdit({ client, json: false, id: ID, env: {}, plan }, fakeIO().io)).rejects.toMatchObject({
      code: 1,
      message: `hublet: gist ${ID} has no file "b.md" (use --add to add it)`,
    });
    expect(client.calls()).toEqual([`GET /gists/${ID}`]);
  });

  it("opens $HUBLET_EDITOR on the gist's file and saves what it wrote", async () => {
    const client = stubClient({
      [`GET /gists/${ID}`]: { body: gistBody({ 'a.md': 'old\n' }) },
      [`PATCH /gists/${ID}`]: { body: gistBody({ 'a.md': 'new\n' }) },
    });
    const fake = fakeIO();
    const env = { ...process.env, HUBLET_EDITOR: "printf 'new\\n' >" };
    await runEdit({ client, json: false, id: ID, env, plan: { ...noPlan, editor: {} } }, fake.io);
    expect(client.calls()).toEqual([`GET /gists/${ID}`, `GET /gists/${ID}`, `PATCH /gists/${ID}`]);
    expect(client.sent[2].body).toEqual({ files: { 'a.md': { content: 'new\n' } } });
    expect(fake.stdout()).toBe(`updated gist ${ID}\n`);
  });

  it('keeps the edit and saves nothing when the file changed on the server meanwhile', async () => {
    const client = stubClient({
      [`GET /gists/${ID}`]: [{ body: gistBody({ 'a.md': 'old\n' }) }, { body: gistBody({ 'a.md': 'theirs\n' }) }],
    });
    const env = { ...process.env, HUBLET_EDITOR: "printf 'mine\\n' >" };
    const err = await runEdit({ client, json: false, id: ID, env, plan: { ...noPlan, editor: {} } }, fakeIO().io).catch((e) => e);
    expect(err.code).toBe(1);
    const kept = /your edit is kept in (\S+)\)$/.exec(err.message)?.[1] ?? '';
    expect(err.message).toContain(`hublet: a.md of gist ${ID} changed while you edited it; not saved`);
    expect(fs.readFileSync(kept, 'utf8')).toBe('mine\n');
    expect(client.calls()).not.toContain(`PATCH /gists/${ID}`);
    fs.rmSync(path.dirname(kept), { recursive: true, force: true });
  });
});

describe('gist clone', () => {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' },
    })
      .toString()
      .trim();

  it('clones what reach() points at with git, then points origin at the gist’s git_pull_url', async () => {
    const work = path.join(tmp, 'work');
    git('init', '--quiet', '-b', 'main', work);
    fs.writeFileSync(path.join(work, 'a.md'), 'hello\n');
    git('-C', work, 'add', '.');
    git('-C', work, 'commit', '--quiet', '-m', 'one');
    const bare = path.join(tmp, 'served.git');
    git('clone', '--quiet', '--bare', work, bare);
    const reached: string[] = [];
    const reach = async (url: string) => {
      reached.push(url);
      return { url: bare };
    };
    const client = stubClient({ [`GET /gists/${ID}`]: { body: gistBody({ 'a.md': 'hello\n' }) } }, { reach });
    const fake = fakeIO();
    const dir = path.join(tmp, 'clone');
    await runClone({ client, id: ID, dir, env: process.env }, fake.io);
    expect(reached).toEqual([`${BASE}/gist/${ID}.git`]);
    expect(fs.readFileSync(path.join(dir, 'a.md'), 'utf8')).toBe('hello\n');
    expect(git('-C', dir, 'remote', 'get-url', 'origin')).toBe(`${BASE}/gist/${ID}.git`);
    expect(fake.stdout()).toBe(`cloned gist ${ID} into ${dir}\n`);
  });

  it('a gist that is not there ends with the API error, exit 1, before git runs', async () => {
    const client = stubClient({ [`GET /gists/${ID}`]: { status: 404, body: { message: 'Not Found' } } });
    const dir = path.join(tmp, 'none');
    await expect(runClone({ client, id: ID, dir, env: process.env }, fakeIO().io)).rejects.toMatchObject({ code: 1 });
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('gist import', () => {
  const sourceGist = {
    id: 'g1',
    url: 'https://src.example/gists/g1',
    gitPullUrl: 'https://src.example/gist/g1.git',
    description: null,
    public: true,
  };
  const source = (list: Awaited<ReturnType<Parameters<typeof runImport>[0]['source']['list']>>, head?: string) => ({
    root: 'https://src.example',
    list: async () => list,
    head: async () => head,
    gitToken: () => undefined,
  });

  it('leaves a gist unchanged, with no git at all, when the source says its head is the one imported before', async () => {
    const client = stubClient({
      'GET /user/gist-imports?per_page=100&page=1': {
        body: [{ source: sourceGist.url, gist_id: 'c1', head: 'f'.repeat(40), pending: false }],
      },
    });
    const fake = fakeIO();
    await runImport(
      { client, json: false, env: process.env, source: source({ gists: [sourceGist], unusable: [] }, 'f'.repeat(40)) },
      fake.io,
    );
    expect(client.calls()).toEqual(['GET /user/gist-imports?per_page=100&page=1']);
    expect(fake.stdout().split('\n')).toEqual([
      'STATUS     SOURCE                        GIST  REVISIONS',
      'unchanged  https://src.example/gists/g1  c1',
      '0 gists imported, 0 updated, 0 revisions added, 1 unchanged',
      '',
    ]);
  });

  it('reports a gist the source lists unusably as failed, on stderr too, and exits 1', async () => {
    const client = stubClient({ 'GET /user/gist-imports?per_page=100&page=1': { body: [] } });
    const fake = fakeIO();
    const unusable = [{ url: 'https://src.example/gists/x', problem: 'the source gives no http(s) git_pull_url to clone it from' }];
    await expect(
      runImport({ client, json: true, user: 'octocat', env: process.env, source: source({ gists: [], unusable }) }, fake.io),
    ).rejects.toMatchObject({
      code: 1,
      message: 'hublet: 1 gist of 1 could not be imported',
    });
    expect(fake.stderr()).toBe('hublet: https://src.example/gists/x: the source gives no http(s) git_pull_url to clone it from\n');
    expect(JSON.parse(fake.stdout())).toMatchObject({
      from: 'https://src.example',
      user: 'octocat',
      gists: [{ source: unusable[0].url, id: null, status: 'failed' }],
      summary: { failed: 1 },
    });
  });
});
