// The `auth` commands' run functions with a fake I/O and an environment of their own (a temporary config dir, git's
// global config in a temporary file): login and status against a stubbed client, the saved credentials, the token in
// use, git's credential helper set up and answering.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCredential } from '../../src/cli/commands/auth/git-credential.js';
import { runLogin } from '../../src/cli/commands/auth/login.js';
import { runLogout } from '../../src/cli/commands/auth/logout.js';
import { runSetupGit } from '../../src/cli/commands/auth/setup-git.js';
import { runStatus } from '../../src/cli/commands/auth/status.js';
import { runToken } from '../../src/cli/commands/auth/token.js';
import { fakeIO } from '../helpers/cli-inprocess.js';
import { stubClient } from './stub-client.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hublet-cli-auth-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** An environment with its own config dir (and nothing of the test process's HUBLET_* settings). */
function home(name: string): NodeJS.ProcessEnv {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  return {
    PATH: process.env.PATH,
    HOME: dir,
    HUBLET_CONFIG_DIR: path.join(dir, 'config'),
    GIT_CONFIG_GLOBAL: path.join(dir, 'gitconfig'),
    GIT_CONFIG_NOSYSTEM: '1',
  };
}

describe('auth login, logout', () => {
  it('checks the token with GET /user at the server, then saves both; logout forgets them', async () => {
    const env = home('login');
    const client = stubClient({ 'GET /user': { body: { login: 'alice' } } });
    const connected: string[][] = [];
    const fake = fakeIO();
    const connect = (server: string, token: string) => {
      connected.push([server, token]);
      return client;
    };
    await runLogin({ server: 'https://hublet.example/', token: 'hlp_1', json: false, env, connect }, fake.io);
    const file = path.join(env.HUBLET_CONFIG_DIR!, 'credentials.json');
    expect(connected).toEqual([['https://hublet.example', 'hlp_1']]);
    expect(fake.stdout()).toBe(`signed in to https://hublet.example as alice (saved to ${file})\n`);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ server: 'https://hublet.example', token: 'hlp_1', login: 'alice' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const out = fakeIO();
    await runLogout({ env }, out.io);
    await runLogout({ env }, out.io);
    expect(out.stdout()).toBe(`signed out (removed ${file})\nnot signed in\n`);
  });

  it('needs --server (exit 2); a refused token saves nothing (exit 4)', async () => {
    const env = home('refused');
    const never = () => {
      throw new Error('not to be called');
    };
    await expect(runLogin({ token: 't', json: false, env, connect: never }, fakeIO().io)).rejects.toMatchObject({
      code: 2,
      message: 'hublet auth login needs --server URL (and --token TOKEN in scripts)',
    });
    const client = stubClient({ 'GET /user': { status: 401, body: { message: 'Bad credentials' } } });
    await expect(
      runLogin({ server: 'https://hublet.example', token: 'bad', json: false, env, connect: () => client }, fakeIO().io),
    ).rejects.toMatchObject({ code: 4 });
    expect(fs.existsSync(path.join(env.HUBLET_CONFIG_DIR!, 'credentials.json'))).toBe(false);
  });
});

describe('auth status, token', () => {
  const remote = { ...home('status'), HUBLET_SERVER: 'https://hublet.example', HUBLET_TOKEN: 'hlp_2' };

  it('status names the mode, the server, the user and where each came from, asking GET /user as a command would', async () => {
    const client = stubClient({ 'GET /user': { body: { login: 'alice' }, headers: { 'x-oauth-scopes': 'gist, repo' } } });
    const fake = fakeIO();
    await runStatus({ flags: {}, json: false, env: remote, open: async () => client }, fake.io);
    expect(fake.stdout()).toBe(
      'remote mode: server https://hublet.example (from HUBLET_SERVER)\nuser: alice (token from HUBLET_TOKEN); scopes: gist, repo\n',
    );
    const json = fakeIO();
    await runStatus({ flags: { token: 'hlp_3' }, json: true, env: remote, open: async () => client }, json.io);
    expect(JSON.parse(json.stdout())).toEqual({
      mode: 'remote',
      server: 'https://hublet.example',
      login: 'alice',
      valid: true,
      scopes: ['gist', 'repo'],
      sources: { server: 'env', token: 'flag' },
    });
  });

  it('status exits 4 when the server refuses the token', async () => {
    const client = stubClient({ 'GET /user': { status: 401, body: { message: 'Bad credentials' } } });
    const fake = fakeIO();
    await expect(runStatus({ flags: {}, json: false, env: remote, open: async () => client }, fake.io)).rejects.toMatchObject({ code: 4 });
    expect(fake.stdout()).toContain('user: none, token rejected (HTTP 401) (token from HUBLET_TOKEN)\n');
  });

  it('token prints the token remote mode sends; in local mode there is none (exit 1)', async () => {
    const fake = fakeIO();
    await runToken({ flags: { token: 'hlp_flag' }, env: remote }, fake.io);
    expect(fake.stdout()).toBe('hlp_flag\n');
    await expect(runToken({ flags: { data: path.join(tmp, 'data') }, env: home('local') }, fakeIO().io)).rejects.toMatchObject({ code: 1 });
  });
});

describe('auth setup-git, git-credential', () => {
  it('setup-git without any server to set up exits 4 and writes nothing', async () => {
    const env = home('nothing');
    await expect(runSetupGit({ flags: {}, json: false, env, executable: '/usr/bin/hublet' }, fakeIO().io)).rejects.toMatchObject({
      code: 4,
    });
    expect(fs.existsSync(env.GIT_CONFIG_GLOBAL!)).toBe(false);
  });

  it("setup-git makes hublet git's only credential helper for the server", async () => {
    const env = { ...home('git'), HUBLET_SERVER: 'https://hublet.example', HUBLET_TOKEN: 'hlp_4' };
    const fake = fakeIO();
    await runSetupGit({ flags: {}, json: false, env, executable: '/usr/bin/hublet' }, fake.io);
    const helpers = execFileSync('git', ['config', '--global', '--get-all', 'credential.https://hublet.example.helper'], {
      env,
    }).toString();
    expect(helpers).toBe('\n!/usr/bin/hublet auth git-credential\n');
    expect(fake.stdout()).toBe(
      'git now asks hublet for the token for https://hublet.example (credential.https://hublet.example.helper in the global git config)\n',
    );
  });

  it('git-credential get answers git with the token for that server; store and erase do nothing', async () => {
    const env = { ...home('credential'), HUBLET_SERVER: 'https://hublet.example', HUBLET_TOKEN: 'hlp_5' };
    const fake = fakeIO({ stdin: 'protocol=https\nhost=hublet.example\n\n' });
    await runCredential({ operation: 'get', env }, fake.io);
    expect(fake.stdout()).toBe('protocol=https\nhost=hublet.example\nusername=x-access-token\npassword=hlp_5\n');
    const other = fakeIO({ stdin: 'url=https://elsewhere.example/x.git\n\n' });
    await expect(runCredential({ operation: 'get', env }, other.io)).rejects.toMatchObject({ code: 1 });
    expect(other.stdout()).toBe('');
    const store = fakeIO({ stdin: 'protocol=https\nhost=hublet.example\npassword=p\n\n' });
    await runCredential({ operation: 'store', env }, store.io);
    expect(store.stdout()).toBe('');
  });
});
