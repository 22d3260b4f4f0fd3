// `hublet gist …` in-process against a fake I/O: local mode over the server's data dir and remote mode against the server
// give the same output and exit codes; stdin, --json, pagination, usage errors, and `gist clone` making real working
// trees (git is a real process); and a local clone by the executable itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  failed,
  ok,
  pool,
  runCli as spawnCli,
  type CliResult,
  type CliServer,
  type RunOptions,
  type Sandbox,
  withoutHints,
} from '../helpers/cli.js';
import { openClient, type Client } from '../../src/cli/client.js';
import { runClone } from '../../src/cli/commands/gist/clone.js';
import { fakeIO, runInProcess as runCli, startInProcessCliServer } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';
import { contentsOf, gistApi } from './gist-api.js';

// git clones, 105 gists, and a process of the executable (~1 s of tsx start-up, far more on a busy machine): room for that.
vi.setConfig({ testTimeout: 240_000 });
const PROCESS_TIMEOUT_MS = 120_000;

let cli: CliServer;
let s: TestServer;
let sb: Sandbox;
let alice: { login: string; token: string };
let bob: { login: string; token: string };
/** Files the commands read. */
let files: string;

beforeAll(async () => {
  cli = await startInProcessCliServer();
  ({ server: s, sandbox: sb } = cli);
  alice = await s.userWithToken('alice', ['gist']);
  bob = await s.userWithToken('bob', ['gist']);
  files = path.join(sb.root, 'files');
  fs.mkdirSync(files);
});
afterAll(async () => {
  await cli?.close();
});

type Run = (args: string[], opts?: RunOptions) => Promise<CliResult>;
/** Local mode acts on the server's own data dir and database, with the server's public URL for links. */
const local =
  (login: string): Run =>
  (args, opts = {}) =>
    cli.local(['--as', login, ...args], opts);
const remote =
  (token: string | null): Run =>
  (args, opts = {}) =>
    cli.remote(token, args, opts);

function write(name: string, content: string | Buffer, dir = files): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

const { newGist, getGist } = gistApi(() => s);
const GIST_ID = /^[0-9a-f]{32}\n$/;
/** What `gist create` prints, as gh: the gist's html_url. */
const gistUrl = () => new RegExp(`^${s.url}/gist/[0-9a-f]{32}\n$`);
/** The id at the end of a printed gist URL. */
const idOf = (r: CliResult) => r.stdout.trim().split('/').pop()!;

describe('gist create', () => {
  it('takes files, piped stdin (named with --filename, or gistfile1.txt) and -, with --desc and --public, in both modes', async () => {
    const a = write('a.txt', 'alpha\n');
    const b = write('b.py', "print('é ✓')\n");
    const [twoLocal, named, dash, twoRemote, unnamed, json] = await pool([
      () => local('alice')(['gist', 'create', a, b, '--desc', 'two files', '--public']),
      () => local('alice')(['gist', 'create', '--filename', 'notes.md'], { stdin: '# piped\n' }),
      () => local('alice')(['gist', 'create', a, '-'], { stdin: 'from stdin\n' }),
      () => remote(alice.token)(['gist', 'create', a, b, '--desc', 'two files', '--public']),
      () => remote(alice.token)(['gist', 'create'], { stdin: 'unnamed\n' }),
      () => remote(alice.token)(['--json', 'gist', 'create', b, '-d', 'as json']),
    ]);
    // gh prints the new gist's URL (this printed only the id before).
    for (const r of [twoLocal, named, dash, twoRemote, unnamed]) expect(ok(r).stdout).toMatch(gistUrl());

    for (const two of [twoLocal, twoRemote]) {
      const g = await getGist(idOf(two));
      expect(g).toMatchObject({ public: true, description: 'two files', owner: { login: 'alice' } });
      expect(contentsOf(g)).toEqual({ 'a.txt': 'alpha\n', 'b.py': "print('é ✓')\n" });
    }
    const g2 = await getGist(idOf(named));
    expect(g2.public).toBe(false); // secret unless --public
    expect(contentsOf(g2)).toEqual({ 'notes.md': '# piped\n' });
    expect(contentsOf(await getGist(idOf(dash)))).toEqual({ 'a.txt': 'alpha\n', 'gistfile1.txt': 'from stdin\n' });
    expect(contentsOf(await getGist(idOf(unnamed)))).toEqual({ 'gistfile1.txt': 'unnamed\n' });

    const printed = JSON.parse(ok(json).stdout);
    expect(printed).toMatchObject({
      description: 'as json',
      public: false,
      owner: { login: 'alice' },
      files: { 'b.py': { content: "print('é ✓')\n" } },
    });
    expect(printed).toEqual(await getGist(printed.id)); // the API's own JSON
  });
});

