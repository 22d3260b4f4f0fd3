// The gh conveniences of `hublet gist …` and `hublet auth token`, in-process against a fake I/O (terminals chosen per
// run): `gist list` refused without credentials like gh's and `--public` listing everyone's public gists with owners;
// relative times at a terminal; `gist create` printing the URL; `gist view --files`; `gist edit` opening an editor
// (HUBLET_EDITOR > GIT_EDITOR > VISUAL > EDITOR) without losing an edit; `gist delete` asking first; `auth token`.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { editorCommand } from '../../src/cli/commands/gist/editor.js';
import { fuzzyAgo, timeCell } from '../../src/cli/relative-time.js';
import { failed, ok, pool, withoutHints, type CliResult, type CliServer, type Env, type Sandbox } from '../helpers/cli.js';
import { type FakeIOOptions, runInProcess, startInProcessCliServer } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';
import { contentsOf, gistApi } from './gist-api.js';

vi.setConfig({ testTimeout: 120_000 });

let cli: CliServer;
let s: TestServer;
let sb: Sandbox;
let alice: { login: string; token: string };
let bob: { login: string; token: string };

beforeAll(async () => {
  cli = await startInProcessCliServer();
  ({ server: s, sandbox: sb } = cli);
  alice = await s.userWithToken('alice', ['gist']);
  bob = await s.userWithToken('bob', ['gist']);
});
afterAll(async () => {
  await cli?.close();
});

type Opts = FakeIOOptions & { extraEnv?: Env };
/** Remote mode against the test server (no token: anonymous), with the terminals chosen. */
const remote = (token: string | null, args: string[], o: Opts = {}) =>
  runInProcess(['--server', s.url, ...(token ? ['--token', token] : []), ...args], { env: sb.env, ...o });
/** Local mode over the server's data dir, as `login`. */
const local = (login: string, args: string[], o: Opts = {}) =>
  runInProcess(['--data', s.dataDir, '--database', s.databaseUrl, '--as', login, ...args], { env: cli.localEnv, ...o });

const { newGist, getGist } = gistApi(() => s);

/** An executable script in the sandbox (an editor for `gist edit`). */
function script(name: string, body: string): string {
  const dir = path.join(sb.root, 'bin');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(file, 0o755);
  return file;
}

describe('gist list without credentials, and --public', () => {
  it('remote mode without a token is refused like gh ("not signed in", exit 4); --public lists everyone\'s public gists with an OWNER column', async () => {
    const mine = await newGist(alice.token, { 'a-pub.txt': 'a\n' }, { public: true, description: 'alice public' });
    const theirs = await newGist(bob.token, { 'b-pub.txt': 'b\n' }, { public: true, description: 'bob public' });
    const secret = await newGist(alice.token, { 'a-secret.txt': 's\n' }, { description: 'alice secret' });
    const undescribed = await newGist(bob.token, { 'gistfile1.txt': 'x\n', 'named.md': 'y\n' }, { public: true });
    const [plain, secretOnly, starred, pub, pubJson, pubSigned] = await pool([
      () => remote(null, ['gist', 'list']),
      () => remote(null, ['gist', 'list', '--secret']),
      () => remote(null, ['gist', 'list', '--starred']),
      () => remote(null, ['gist', 'list', '--public', '--limit', '100']),
      () => remote(null, ['--json', 'gist', 'list', '--public', '--limit', '100']),
      () => remote(alice.token, ['gist', 'list', '--public', '--limit', '100']),
    ]);
    for (const r of [plain, secretOnly, starred]) {
      expect(failed(r, 4).stderr).toMatch(
        /^hublet: not signed in: `gist list` lists (your gists|the gists you starred), which needs a token/,
      );
      expect(r.stderr).toContain(`hint: sign in with \`hublet auth login --server ${s.url}\``);
      expect(r.stderr).toContain("hint: `hublet gist list --public` lists everyone's public gists without a token");
    }

    const lines = ok(pub).stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+OWNER\s+DESCRIPTION\s+FILES\s+VISIBILITY\s+UPDATED$/);
    const rows = new Map(lines.slice(1).map((l) => [l.split(/\s+/)[0], l]));
    expect(rows.get(mine.id)).toMatch(new RegExp(`^${mine.id}\\s+alice\\s+alice public\\s+1 file\\s+public\\s+${mine.updated_at}$`));
    expect(rows.get(theirs.id)).toMatch(new RegExp(`^${theirs.id}\\s+bob\\s+bob public\\s+1 file\\s+public\\s+`));
    expect(rows.has(secret.id)).toBe(false);
    // No description: gh shows the first file that has a name of its own.
    expect(rows.get(undescribed.id)).toMatch(new RegExp(`^${undescribed.id}\\s+bob\\s+named\\.md\\s+2 files\\s+public\\s+`));
    const listed = JSON.parse(ok(pubJson).stdout);
    expect(listed.map((g: any) => g.id)).toEqual((await s.api('GET', '/gists/public?per_page=100')).body.map((g: any) => g.id));

    // Signed in, --public is gh's: only your own public gists, no OWNER column.
    const signed = ok(pubSigned).stdout.trimEnd().split('\n');
    expect(signed[0]).toMatch(/^ID\s+DESCRIPTION\s+FILES\s+VISIBILITY\s+UPDATED$/);
    expect(signed.slice(1).map((l) => l.split(/\s+/)[0])).toContain(mine.id);
    expect(signed.slice(1).map((l) => l.split(/\s+/)[0])).not.toContain(theirs.id);
  });

  it("local mode always has a user (HUBLET_USER, --as): lists that user's gists", async () => {
    const g = await newGist(alice.token, { 'l.txt': 'l\n' }, { description: 'local listed' });
    const r = await local('alice', ['gist', 'list', '--limit', '100']);
    expect(ok(r).stdout).toContain(g.id);
  });
});

