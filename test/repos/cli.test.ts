// `hublet repo …` and `hublet admin repo import` in-process against a fake I/O, in local mode (next to a server on the
// same data dir) and in remote mode; what they print, their exit codes, and that the repositories they make serve git.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, pool as poolOf, type CliServer, withoutHints } from '../helpers/cli.js';
import { runInProcess, startInProcessCliServer } from '../helpers/cli-inprocess.js';
import type { TestServer } from '../helpers/server.js';
import { gitOk, tempDir, workingCopy } from './helpers.js';

/** git runs as processes, slowly on a busy two-core machine: generous limits, so only a real hang fails a test. */
const TEST_MS = 300_000;

let cli: CliServer;
let s: TestServer;
let alice: { login: string; id: number; token: string };
const tmp = tempDir();

beforeAll(async () => {
  cli = await startInProcessCliServer();
  s = cli.server;
  alice = await s.userWithToken('alice', ['repo', 'delete_repo', 'admin:org']);
  await s.createOrg('acme', 'alice');
});
afterAll(async () => {
  await cli?.close();
  tmp.cleanup();
});

const local = (args: string[], opts: { stdin?: string } = {}) => cli.local(args, opts);
const remote = (token: string, args: string[]) => cli.remote(token, args);

/** Runs CLI commands two at a time (the server and git share two cores). */
const pool = <T>(tasks: (() => Promise<T>)[]): Promise<T[]> => poolOf(tasks, 2);

describe('hublet repo create', () => {
  it(
    'creates in the acting user’s account locally and in an organization remotely; the server serves both over git',
    async () => {
      const [mine, theirs] = await pool([
        () => local(['--as', 'alice', 'repo', 'create', 'alice/from-cli', '--auto-init', '--description', 'Made by the CLI']),
        () => remote(alice.token, ['repo', 'create', 'acme/remote-made', '--private', '--json']),
      ]);
      expect(ok(mine).stdout).toBe(`created alice/from-cli (public)\nclone with: git clone ${s.url}/alice/from-cli.git\n`);
      const json = JSON.parse(ok(theirs).stdout);
      expect(json).toMatchObject({ full_name: 'acme/remote-made', private: true, clone_url: `${s.url}/acme/remote-made.git` });

      const served = await s.api('GET', '/repos/alice/from-cli');
      expect(served.body).toMatchObject({ description: 'Made by the CLI', default_branch: 'main' });
      const clone = path.join(tmp.dir, 'from-cli');
      await gitOk(['clone', '-q', `${s.url}/alice/from-cli.git`, clone], tmp.dir);
      expect(fs.readFileSync(path.join(clone, 'README.md'), 'utf8')).toBe('# from-cli\nMade by the CLI\n');
    },
    TEST_MS,
  );

  it(
    'takes NAME alone as the acting user’s, and reports API refusals on stderr with exit 1',
    async () => {
      const [bare, taken, notMine] = await pool([
        () => local(['--as', 'alice', 'repo', 'create', 'solo']),
        () => local(['--as', 'alice', 'repo', 'create', 'alice/FROM-CLI']),
        () => local(['repo', 'create', 'acme/admin-not-member']),
      ]);
      expect(ok(bare).stdout).toContain('created alice/solo (public)');
      expect(taken.code).toBe(1);
      expect(JSON.parse(taken.stderr)).toMatchObject({
        status: '422',
        errors: [{ field: 'name', message: 'name already exists on this account' }],
      });
      expect(notMine.code).toBe(1);
      expect(JSON.parse(notMine.stderr)).toMatchObject({ status: '404' });
    },
    TEST_MS,
  );
});

describe('hublet repo list and view', () => {
  it(
    'lists as a table or JSON: the caller’s repositories, or an organization’s, or another user’s',
    async () => {
      const [mine, org, json, other] = await pool([
        () => local(['--as', 'alice', 'repo', 'list']),
        () => remote(alice.token, ['repo', 'list', 'acme']),
        () => remote(alice.token, ['repo', 'list', 'alice', '--json']),
        () => local(['repo', 'list', 'alice']),
      ]);
      const lines = ok(mine).stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^NAME\s+VISIBILITY\s+BRANCH\s+PUSHED\s+DESCRIPTION$/);
      expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['acme/remote-made', 'alice/from-cli', 'alice/solo']);
      expect(lines.find((l) => l.startsWith('alice/from-cli'))).toMatch(/^alice\/from-cli\s+public\s+main\s+\S+Z\s+Made by the CLI$/);
      expect(
        ok(org)
          .stdout.trimEnd()
          .split('\n')
          .slice(1)
          .map((l) => l.split(/\s+/)[0]),
      ).toEqual(['acme/remote-made']);
      const listed = JSON.parse(ok(json).stdout) as { full_name: string }[];
      expect(listed.map((r) => r.full_name)).toEqual(['alice/from-cli', 'alice/solo']);
      // The site admin (local default) sees alice's public repositories only.
      expect(ok(other).stdout).toContain('alice/solo');
    },
    TEST_MS,
  );

  it(
    'views one repository as fields, or JSON; usage errors exit 2, unknown repositories 1',
    async () => {
      const [view, json, usage, missing] = await pool([
        () => local(['--as', 'alice', 'repo', 'view', 'alice/from-cli']),
        () => remote(alice.token, ['repo', 'view', 'acme/remote-made', '--json']),
        () => local(['repo', 'view', 'no-slash']),
        () => local(['repo', 'view', 'alice/nothing']),
      ]);
      const text = ok(view).stdout;
      expect(text).toContain('name:           alice/from-cli\n');
      expect(text).toContain('description:    Made by the CLI\n');
      expect(text).toContain('default branch: main\n');
      expect(text).toContain(`clone url:      ${s.url}/alice/from-cli.git\n`);
      expect(text).toContain('your access:    admin\n');
      expect(JSON.parse(ok(json).stdout)).toMatchObject({ full_name: 'acme/remote-made', permissions: { admin: true } });
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('expected OWNER/NAME');
      expect(missing.code).toBe(1);
      expect(JSON.parse(missing.stderr)).toMatchObject({ status: '404' });
    },
    TEST_MS,
  );
});