describe('gist list', () => {
  it('follows pages up to --limit, filters --public/--secret, lists --starred, the same in both modes', async () => {
    const lister = await s.userWithToken('lister', ['gist']);
    const made: string[] = [];
    await pool(
      Array.from({ length: 105 }, (_, i) => async () => {
        const g = await newGist(lister.token, { [`f${i}.txt`]: `${i}\n` }, { public: i % 3 === 0, description: `number ${i}` });
        made.push(g.id);
      }),
      6,
    );
    // The API's own order (most recently updated first), over two pages.
    const pages = await Promise.all([1, 2].map((page) => s.api('GET', `/gists?per_page=100&page=${page}`, { token: lister.token })));
    const all: any[] = pages.flatMap((p) => p.body);
    expect(all.map((g) => g.id).sort()).toEqual([...made].sort());
    for (const id of [all[3].id, all[50].id]) expect((await s.api('PUT', `/gists/${id}/star`, { token: alice.token })).status).toBe(204);

    const [all150, first101, publicOnly, secretOnly, tableLocal, tableRemote, starredLocal, starredRemote] = await pool([
      () => local('lister')(['--json', 'gist', 'list', '--limit', '150']),
      () => remote(lister.token)(['--json', 'gist', 'list', '-L', '101']),
      () => local('lister')(['--json', 'gist', 'list', '--public', '--limit', '150']),
      () => remote(lister.token)(['--json', 'gist', 'list', '--secret', '--limit', '150']),
      () => local('lister')(['gist', 'list']),
      () => remote(lister.token)(['gist', 'list']),
      () => local('alice')(['gist', 'list', '--starred']),
      () => remote(alice.token)(['gist', 'list', '--starred']),
    ]);
    const ids = (r: CliResult) => JSON.parse(ok(r).stdout).map((g: any) => g.id);
    expect(ids(all150)).toEqual(all.map((g) => g.id));
    expect(JSON.parse(all150.stdout)[0]).toEqual(all[0]); // list items as the API gives them
    expect(ids(first101)).toEqual(all.slice(0, 101).map((g) => g.id));
    expect(ids(publicOnly)).toEqual(all.filter((g) => g.public).map((g) => g.id));
    expect(ids(publicOnly)).toHaveLength(35);
    expect(ids(secretOnly)).toEqual(all.filter((g) => !g.public).map((g) => g.id));

    // Tables: ten gists by default, one line each.
    const lines = ok(tableLocal).stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+DESCRIPTION\s+FILES\s+VISIBILITY\s+UPDATED$/);
    expect(lines).toHaveLength(11);
    lines.slice(1).forEach((line, i) => {
      const g = all[i];
      expect(line).toMatch(new RegExp(`^${g.id}\\s+${g.description}\\s+1 file\\s+${g.public ? 'public' : 'secret'}\\s+${g.updated_at}$`));
    });
    expect(ok(tableRemote).stdout).toBe(tableLocal.stdout);

    const starred = ok(starredLocal).stdout.trimEnd().split('\n');
    expect(starred[0]).toMatch(/^ID\s+OWNER\s+DESCRIPTION\s+FILES\s+VISIBILITY\s+UPDATED$/);
    expect(starred.slice(1).map((l) => l.split(/\s+/).slice(0, 2))).toEqual(
      expect.arrayContaining([
        [all[3].id, 'lister'],
        [all[50].id, 'lister'],
      ]),
    );
    expect(starred).toHaveLength(3);
    expect(ok(starredRemote).stdout).toBe(starredLocal.stdout);
  });
});