describe('relative times in tables', () => {
  it("gh's FuzzyAgo words", () => {
    const now = new Date('2026-05-01T12:00:00Z');
    const ago = (ms: number) => fuzzyAgo(now, new Date(now.getTime() - ms));
    const min = 60_000;
    const hour = 60 * min;
    const day = 24 * hour;
    expect(ago(30_000)).toBe('less than a minute ago');
    expect(ago(min)).toBe('about 1 minute ago');
    expect(ago(59 * min)).toBe('about 59 minutes ago');
    expect(ago(2 * hour + 59 * min)).toBe('about 2 hours ago');
    expect(ago(day)).toBe('about 1 day ago');
    expect(ago(29 * day)).toBe('about 29 days ago');
    expect(ago(45 * day)).toBe('about 1 month ago');
    expect(ago(364 * day)).toBe('about 12 months ago');
    expect(ago(800 * day)).toBe('about 2 years ago');
    expect(timeCell('2026-05-01T10:00:00Z', true, now)).toBe('about 2 hours ago');
    expect(timeCell('2026-05-01T10:00:00Z', false, now)).toBe('2026-05-01T10:00:00Z');
  });

  it("gist list and gist history: relative at a terminal, the API's ISO time in a pipe; the same in both modes", async () => {
    const g = await newGist(alice.token, { 't.txt': 'one\n' }, { description: 'timed' });
    const [ttyL, ttyR, pipe, historyTty, historyPipe] = await pool([
      () => local('alice', ['gist', 'list', '--limit', '100'], { isTTY: true }),
      () => remote(alice.token, ['gist', 'list', '--limit', '100'], { isTTY: true }),
      () => remote(alice.token, ['gist', 'list', '--limit', '100']),
      () => remote(alice.token, ['gist', 'history', g.id], { isTTY: true }),
      () => local('alice', ['gist', 'history', g.id]),
    ]);
    const row = (r: CliResult) =>
      ok(r)
        .stdout.split('\n')
        .find((l) => l.startsWith(g.id)) ?? '';
    expect(row(ttyL)).toMatch(/\s+timed\s+1 file\s+secret\s+less than a minute ago$/);
    expect(row(ttyR)).toBe(row(ttyL));
    expect(row(pipe)).toMatch(new RegExp(`\\s+timed\\s+1 file\\s+secret\\s+${g.updated_at}$`));
    expect(ok(historyTty).stdout.trimEnd().split('\n')[1]).toMatch(
      new RegExp(`^${g.history[0].version}\\s+alice\\s+less than a minute ago\\s+1\\s+0$`),
    );
    expect(ok(historyPipe).stdout.trimEnd().split('\n')[1]).toMatch(
      new RegExp(`^${g.history[0].version}\\s+alice\\s+${g.history[0].committed_at}\\s+1\\s+0$`),
    );
  });
});