describe('hublet repo delete', () => {
  it(
    'asks for --yes when there is no terminal to confirm on, then deletes',
    async () => {
      const refused = await local(['--as', 'alice', 'repo', 'delete', 'alice/solo']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('without --yes');
      expect((await s.api('GET', '/repos/alice/solo')).status).toBe(200);
      const [deleted, remoteDeleted] = await pool([
        () => local(['--as', 'alice', 'repo', 'delete', 'alice/solo', '--yes']),
        () => remote(alice.token, ['repo', 'delete', 'acme/remote-made', '--yes']),
      ]);
      expect(ok(deleted).stdout).toBe('deleted alice/solo\n');
      expect(ok(remoteDeleted).stdout).toBe('deleted acme/remote-made\n');
      expect((await s.api('GET', '/repos/alice/solo')).status).toBe(404);
      expect((await s.api('GET', '/repos/acme/remote-made', { token: alice.token })).status).toBe(404);
      const badToken = await remote('hlp_nope', ['repo', 'delete', 'alice/from-cli', '--yes']);
      expect(badToken.code).toBe(4);
    },
    TEST_MS,
  );
});

describe('hublet repo delete on a terminal', () => {
  it(
    'asks for the full name on stderr: another name keeps the repository (exit 1), the name deletes it',
    async () => {
      expect((await s.api('POST', '/user/repos', { token: alice.token, body: { name: 'typed' } })).status).toBe(201);
      const asAlice = (stdin: string) =>
        runInProcess(['--data', s.dataDir, '--database', s.databaseUrl, '--as', 'alice', 'repo', 'delete', 'alice/typed'], {
          env: cli.localEnv,
          stdinIsTTY: true,
          stdin,
        });
      const prompt = 'Type alice/typed to delete it and all its git data: ';
      const wrong = await asAlice('alice/other\n');
      expect(wrong).toMatchObject({ code: 1, stdout: '', stderr: `${prompt}hublet: not deleted (the name did not match)\n` });
      expect((await s.api('GET', '/repos/alice/typed')).status).toBe(200);
      const right = await asAlice('alice/typed\n');
      expect(right).toMatchObject({ code: 0, stdout: 'deleted alice/typed\n', stderr: prompt });
      expect((await s.api('GET', '/repos/alice/typed')).status).toBe(404);
    },
    TEST_MS,
  );
});

describe('hublet admin repo import', () => {
  it(
    'imports a local repository (relative paths are the current directory’s in local mode) and, remotely, a server path',
    async () => {
      const src = await workingCopy(path.join(tmp.dir, 'to-import'), [{ message: 'one', files: { 'lib.rb': 'puts 1\n' } }], 'trunk');
      await gitOk(['tag', 'v1'], src);
      const relative = path.relative(process.cwd(), src);
      const adminToken = s.adminToken;
      const [imported, remoteImported, notAdmin] = await pool([
        () => local(['admin', 'repo', 'import', 'alice/imported', '--from', relative]),
        () => remote(adminToken, ['admin', 'repo', 'import', 'acme/imported', '--from', src, '--private', '--json']),
        () => remote(alice.token, ['admin', 'repo', 'import', 'alice/nope', '--from', src]),
      ]);
      const out = ok(imported).stdout;
      expect(out).toContain(`imported ${src} as alice/imported\n`);
      expect(out).toContain('default branch: trunk\n');
      expect(out).toContain('language:       Ruby\n');
      expect(JSON.parse(ok(remoteImported).stdout)).toMatchObject({ full_name: 'acme/imported', private: true, default_branch: 'trunk' });
      expect(notAdmin.code).toBe(1);
      expect(JSON.parse(withoutHints(notAdmin.stderr))).toMatchObject({ status: '404' });
      expect(notAdmin.stderr).toContain("hint: this needs a site administrator's token with the site_admin scope");
      const refs = await gitOk(['ls-remote', '--refs', `${s.url}/alice/imported.git`], tmp.dir);
      expect(refs).toMatch(/\trefs\/heads\/trunk\n/);
      expect(refs).toMatch(/\trefs\/tags\/v1\n/);
    },
    TEST_MS,
  );
});