describe('gist view', () => {
  it('prints description and files like gh, --raw bytes, --filename, --revision, big files whole, --json; same in both modes', async () => {
    const v = await newGist(alice.token, { 'a.txt': 'alpha\n', 'b.md': 'no newline', 'ü.txt': 'ünï ✓\n' }, { description: 'viewed' });
    const patched = await s.api('PATCH', `/gists/${v.id}`, { token: alice.token, body: { files: { 'a.txt': { content: 'alpha v2\n' } } } });
    expect(patched.status).toBe(200);
    const single = await newGist(alice.token, { 'only.txt': 'exact\nbytes' });
    const big = `${'x'.repeat(1024 * 1024)}${'é'.repeat(300_000)}end`;
    const large = await newGist(alice.token, { 'big.txt': big });
    expect((await getGist(large.id)).files['big.txt'].truncated).toBe(true);
    const unknown = 'f'.repeat(32);

    // [what, args, check, modes]: 'both' runs the case in both modes and wants the same code, stdout and stderr.
    const cases: [string, string[], (r: CliResult) => void, 'both' | 'local' | 'remote'][] = [
      [
        'all files',
        ['gist', 'view', v.id],
        (r) => expect(ok(r).stdout).toBe('viewed\n\na.txt\n\nalpha v2\n\nb.md\n\nno newline\n\nü.txt\n\nünï ✓\n'),
        'both',
      ],
      [
        '--raw',
        ['gist', 'view', v.id, '--raw'],
        (r) => expect(ok(r).stdout).toBe('a.txt\n\nalpha v2\n\nb.md\n\nno newline\n\nü.txt\n\nünï ✓\n'),
        'local',
      ],
      ['--raw -f', ['gist', 'view', v.id, '--raw', '-f', 'b.md'], (r) => expect(ok(r).stdout).toBe('no newline'), 'both'],
      ['--filename', ['gist', 'view', v.id, '--filename', 'ü.txt'], (r) => expect(ok(r).stdout).toBe('ünï ✓\n'), 'remote'],
      ['one file --raw', ['gist', 'view', single.id, '--raw'], (r) => expect(ok(r).stdout).toBe('exact\nbytes'), 'local'],
      ['by URL', ['gist', 'view', single.html_url, '--raw'], (r) => expect(ok(r).stdout).toBe('exact\nbytes'), 'remote'],
      [
        '--revision',
        ['gist', 'view', v.id, '--revision', v.history[0].version, '-f', 'a.txt'],
        (r) => expect(ok(r).stdout).toBe('alpha\n'),
        'local',
      ],
      ['over 1 MiB', ['gist', 'view', large.id, '--raw'], (r) => expect(ok(r).stdout === big).toBe(true), 'both'],
      ['--json', ['--json', 'gist', 'view', v.id], (r) => expect(JSON.parse(ok(r).stdout)).toEqual(patched.body), 'both'],
      [
        '--json --revision',
        ['--json', 'gist', 'view', v.id, '--revision', v.history[0].version],
        (r) => expect(JSON.parse(ok(r).stdout).files['a.txt'].content).toBe('alpha\n'),
        'remote',
      ],
      [
        'no such file',
        ['gist', 'view', v.id, '-f', 'nope.txt'],
        (r) => expect(failed(r, 1).stderr).toBe(`hublet: gist ${v.id} has no file "nope.txt"\n`),
        'local',
      ],
      [
        'no such gist',
        ['gist', 'view', unknown],
        (r) => expect(JSON.parse(failed(r, 1).stderr)).toMatchObject({ message: 'Not Found', status: '404' }),
        'both',
      ],
      [
        'no such revision',
        ['gist', 'view', v.id, '--revision', 'a'.repeat(40)],
        (r) => expect(JSON.parse(failed(r, 1).stderr).status).toBe('404'),
        'remote',
      ],
    ];
    // bob views alice's gists (reads need no ownership): locally as bob, remotely with bob's token.
    const runs = cases.flatMap(([what, args, , modes]) => [
      ...(modes !== 'remote' ? [{ what, mode: 'local', run: () => local('bob')(args) }] : []),
      ...(modes !== 'local' ? [{ what, mode: 'remote', run: () => remote(bob.token)(args) }] : []),
    ]);
    const results = await pool(runs.map((r) => r.run));
    for (const [what, , check, modes] of cases) {
      const mine = runs.flatMap((r, i) => (r.what === what ? [{ mode: r.mode, result: results[i] }] : []));
      expect(mine).toHaveLength(modes === 'both' ? 2 : 1);
      for (const { mode, result } of mine) {
        try {
          check(result);
        } catch (err) {
          throw new Error(`${what} (${mode}): ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      if (mine.length === 2) {
        const [l, r] = mine.map((m) => m.result);
        expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }, what).toEqual({ code: l.code, stdout: l.stdout, stderr: l.stderr });
      }
    }
  });
});

describe('gist edit and rename', () => {
  it('replaces files by base name, adds, removes, sets the description, renames: one revision each, in both modes', async () => {
    const change = write('change.txt', 'changed\n', path.join(files, 'edit'));
    const added = write('new.txt', 'new\n', path.join(files, 'edit'));
    const modes: [string, Run, string][] = [
      ['local', local('alice'), (await newGist(alice.token, { 'keep.txt': 'keep\n', 'change.txt': 'old\n', 'drop.txt': 'drop\n' })).id],
      [
        'remote',
        remote(alice.token),
        (await newGist(alice.token, { 'keep.txt': 'keep\n', 'change.txt': 'old\n', 'drop.txt': 'drop\n' })).id,
      ],
    ];
    const outputs = await Promise.all(
      modes.map(async ([, run, id]) => {
        const edited = await run(['gist', 'edit', id, change, '--add', added, '--remove', 'drop.txt', '--desc', 'edited']);
        const renamed = await run(['gist', 'rename', id, 'keep.txt', 'kept.txt']);
        const described = await run(['--json', 'gist', 'edit', id, '-d', 'json edit']);
        return { edited, renamed, described };
      }),
    );
    for (const [i, [mode, , id]] of modes.entries()) {
      const { edited, renamed, described } = outputs[i];
      expect(ok(edited).stdout, mode).toBe(`updated gist ${id}\n`);
      expect(ok(renamed).stdout).toBe(`renamed keep.txt to kept.txt in gist ${id}\n`);
      const g = await getGist(id);
      expect(contentsOf(g)).toEqual({ 'kept.txt': 'keep\n', 'change.txt': 'changed\n', 'new.txt': 'new\n' });
      expect(g.description).toBe('json edit');
      expect(g.history).toHaveLength(3); // create, edit, rename (a description alone makes no revision)
      expect(JSON.parse(ok(described).stdout)).toEqual(g);
    }
  });

  it('refuses what would not do what was asked: exit 1 with the reason, the API error body on stderr', async () => {
    const g = await newGist(alice.token, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const stranger = write('c.txt', 'c\n', path.join(files, 'refusals'));
    const again = write('a.txt', 'a again\n', path.join(files, 'refusals'));
    const [missing, addExisting, removeMissing, renameOnto, renameMissing, notOwner] = await pool([
      () => local('alice')(['gist', 'edit', g.id, stranger]),
      () => remote(alice.token)(['gist', 'edit', g.id, '--add', again]),
      () => local('alice')(['gist', 'edit', g.id, '--remove', 'zzz.txt']),
      () => remote(alice.token)(['gist', 'rename', g.id, 'a.txt', 'b.txt']),
      () => local('alice')(['gist', 'rename', g.id, 'nope.txt', 'x.txt']),
      () => remote(bob.token)(['gist', 'edit', g.id, '-d', 'mine now']),
    ]);
    expect(failed(missing, 1).stderr).toBe(`hublet: gist ${g.id} has no file "c.txt" (use --add to add it)\n`);
    expect(failed(addExisting, 1).stderr).toBe(`hublet: gist ${g.id} already has a file "a.txt" (name it without --add to replace it)\n`);
    expect(JSON.parse(failed(removeMissing, 1).stderr)).toMatchObject({ status: '422', errors: [{ field: 'files', code: 'missing' }] });
    expect(JSON.parse(failed(renameOnto, 1).stderr)).toMatchObject({ status: '422', errors: [{ field: 'files', code: 'already_exists' }] });
    expect(JSON.parse(failed(renameMissing, 1).stderr)).toMatchObject({ status: '422', errors: [{ code: 'missing' }] });
    expect(JSON.parse(failed(notOwner, 1).stderr)).toMatchObject({ message: 'Not Found', status: '404' });
    const after = await getGist(g.id);
    expect(contentsOf(after)).toEqual({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    expect(after.history).toHaveLength(1);
  });
});

describe('gist delete, fork, star, unstar, history', () => {
  it('work in both modes, as the API says', async () => {
    const [delL, delR, forkL, forkR, starL, starR] = await Promise.all(
      ['delL', 'delR', 'forkL', 'forkR', 'starL', 'starR'].map((d) =>
        newGist(alice.token, { 'f.txt': `${d}\n` }, { public: true, description: d }),
      ),
    );
    await s.api('PUT', `/gists/${starL.id}/star`, { token: bob.token });
    await s.api('PUT', `/gists/${starR.id}/star`, { token: bob.token });
    const [deletedL, deletedR, strangerDelete, forkedL, forkedR, ownFork, starredL, starredR, unstarL, unstarR] = await pool([
      // Without a terminal, delete needs --yes (as current gh; it asks at a terminal: cli-conveniences.test.ts).
      () => local('alice')(['gist', 'delete', delL.id, '--yes']),
      () => remote(alice.token)(['gist', 'delete', delR.id, '--yes']),
      () => remote(bob.token)(['gist', 'delete', forkL.id, '--yes']),
      () => local('bob')(['gist', 'fork', forkL.id]),
      () => remote(bob.token)(['--json', 'gist', 'fork', forkR.id]),
      () => local('alice')(['gist', 'fork', forkR.id]),
      () => local('alice')(['gist', 'star', starL.id]),
      () => remote(alice.token)(['gist', 'star', starR.id]),
      () => local('bob')(['gist', 'unstar', starL.id]),
      () => remote(bob.token)(['gist', 'unstar', starR.id]),
    ]);
    expect(ok(deletedL).stdout).toBe(`deleted gist ${delL.id}\n`);
    expect(ok(deletedR).stdout).toBe(`deleted gist ${delR.id}\n`);
    for (const g of [delL, delR]) expect((await s.api('GET', `/gists/${g.id}`)).status).toBe(404);
    expect(JSON.parse(failed(strangerDelete, 1).stderr)).toMatchObject({ message: 'Not Found', status: '404' });
    expect((await s.api('GET', `/gists/${forkL.id}`)).status).toBe(200);

    expect(ok(forkedL).stdout).toMatch(GIST_ID);
    const fork = await getGist(forkedL.stdout.trim());
    expect(fork).toMatchObject({ owner: { login: 'bob' }, fork_of: { id: forkL.id }, files: { 'f.txt': { content: 'forkL\n' } } });
    const forkJson = JSON.parse(ok(forkedR).stdout);
    expect(forkJson).toMatchObject({ owner: { login: 'bob' }, fork_of: { id: forkR.id } });
    expect(forkJson).toEqual(await getGist(forkJson.id));
    expect(JSON.parse(failed(ownFork, 1).stderr)).toMatchObject({
      status: '422',
      message: expect.stringContaining('You cannot fork your own gist'),
    });

    expect(ok(starredL).stdout).toBe(`starred gist ${starL.id}\n`);
    expect(ok(starredR).stdout).toBe(`starred gist ${starR.id}\n`);
    expect(ok(unstarL).stdout).toBe(`unstarred gist ${starL.id}\n`);
    expect(ok(unstarR).stdout).toBe(`unstarred gist ${starR.id}\n`);
    for (const g of [starL, starR]) {
      expect((await s.api('GET', `/gists/${g.id}/star`, { token: alice.token })).status).toBe(204);
      expect((await s.api('GET', `/gists/${g.id}/star`, { token: bob.token })).status).toBe(404);
    }
  });

  it('history: a table of versions (newest first) or the /commits JSON; same in both modes', async () => {
    const g = await newGist(alice.token, { 'h.txt': 'one\n' });
    for (const content of ['one\ntwo\n', 'two\n']) {
      expect((await s.api('PATCH', `/gists/${g.id}`, { token: alice.token, body: { files: { 'h.txt': { content } } } })).status).toBe(200);
    }
    const commits = (await s.api('GET', `/gists/${g.id}/commits`)).body;
    expect(commits).toHaveLength(3);
    const [tableL, tableR, jsonL, unknown] = await pool([
      () => local('bob')(['gist', 'history', g.id]),
      () => remote(bob.token)(['gist', 'history', g.id]),
      () => local('bob')(['--json', 'gist', 'history', g.id]),
      () => remote(bob.token)(['gist', 'history', 'e'.repeat(32)]),
    ]);
    const lines = ok(tableL).stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^VERSION\s+USER\s+COMMITTED\s+ADDITIONS\s+DELETIONS$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/))).toEqual(
      commits.map((c: any) => [c.version, 'alice', c.committed_at, String(c.change_status.additions), String(c.change_status.deletions)]),
    );
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(3))).toEqual([
      ['0', '1'],
      ['1', '0'],
      ['1', '0'],
    ]);
    expect(ok(tableR).stdout).toBe(tableL.stdout);
    expect(JSON.parse(ok(jsonL).stdout)).toEqual(commits);
    expect(JSON.parse(failed(unknown, 1).stderr).status).toBe('404');
  });
});

describe('gist clone', () => {
  const gitLog = (dir: string) => execFileSync('git', ['-C', dir, 'log', '--format=%H'], { encoding: 'utf8' }).trim().split('\n');

  it('local mode: clones from the data dir (even with no server at the base URL), at the head the database names; origin is git_pull_url', async () => {
    const g = await newGist(alice.token, { 'a.txt': 'one\n', 'b.md': '# b\n' });
    const r = await s.api('PATCH', `/gists/${g.id}`, { token: alice.token, body: { files: { 'a.txt': { content: 'two\n' } } } });
    // As if a process had stopped between the database commit and the ref update: the branch is one revision behind.
    execFileSync('git', ['update-ref', 'refs/heads/main', g.history[0].version], {
      cwd: path.join(s.dataDir, 'git', 'gists', `${g.id}.git`),
    });
    const dir = path.join(sb.root, 'clone-local');
    const dirOffline = path.join(sb.root, 'clone-offline');
    const [cloned, offline] = await pool([
      () => local('bob')(['gist', 'clone', g.id, dir]),
      // Nothing listens at this base URL: local mode does not need a server.
      () => local('bob')(['gist', 'clone', g.id, dirOffline], { extraEnv: { HUBLET_BASE_URL: 'http://127.0.0.1:1' } }),
    ]);
    expect(ok(cloned).stdout).toBe(`cloned gist ${g.id} into ${dir}\n`);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('two\n');
    expect(fs.readFileSync(path.join(dir, 'b.md'), 'utf8')).toBe('# b\n');
    expect(gitLog(dir)).toEqual(r.body.history.map((h: any) => h.version));
    expect(execFileSync('git', ['-C', dir, 'remote', 'get-url', 'origin'], { encoding: 'utf8' }).trim()).toBe(g.git_pull_url);
    ok(offline);
    expect(fs.readFileSync(path.join(dirOffline, 'a.txt'), 'utf8')).toBe('two\n');
  });

  it('local mode: a write landing between the gist read and the clone is in the clone, and the branch never moves back', async () => {
    const g = await newGist(alice.token, { 'a.txt': 'one\n' });
    const env = Object.fromEntries(Object.entries(cli.localEnv).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
    const inner = await openClient({ data: s.dataDir, database: s.databaseUrl, as: 'bob' }, env);
    let newer: string | undefined;
    // The command reads the gist; before it clones, alice's edit commits (through the server).
    const racing: Client = {
      mode: inner.mode,
      async request(method, p, o) {
        const res = await inner.request(method, p, o);
        if (method === 'GET' && newer === undefined) {
          const r = await s.api('PATCH', `/gists/${g.id}`, { token: alice.token, body: { files: { 'a.txt': { content: 'two\n' } } } });
          newer = r.body.history[0].version;
        }
        return res;
      },
      settle: (q) => inner.settle(q),
      reach: (url, o) => inner.reach(url, o),
      serverPath: (p) => inner.serverPath(p),
      close: () => inner.close(),
    };
    const dir = path.join(sb.root, 'clone-raced');
    const fake = fakeIO();
    try {
      await runClone({ client: racing, id: g.id, dir, env }, fake.io);
    } finally {
      await racing.close();
    }
    expect(fake.stderr()).toBe('');
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('two\n');
    expect(gitLog(dir)[0]).toBe(newer);
    const branch = execFileSync('git', ['rev-parse', 'refs/heads/main'], {
      cwd: path.join(s.dataDir, 'git', 'gists', `${g.id}.git`),
      encoding: 'utf8',
    }).trim();
    expect(branch).toBe(newer);
  });

  it('remote mode: clones git_pull_url with the token in git’s environment, never in its arguments or config', async () => {
    const g = await newGist(alice.token, { 'secret.txt': 'psst\n' }, { public: false });
    // A `git` first on PATH that records its arguments and runs the real one, tracing its HTTP (git redacts credentials).
    const wrapDir = path.join(sb.root, 'wrap');
    const argvLog = path.join(sb.root, 'git-argv.log');
    const trace = path.join(sb.root, 'git-curl.trace');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    write('git', `#!/bin/sh\nprintf '%s\\n' "$*" >> "${argvLog}"\nexec "${realGit}" "$@"\n`, wrapDir);
    fs.chmodSync(path.join(wrapDir, 'git'), 0o755);
    const dir = path.join(sb.root, 'clone-remote');
    const anonymousDir = path.join(sb.root, 'clone-anonymous');
    const [cloned, anonymous, occupied] = await pool([
      () =>
        remote(alice.token)(['gist', 'clone', g.id, dir], { extraEnv: { PATH: `${wrapDir}:${process.env.PATH}`, GIT_TRACE_CURL: trace } }),
      () => remote(null)(['gist', 'clone', g.id, anonymousDir]), // secret gists clone without a token, as on GitHub
      () => remote(alice.token)(['gist', 'clone', g.id, files]), // not an empty directory: git refuses
    ]);
    expect(ok(cloned).stdout).toBe(`cloned gist ${g.id} into ${dir}\n`);
    expect(fs.readFileSync(path.join(dir, 'secret.txt'), 'utf8')).toBe('psst\n');
    expect(gitLog(dir)).toEqual([g.history[0].version]);
    expect(execFileSync('git', ['-C', dir, 'remote', 'get-url', 'origin'], { encoding: 'utf8' }).trim()).toBe(g.git_pull_url);
    const argv = fs.readFileSync(argvLog, 'utf8');
    expect(argv).toBe(`clone --quiet -- ${g.git_pull_url} ${dir}\n`);
    // Sent to the server on every request of the clone, and found nowhere it could be read back.
    const sent = fs.readFileSync(trace, 'utf8');
    expect(sent).toMatch(/Send header: GET \/gist\/[0-9a-f]{32}\.git\/info\/refs/);
    expect(sent).toMatch(/Send header: Authorization: Basic <redacted>/);
    expect(sent).not.toMatch(/Send header: Authorization: Basic [A-Za-z0-9+/=]{8,}/);
    for (const text of [argv, sent, fs.readFileSync(path.join(dir, '.git', 'config'), 'utf8')]) expect(text).not.toContain(alice.token);

    ok(anonymous);
    expect(fs.readFileSync(path.join(anonymousDir, 'secret.txt'), 'utf8')).toBe('psst\n');
    expect(failed(occupied, 1).stderr).toMatch(
      /already exists and is not an empty directory[\s\S]*hublet: git clone failed \(exit 128\)\n$/,
    );
  });

  it('by the executable: a local clone through its own loopback gateway, and the process exits 0 when done', async () => {
    const g = await newGist(alice.token, { 'bin.txt': 'from the binary\n' });
    const dir = path.join(sb.root, 'clone-bin');
    const r = await spawnCli(['--data', s.dataDir, '--database', s.databaseUrl, '--as', 'bob', 'gist', 'clone', g.id, dir], {
      env: cli.localEnv,
      timeoutMs: PROCESS_TIMEOUT_MS,
    });
    expect(ok(r).stdout).toBe(`cloned gist ${g.id} into ${dir}\n`);
    expect(fs.readFileSync(path.join(dir, 'bin.txt'), 'utf8')).toBe('from the binary\n');
    expect(execFileSync('git', ['-C', dir, 'remote', 'get-url', 'origin'], { encoding: 'utf8' }).trim()).toBe(g.git_pull_url);
  });

  it('without git on PATH: exit 1 saying so', async () => {
    const g = await newGist(alice.token, { 'a.txt': 'a\n' });
    const nodeOnly = path.join(sb.root, 'node-only');
    fs.mkdirSync(nodeOnly);
    fs.symlinkSync(process.execPath, path.join(nodeOnly, 'node'));
    const r = await local('alice')(['gist', 'clone', g.id, path.join(sb.root, 'never')], { extraEnv: { PATH: nodeOnly } });
    expect(failed(r, 1).stderr).toBe('hublet: git is not installed (or not on PATH); gist clone needs it\n');
    expect(fs.existsSync(path.join(sb.root, 'never'))).toBe(false);
  });
});

describe('usage errors, missing credentials, API refusals', () => {
  it('exit 2 for bad command lines, before the data dir is touched', async () => {
    const untouched = path.join(sb.root, 'untouched');
    const a = write('u.txt', 'u\n', path.join(files, 'usage'));
    const binary = write('bin.dat', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]), path.join(files, 'usage'));
    const run = (args: string[], stdin?: string) => runCli(['--data', untouched, ...args], { env: sb.env, stdin });
    const id = 'a'.repeat(32);
    const cases: [string[], RegExp, string?][] = [
      [['gist', 'view'], /missing required argument 'id'/],
      [['gist', 'list', '--public', '--secret'], /'--public' cannot be used with option '--secret'/],
      [['gist', 'list', '--limit', '0'], /expected a positive integer/],
      [['gist', 'create', path.join(files, 'usage', 'missing.txt')], /cannot read .*missing\.txt/],
      [['gist', 'create', binary], /bin\.dat is binary/],
      [['gist', 'create', '--filename', 'x.txt', a], /--filename names the content read from stdin/],
      [['gist', 'create', '-', '-'], /stdin \(-\) can be named once/, 'x'],
      // `gist edit ID` alone opens an editor now (cli-conveniences.test.ts); --filename names the file for it.
      [['gist', 'edit', id, a, '--filename', 'u.txt'], /--filename picks the file to change in your editor/],
      [['gist', 'delete', id], /--yes required when not running interactively/],
      [['gist', 'view', id, '--files', '--raw'], /'--files' cannot be used with option '-r, --raw'/],
      [['gist', 'edit', id, a, '--remove', 'u.txt'], /"u\.txt" is named twice/],
      [['gist', 'frobnicate'], /unknown command 'frobnicate'/],
    ];
    const results = await pool(
      cases.map(
        ([args, , stdin]) =>
          () =>
            run(args, stdin),
      ),
    );
    cases.forEach(([args, message], i) => {
      expect(results[i].code, `${args.join(' ')}: ${results[i].stderr}`).toBe(2);
      expect(results[i].stdout).toBe('');
      expect(results[i].stderr, args.join(' ')).toMatch(message);
    });
    expect(fs.existsSync(untouched)).toBe(false);
  });

  it('exit 4 when remote mode has no token for a write; the API error on stderr; `gist list --starred` is refused before any request', async () => {
    const g = await newGist(alice.token, { 'a.txt': 'a\n' }, { public: true });
    const a = write('n.txt', 'n\n', path.join(files, 'anonymous'));
    const results = await pool([
      () => remote(null)(['gist', 'create', a]),
      () => remote(null)(['gist', 'star', g.id]),
      () => remote(`hlp_${'n'.repeat(36)}`)(['gist', 'view', g.id]),
      () => local('ghost')(['gist', 'create', a]),
    ]);
    for (const r of results) {
      expect(failed(r, 4).stderr).toMatch(/"status": "401"/);
    }
    expect(JSON.parse(withoutHints(results[0].stderr)).message).toBe('Requires authentication');
    expect(results[0].stderr).toContain('hint: this needs a token: sign in with `hublet auth login');
    expect(JSON.parse(withoutHints(results[2].stderr)).message).toBe('Bad credentials');
    // As gh's: no "your gists" without a user (it listed everyone's public gists before; see cli-conveniences.test.ts).
    const starred = await remote(null)(['gist', 'list', '--starred']);
    expect(failed(starred, 4).stderr).toMatch(/^hublet: not signed in: `gist list` lists the gists you starred, which needs a token/);
    expect((await getGist(g.id)).history).toHaveLength(1);
  });

  it('exit 1 with the API error body for what the API refuses (empty stdin, unknown gists), the same in both modes', async () => {
    const unknown = 'e'.repeat(32);
    const neverCloned = path.join(sb.root, 'never-cloned');
    const both: string[][] = [
      ['gist', 'create'], // stdin is empty: the API says the content can't be blank
      ['gist', 'delete', unknown, '--yes'],
      ['gist', 'clone', unknown, neverCloned],
    ];
    const results = await pool([
      ...both.flatMap((args) => [() => local('alice')(args), () => remote(alice.token)(args)]),
      () => local('alice')(['gist', 'star', unknown]),
      () => remote(alice.token)(['gist', 'fork', unknown]),
      () => local('alice')(['gist', 'rename', unknown, 'a', 'b']),
    ]);
    both.forEach((args, i) => {
      const [l, r] = [results[2 * i], results[2 * i + 1]];
      expect(failed(l, 1).stderr, args.join(' ')).toMatch(/^\{/);
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: l.code, stdout: l.stdout, stderr: l.stderr });
    });
    expect(JSON.parse(results[0].stderr)).toMatchObject({ status: '422', errors: [{ field: 'files', code: 'missing_field' }] });
    for (const r of [results[2], results[4], ...results.slice(6)])
      expect(JSON.parse(failed(r, 1).stderr)).toMatchObject({ message: 'Not Found', status: '404' });
    expect(fs.existsSync(neverCloned)).toBe(false);
  });
});