describe('gist create prints the URL; gist view --files', () => {
  it('prints the html_url on stdout (gh), "✓ Created …" on a terminal\'s stderr; --json keeps the record', async () => {
    const file = path.join(sb.root, 'made.md');
    fs.writeFileSync(file, '# made\n');
    const [l, r, tty, unnamed, json] = await pool([
      () => local('alice', ['gist', 'create', file]),
      () => remote(alice.token, ['gist', 'create', file, '--public']),
      () => remote(alice.token, ['gist', 'create', file], { stderrIsTTY: true }),
      () => remote(alice.token, ['gist', 'create', '--public'], { stdin: 'piped\n', stderrIsTTY: true }),
      () => remote(alice.token, ['--json', 'gist', 'create', file]),
    ]);
    const URL_LINE = new RegExp(`^${s.url}/gist/([0-9a-f]{32})\\n$`);
    for (const made of [l, r]) {
      const id = URL_LINE.exec(ok(made).stdout)![1];
      const g = await getGist(id);
      expect(g.html_url).toBe(made.stdout.trim());
      expect(contentsOf(g)).toEqual({ 'made.md': '# made\n' });
    }
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(URL_LINE);
    expect(tty.stderr).toBe('✓ Created secret gist made.md\n');
    expect(unnamed.stderr).toBe('✓ Created public gist\n'); // only gistfileN.txt: no name, as gh
    const printed = JSON.parse(ok(json).stdout);
    expect(printed).toEqual(await getGist(printed.id));
    // What create printed is what the other commands take.
    expect(ok(await remote(bob.token, ['gist', 'view', r.stdout.trim(), '--raw'])).stdout).toBe('# made\n');
  });

  it('view --files: the file names, one a line, in both modes; not with --filename or --raw', async () => {
    const g = await newGist(alice.token, { 'b.md': 'b\n', 'a.txt': 'a\n', 'Z.txt': 'z\n' }, { description: 'not printed' });
    const [l, r, withFilename, withRaw] = await pool([
      () => local('bob', ['gist', 'view', g.id, '--files']),
      () => remote(null, ['gist', 'view', g.html_url, '--files']),
      () => remote(null, ['gist', 'view', g.id, '--files', '--filename', 'a.txt']),
      () => remote(null, ['gist', 'view', g.id, '--files', '--raw']),
    ]);
    expect(ok(l).stdout).toBe('Z.txt\na.txt\nb.md\n');
    expect(ok(r).stdout).toBe(l.stdout);
    expect(failed(withFilename, 2).stderr).toMatch(/'--files' cannot be used with option '-f, --filename <name>'/);
    expect(failed(withRaw, 2).stderr).toMatch(/'--files' cannot be used with option '-r, --raw'/);
  });
});

describe('gist edit with an editor', () => {
  /** An editor that appends a line naming itself and the file it was given. */
  const appending = (who: string) => script(`editor-${who}`, `printf '%s edited %s\\n' '${who}' "$(basename "$1")" >> "$1"`);

  it('opens the editor on the only file and saves what it wrote: one revision, the same in both modes; --desc alone opens none', async () => {
    const editor = appending('hublet');
    const [gl, gr, gd] = await Promise.all([1, 2, 3].map(() => newGist(alice.token, { 'only.txt': 'one\n' })));
    const [l, r, d] = await pool([
      () => local('alice', ['gist', 'edit', gl.id], { extraEnv: { HUBLET_EDITOR: editor } }),
      () => remote(alice.token, ['gist', 'edit', gr.id], { extraEnv: { HUBLET_EDITOR: editor } }),
      () => remote(alice.token, ['gist', 'edit', gd.id, '-d', 'described'], { extraEnv: { HUBLET_EDITOR: editor } }),
    ]);
    for (const [run, g] of [
      [l, gl],
      [r, gr],
    ] as const) {
      expect(ok(run).stdout).toBe(`updated gist ${g.id}\n`);
      const after = await getGist(g.id);
      expect(contentsOf(after)).toEqual({ 'only.txt': 'one\nhublet edited only.txt\n' });
      expect(after.history).toHaveLength(2);
    }
    expect(ok(d).stdout).toBe(`updated gist ${gd.id}\n`);
    expect(await getGist(gd.id)).toMatchObject({ description: 'described', files: { 'only.txt': { content: 'one\n' } } });
  });

  it('several files: the first (with a note) or the one --filename names; --filename with --desc does both', async () => {
    const editor = appending('ed');
    const g = await newGist(alice.token, { 'b.txt': 'b\n', 'a.txt': 'a\n' });
    const first = await remote(alice.token, ['gist', 'edit', g.id], { extraEnv: { HUBLET_EDITOR: editor } });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe(`hublet: gist ${g.id} has 2 files; editing a.txt (choose another with --filename: a.txt, b.txt)\n`);
    const named = await local('alice', ['gist', 'edit', g.id, '--filename', 'b.txt', '--desc', 'both'], {
      extraEnv: { HUBLET_EDITOR: editor },
    });
    expect(ok(named).stdout).toBe(`updated gist ${g.id}\n`);
    const after = await getGist(g.id);
    expect(contentsOf(after)).toEqual({ 'a.txt': 'a\ned edited a.txt\n', 'b.txt': 'b\ned edited b.txt\n' });
    expect(after.description).toBe('both');
    const missing = await remote(alice.token, ['gist', 'edit', g.id, '-f', 'nope.txt'], { extraEnv: { HUBLET_EDITOR: editor } });
    expect(failed(missing, 1).stderr).toBe(`hublet: gist ${g.id} has no file "nope.txt"\n`);
  });

  it('chooses the editor as gh does: HUBLET_EDITOR, GIT_EDITOR, VISUAL, EDITOR, nano; `code --wait`-style commands work', async () => {
    expect(editorCommand({ HUBLET_EDITOR: 'h', GIT_EDITOR: 'g', VISUAL: 'v', EDITOR: 'e' })).toBe('h');
    expect(editorCommand({ GIT_EDITOR: 'g', VISUAL: 'v', EDITOR: 'e' })).toBe('g');
    expect(editorCommand({ VISUAL: 'v', EDITOR: 'e' })).toBe('v');
    expect(editorCommand({ EDITOR: 'e' })).toBe('e');
    expect(editorCommand({ EDITOR: ' ' })).toBe('nano');
    // VISUAL beats EDITOR in a real run, and an editor command with its own arguments is run through the shell.
    const withArgs = script('editor-args', `printf '%s\\n' "$1" >> "$2"`);
    const g = await newGist(alice.token, { 'v.txt': 'v\n' });
    const r = await remote(alice.token, ['gist', 'edit', g.id], {
      extraEnv: { VISUAL: `${withArgs} --from-visual`, EDITOR: appending('plain-editor') },
    });
    ok(r);
    expect(contentsOf(await getGist(g.id))).toEqual({ 'v.txt': 'v\n--from-visual\n' });
  });

  it('nothing changed: no revision; the editor failing: nothing saved', async () => {
    const g = await newGist(alice.token, { 'same.txt': 'same\n' });
    const [unchanged, failing] = await pool([
      () => remote(alice.token, ['gist', 'edit', g.id], { extraEnv: { HUBLET_EDITOR: 'true' } }),
      () => local('alice', ['gist', 'edit', g.id], { extraEnv: { HUBLET_EDITOR: script('editor-fails', `echo 'x' >> "$1"; exit 3`) } }),
    ]);
    expect(unchanged.code).toBe(0);
    expect(unchanged.stdout).toBe('');
    expect(unchanged.stderr).toBe(`hublet: no change to same.txt; gist ${g.id} not updated\n`);
    expect(failed(failing, 1).stderr).toContain('failed (exit 3); the gist is unchanged');
    const after = await getGist(g.id);
    expect(contentsOf(after)).toEqual({ 'same.txt': 'same\n' });
    expect(after.history).toHaveLength(1);
  });

  it('never loses the edit: a change made meanwhile, or a refused save, leaves it in its file and says where', async () => {
    const g = await newGist(alice.token, { 'race.txt': 'before\n' });
    // An editor during which someone else saves the gist (through the API), then writes its own version.
    const racing = script(
      'editor-racing',
      `curl -s -o /dev/null -X PATCH -H "Authorization: Bearer ${alice.token}" -d '{"files":{"race.txt":{"content":"theirs\\n"}}}' ${s.url}/gists/${g.id}\nprintf 'mine\\n' > "$1"`,
    );
    const raced = await remote(alice.token, ['gist', 'edit', g.id], { extraEnv: { HUBLET_EDITOR: racing } });
    expect(failed(raced, 1).stderr).toMatch(
      new RegExp(`^hublet: race\\.txt of gist ${g.id} changed while you edited it; not saved \\(your edit is kept in (\\S+)\\)\\n$`),
    );
    const kept = /kept in (\S+)\)/.exec(raced.stderr)![1];
    expect(fs.readFileSync(kept, 'utf8')).toBe('mine\n');
    expect(path.basename(kept)).toBe('race.txt');
    expect(contentsOf(await getGist(g.id))).toEqual({ 'race.txt': 'theirs\n' });
    fs.rmSync(path.dirname(kept), { recursive: true });

    // bob may read alice's gist but not change it: the API's 404, and bob's edit kept.
    const refused = await local('bob', ['gist', 'edit', g.id], {
      extraEnv: { HUBLET_EDITOR: script('editor-bob', `printf 'bob was here\\n' > "$1"`) },
    });
    expect(failed(refused, 1).stderr).toMatch(/"message": "Not Found"[\s\S]*\nhint: your edit is kept in \S+\n$/);
    const bobs = /your edit is kept in (\S+)\n$/.exec(refused.stderr)![1];
    expect(fs.readFileSync(bobs, 'utf8')).toBe('bob was here\n');
    expect(JSON.parse(withoutHints(refused.stderr))).toMatchObject({ status: '404' });
    fs.rmSync(path.dirname(bobs), { recursive: true });
  });

  it('a binary file is not opened; --filename with FILEs or --add is a usage error', async () => {
    const bin = await newGist(alice.token, { 'nul.dat': 'a\u0000b' });
    const editor = appending('never');
    const [binary, withFile, withAdd] = await pool([
      () => remote(alice.token, ['gist', 'edit', bin.id], { extraEnv: { HUBLET_EDITOR: editor } }),
      () => remote(alice.token, ['gist', 'edit', bin.id, path.join(sb.root, 'made.md'), '--filename', 'nul.dat']),
      () => remote(alice.token, ['gist', 'edit', bin.id, '--add', path.join(sb.root, 'made.md'), '-f', 'nul.dat']),
    ]);
    expect(failed(binary, 1).stderr).toBe('hublet: nul.dat is binary; the editor takes text (clone the gist and change it with git)\n');
    for (const r of [withFile, withAdd]) expect(failed(r, 2).stderr).toMatch(/--filename picks the file to change in your editor/);
    expect((await getGist(bin.id)).history).toHaveLength(1);
  });
});

describe('gist delete asks first', () => {
  it('at a terminal: `? Delete "FILE" gist? (y/N)`; yes deletes, anything else keeps it (exit 2); --yes does not ask', async () => {
    const [yes, no, eof, flag] = await Promise.all(
      ['yes', 'no', 'eof', 'flag'].map((d) => newGist(alice.token, { [`${d}.txt`]: `${d}\n`, 'z.txt': 'z\n' })),
    );
    const terminal = { isTTY: true, stdinIsTTY: true };
    const [answeredYes, answeredNo, ended, confirmed] = await pool([
      () => local('alice', ['gist', 'delete', yes.id], { ...terminal, stdin: 'Y\n' }),
      () => remote(alice.token, ['gist', 'delete', no.id], { ...terminal, stdin: 'n\n' }),
      () => remote(alice.token, ['gist', 'delete', eof.id], terminal),
      () => remote(alice.token, ['gist', 'delete', flag.id, '--yes'], terminal),
    ]);
    expect(answeredYes.code, answeredYes.stderr).toBe(0);
    expect(answeredYes.stderr).toBe('? Delete "yes.txt" gist? (y/N) ');
    expect(answeredYes.stdout).toBe(`deleted gist ${yes.id}\n`);
    for (const r of [answeredNo, ended]) {
      expect(failed(r, 2).stderr).toMatch(/^\? Delete "(no|eof)\.txt" gist\? \(y\/N\) hublet: not deleted\n$/);
    }
    expect(ok(confirmed).stdout).toBe(`deleted gist ${flag.id}\n`);
    expect((await s.api('GET', `/gists/${yes.id}`)).status).toBe(404);
    expect((await s.api('GET', `/gists/${flag.id}`)).status).toBe(404);
    for (const g of [no, eof]) expect((await s.api('GET', `/gists/${g.id}`)).status).toBe(200);
  });

  it('without a terminal it needs --yes (as current gh): a usage error, nothing deleted; with --yes it deletes', async () => {
    const g = await newGist(alice.token, { 'keep.txt': 'keep\n' });
    const [piped, stdoutOnly, withYes] = await pool([
      () => remote(alice.token, ['gist', 'delete', g.id], { stdin: 'y\n' }),
      () => remote(alice.token, ['gist', 'delete', g.id], { isTTY: true, stdin: 'y\n' }),
      () => remote(alice.token, ['gist', 'delete', 'f'.repeat(32), '--yes']),
    ]);
    for (const r of [piped, stdoutOnly]) expect(failed(r, 2).stderr).toBe('hublet: --yes required when not running interactively\n');
    expect((await s.api('GET', `/gists/${g.id}`)).status).toBe(200);
    expect(JSON.parse(failed(withYes, 1).stderr)).toMatchObject({ message: 'Not Found' });
    expect(ok(await local('alice', ['gist', 'delete', g.id, '--yes'])).stdout).toBe(`deleted gist ${g.id}\n`);
    expect((await s.api('GET', `/gists/${g.id}`)).status).toBe(404);
  });
});

describe('auth token', () => {
  it('prints the token remote mode sends: --token > HUBLET_TOKEN > saved; none in local mode', async () => {
    const home = path.join(sb.root, 'token-config');
    const env = { ...sb.env, HUBLET_CONFIG_DIR: home };
    const login = await runInProcess(['auth', 'login', '--server', s.url, '--token', alice.token], { env });
    ok(login);
    const [saved, fromEnv, fromFlag, otherServer, localMode] = await pool([
      () => runInProcess(['auth', 'token'], { env }),
      () => runInProcess(['auth', 'token'], { env, extraEnv: { HUBLET_TOKEN: bob.token } }),
      () => runInProcess(['--token', 'hlp_given', 'auth', 'token'], { env, extraEnv: { HUBLET_TOKEN: bob.token } }),
      () => runInProcess(['auth', 'token'], { env, extraEnv: { HUBLET_SERVER: 'http://127.0.0.1:1' } }),
      () => runInProcess(['--data', s.dataDir, 'auth', 'token'], { env }),
    ]);
    expect(ok(saved).stdout).toBe(`${alice.token}\n`);
    expect(ok(fromEnv).stdout).toBe(`${bob.token}\n`);
    expect(ok(fromFlag).stdout).toBe('hlp_given\n');
    // The saved token belongs to the saved server only.
    expect(failed(otherServer, 4).stderr).toBe(
      'hublet: no token found for http://127.0.0.1:1\nhint: sign in with `hublet auth login --server http://127.0.0.1:1`, or set HUBLET_TOKEN\n',
    );
    expect(failed(localMode, 1).stderr).toMatch(
      /^hublet: no token: this command would run in local mode \(data dir from --data\), which acts without one\n$/,
    );
  });
});
